"""`Model.compile(jit_compile=...)` as Keras 3.15 has it: "auto" is False on CPU, True compiles the
train/test/predict steps through XLA (the `xla` extra), run_eagerly wins with Keras' warning, and
the setting round-trips through compile_config. A compiled fit must train exactly as the plain one
(the reference: the same model without jit_compile, and Keras' own values for the settings)."""
from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras.compile_config import compile_config

HAS_JAX = importlib.util.find_spec("jax") is not None
RNG = np.random.default_rng(0)
X = RNG.random((96, 6)).astype(np.float32)
Y = RNG.integers(0, 3, 96)


def _model(**compile_args):
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(3)])
    m.compile(keras.optimizers.Adam(0.01), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"], **compile_args)
    return m


def test_auto_is_off_on_cpu_and_true_is_recorded_in_the_compile_config():
    assert _model().jit_compile is False  # Keras 3.15, TF backend, CPU
    assert _model(jit_compile=True).jit_compile is True
    assert compile_config(_model(jit_compile=True))["jit_compile"] is True
    assert compile_config(_model())["jit_compile"] is False
    m = _model(jit_compile=True)
    m.jit_compile = False
    assert m.jit_compile is False


def test_run_eagerly_disables_it_with_keras_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = _model(jit_compile=True, run_eagerly=True)
    assert m.jit_compile is False and m.run_eagerly is True
    assert [str(w.message) for w in caught] == [
        "If `run_eagerly` is True, then `jit_compile` cannot also be True. Disabling `jit_compile`."]


@pytest.mark.skipif(HAS_JAX, reason="checks the install without the xla extra")
def test_without_jax_fit_says_which_extra_to_install():
    with pytest.raises(ImportError, match=r"pip install 'eagerflow\[xla\]'"):
        _model(jit_compile=True).fit(X, Y, batch_size=32, epochs=1, verbose=0)


@pytest.mark.skipif(not HAS_JAX, reason="needs the xla extra (JAX)")
def test_a_compiled_fit_trains_as_the_plain_one():
    plain, compiled = _model(), _model(jit_compile=True)
    runs = []
    for m in (plain, compiled):
        history = m.fit(X, Y, batch_size=32, epochs=3, verbose=0, shuffle=False).history
        runs.append((history, m.evaluate(X, Y, verbose=0), m.predict(X[:7], verbose=0),
                     [v.numpy() for v in m.trainable_variables]))
    (h0, e0, p0, w0), (h1, e1, p1, w1) = runs
    assert sorted(h0) == sorted(h1) == ["accuracy", "loss"]
    for key in h0:
        np.testing.assert_allclose(h1[key], h0[key], rtol=1e-5)
    np.testing.assert_allclose(e1, e0, rtol=1e-5)
    np.testing.assert_allclose(p1, p0, rtol=1e-5, atol=1e-6)
    for a, b in zip(w1, w0):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert compiled._step_functions["train"]._jit_compile is True
