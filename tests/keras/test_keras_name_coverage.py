"""Every public name of Keras 3.15.1's keras, keras.layers, losses, metrics, optimizers, callbacks,
initializers, activations, utils, applications and random (keras_names_3_15.json, written in TensorFlow
2.21's Keras by make_keras_names.py) exists in eagerflow's keras or is listed in keras_left_out.py with the
reason it is left out; and nothing listed there exists already, so the list says what is missing.

Run as a script, it prints each namespace's count of names present out of Keras'."""
import json
import os

import pytest

from eagerflow import keras
from tests.keras.keras_left_out import LEFT_OUT

with open(os.path.join(os.path.dirname(__file__), "keras_names_3_15.json")) as _f:
    KERAS_NAMES = json.load(_f)

NAMESPACES = [n for n in KERAS_NAMES if n != "version"]
_KINDS = ("GPU-only", "JAX/Flax-only", "PyTorch-only", "not yet: ", "Keras' private")


def _namespace(name):
    return keras if name == "keras" else getattr(keras, name, None)


def _present(namespace, name):
    module = _namespace(namespace)
    return module is not None and hasattr(module, name)


def counts():
    """{namespace: (names eagerflow has, names Keras 3.15 has)}."""
    return {ns: (sum(_present(ns, n) for n in KERAS_NAMES[ns]), len(KERAS_NAMES[ns])) for ns in NAMESPACES}


def test_recorded_from_keras_3_15():
    assert KERAS_NAMES["version"] == "3.15.1"
    assert set(NAMESPACES) == {"keras", "layers", "losses", "metrics", "optimizers", "callbacks", "initializers",
                               "activations", "utils", "applications", "random"}
    assert "Conv2D" in KERAS_NAMES["layers"] and "SeedGenerator" in KERAS_NAMES["random"]


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_keras_name_is_present_or_left_out_with_a_reason(namespace):
    left_out = LEFT_OUT.get(namespace, {})
    unexplained = [n for n in KERAS_NAMES[namespace] if not _present(namespace, n) and n not in left_out]
    assert not unexplained, f"keras.{namespace}: missing and not in keras_left_out.py: {unexplained}"


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_left_out_names_are_missing_and_are_keras_names(namespace):
    left_out = LEFT_OUT.get(namespace, {})
    present = [n for n in left_out if _present(namespace, n)]
    assert not present, f"keras.{namespace}: now present, delete from keras_left_out.py: {present}"
    unknown = [n for n in left_out if n not in KERAS_NAMES[namespace]]
    assert not unknown, f"keras.{namespace}: not a Keras 3.15 name: {unknown}"


def test_every_reason_is_one_of_the_kinds():
    for namespace, names in LEFT_OUT.items():
        for name, reason in names.items():
            assert reason.startswith(_KINDS), (namespace, name, reason)


def test_top_level_names_are_the_namespace_classes():
    """keras.Loss is keras.losses.Loss, and so on, as in Keras 3.15."""
    assert keras.Loss is keras.losses.Loss and keras.Metric is keras.metrics.Metric
    assert keras.Optimizer is keras.optimizers.Optimizer and keras.Regularizer is keras.regularizers.Regularizer
    assert keras.InputSpec is keras.layers.InputSpec
    assert isinstance(keras.Variable(1.0), keras.Variable)
    with keras.name_scope("outer"):
        layer = keras.layers.Dense(1, name="dense")
        layer.build((None, 2))
    assert layer.kernel.path == "outer/dense/kernel"  # Keras 3.15's path


if __name__ == "__main__":
    for ns, (have, total) in counts().items():
        print(f"{ns:13s} {have:3d}/{total}")
