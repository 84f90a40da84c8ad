"""keras.ops' surface against Keras 3.15's (recorded in keras3_ops_oracle.json by make_ops_oracle.py): the
names of keras.ops and of its numpy, nn, linalg and image modules are Keras' own, less NOT_YET below."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import eagerflow as tf

with open(os.path.join(os.path.dirname(__file__), "keras3_ops_oracle.json")) as _f:
    SURFACE = json.load(_f)["surface"]
NOT_YET = {
    "numpy": {},
    "nn": {},
    "core": {},
    "linalg": {},
    "image": {"elastic_transform": "random displacement fields (seeded) not written yet",
              "scale_and_translate": "JAX's scale_and_translate kernels not written yet"},
}


def _public(module):
    return sorted(n for n in dir(module) if not n.startswith("_"))


def _expected(name):
    return sorted(set(SURFACE[name]) - set(NOT_YET[name]))


def test_submodules_have_exactly_keras_names():
    for name in ("numpy", "nn", "linalg", "image"):
        assert _public(getattr(tf.keras.ops, name)) == _expected(name), name


def test_top_level_reexports_numpy_nn_linalg_and_core():
    missing = set().union(*(NOT_YET[k] for k in ("numpy", "nn", "linalg", "core")))
    assert _public(tf.keras.ops) == sorted(set(SURFACE["ops"]) - missing)
    for name in _public(tf.keras.ops):
        value = getattr(tf.keras.ops, name)
        assert callable(value) or name in ("image", "linalg", "nn", "numpy"), name


def test_core_and_math_hold_the_names_outside_keras_submodules():
    ops = tf.keras.ops
    outside = set(SURFACE["ops"]) - set(SURFACE["numpy"]) - set(SURFACE["nn"]) - set(SURFACE["linalg"])
    outside -= {"image", "linalg", "nn", "numpy"} | set(NOT_YET["core"])
    assert sorted(set(_public(ops.core)) | set(_public(ops.math))) == sorted(outside)
    assert not set(_public(ops.core)) & set(_public(ops.math))


def test_every_name_is_the_same_object_everywhere():
    ops = tf.keras.ops
    for module in (ops.numpy, ops.nn, ops.linalg, ops.core, ops.math):
        for name in _public(module):
            assert getattr(ops, name) is getattr(module, name), name
    from eagerflow.keras.ops import add, relu  # noqa: F401 - the old flat imports keep working
    from eagerflow.keras.ops.nn import conv  # noqa: F401


def test_not_yet_entries_are_really_missing():
    """An entry here that gets implemented must leave the list (and enter the value tests)."""
    for module, names in NOT_YET.items():
        for name in names:
            assert not hasattr(getattr(tf.keras.ops, module), name), (module, name)


def test_import_eagerflow_does_not_load_keras_ops():
    code = "import sys, eagerflow; print('eagerflow.keras.ops' in sys.modules, 'eagerflow.keras' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.stdout.split() == ["False", "False"]
