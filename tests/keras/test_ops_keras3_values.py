"""keras.ops' newer functions (numpy, nn, linalg, core, math) against Keras 3.15 on TF 2.21: each call of
keras_ops_cases.py is compared with the value, dtype (Keras' promotion rules) or exception that
make_ops_oracle.py recorded in keras3_ops_oracle.json; tensor-valued calls are also run under tf.function."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import eagerflow as tf

from .keras_ops_cases import make_cases, make_image_cases

with open(os.path.join(os.path.dirname(__file__), "keras3_ops_oracle.json")) as _f:
    _RECORDED = json.load(_f)
ORACLE = {**_RECORDED["values"], **{"image_" + k: v for k, v in _RECORDED["image_values"].items()}}
CASES = {**make_cases(tf.keras.ops, tf), **{"image_" + k: f for k, f in make_image_cases(tf.keras.ops, tf).items()}}
# calls whose inputs are built from Python values inside (windows, histogram edges...) or that return Python
# values: compared eagerly only
EAGER_ONLY = {"array_dt", "array", "array_f", "bartlett", "blackman", "hamming", "hanning", "kaiser", "geomspace",
              "logspace", "logspace_b2", "tri", "tri_dt", "empty", "empty_like", "expand_multi", "moveaxis_multi",
              "qr_complete", "svd_shapes", "unique", "unique_all", "lu", "jvp", "g_scan", "nonzero", "where1"}


def val(r):
    """A result in the oracle's form: [dtype, values rounded to 5 places, NaN as None]."""
    if isinstance(r, (list, tuple)):
        return [val(v) for v in r]
    if hasattr(r, "numpy") or isinstance(r, np.ndarray):
        dt = r.dtype.name if hasattr(r.dtype, "name") else str(r.dtype)
        a = np.asarray(r.numpy() if hasattr(r, "numpy") else r)
        if a.dtype.kind in "fc":
            a = np.round(a.real.astype(np.float64), 5)
            return [dt, np.where(np.isnan(a), None, a).tolist()]
        return [dt, a.astype(np.float64).tolist() if a.dtype.kind in "iub" else a.tolist()]
    if isinstance(r, np.generic):
        return round(float(r), 5)
    return r


def _close(got, want):
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and isinstance(got, (int, float)):
        return got == want or abs(got - want) <= 2e-5 + 1e-4 * abs(want)
    return got == want


def _key_words(message):
    """The words of a message that must match: without TF's kernel-location prefix, spacing, and what follows
    the allowed-dtype list (it differs by bfloat16), the op name or the received value's spelling."""
    if message.startswith("{{function_node"):
        message = message.split("}} ", 1)[1]
    for cut in (" allowed values", " [Op:", "Received", "All kernels"):
        message = message.split(cut)[0]
    return "".join(message.split())


def _check(name, run):
    want = ORACLE[name]
    if isinstance(want, list) and want and want[0] == "RAISES":
        kind, message = want[1], want[2]
        errors = {"InvalidArgumentError": tf.errors.InvalidArgumentError, "ValueError": ValueError,
                  "TypeError": TypeError, "NotFoundError": tf.errors.NotFoundError}
        with pytest.raises(errors[kind]) as info:
            run()
        assert _key_words(message) in _key_words(str(info.value)), str(info.value)
    else:
        got = val(run())
        assert _close(got, want), f"{name}: {got} != {want}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_keras(name):
    _check(name, CASES[name])


@pytest.mark.parametrize("name", sorted(set(CASES) - EAGER_ONLY))
def test_matches_keras_under_tf_function(name):
    want = ORACLE[name]
    if isinstance(want, list) and want and want[0] == "RAISES":
        pytest.skip("error cases are checked eagerly")
    if name.startswith("g_"):
        pytest.skip("gradients are checked eagerly")
    _check(name, tf.function(CASES[name]))
