"""Activations on 4M float32 under `tf.function`: kernels of several NumPy passes (sigmoid, softplus,
GELU through erfc) on arrays larger than the L2 cache. Watched rows, no targets.

* `numpy`: what NumPy alone offers, written carefully: the overflow-free sigmoid in place, with no
  select; `np.logaddexp(0, x)` for softplus; GELU through SciPy's `erfc` when SciPy is installed
  (else `math.erfc` per element, the only erfc NumPy users have: the ratio then says so).
* `eagerflow`: `tf.sigmoid`, `tf.nn.softplus`, `tf.nn.gelu` (exact) in a `tf.function`: select-free
  kernels, erf/erfc as float32 rational functions (ops/math/erf_float32.py), run tile by tile
  (codegen/tiling.py).
* `tensorflow`: the same `tf.function` in TensorFlow (through `--tf-python`).
"""
from __future__ import annotations

import math

import numpy as np

from ..harness import Workload

N = 4 * 1024 * 1024


def _setup(quick):
    return {"x": np.random.default_rng(2).standard_normal(N // 64 if quick else N, dtype=np.float32)}


def _sigmoid_numpy(p):
    x = p["x"]
    zero, one = np.float32(0), np.float32(1)
    scratch = np.empty_like(x)

    def sigmoid():
        out = np.minimum(x, zero)
        np.exp(out, out=out)
        d = np.abs(x, out=scratch)
        np.negative(d, out=d)
        np.exp(d, out=d)
        d += one
        out /= d
        return out
    return sigmoid


def _softplus_numpy(p):
    x = p["x"]
    return lambda: np.logaddexp(np.float32(0), x)


def _erfc():
    try:
        from scipy.special import erfc
        return erfc
    except ImportError:
        per_element = np.vectorize(math.erfc, otypes=[np.float64])
        return lambda v: per_element(v).astype(v.dtype)


def _gelu_numpy(p):
    x = p["x"]
    erfc = _erfc()
    half, root = np.float32(0.5), np.float32(0.7071067811865476)
    return lambda: (x * half) * erfc(-x * root)


def _function(framework, body):
    def factory(p):
        if framework == "eagerflow":
            import eagerflow as tf
        else:
            import tensorflow as tf
        x = tf.constant(p["x"])
        f = tf.function(lambda x: body(tf, x))
        f(x)  # trace outside the timed loop
        return lambda: f(x)
    return factory


def _workload(name, floor, body, description, rtol=1e-5, atol=1e-6):
    return Workload(name=name, setup=_setup,
                    variants={"numpy": floor, "eagerflow": _function("eagerflow", body),
                              "tensorflow": _function("tensorflow", body)},
                    rtol=rtol, atol=atol, description=description)


WORKLOADS = [
    _workload("activations/sigmoid-4M", _sigmoid_numpy, lambda tf, x: tf.sigmoid(x),
              "tf.sigmoid on 4M float32 vs NumPy's overflow-free sigmoid in place"),
    _workload("activations/softplus-4M", _softplus_numpy, lambda tf, x: tf.nn.softplus(x),
              "tf.nn.softplus on 4M float32 vs np.logaddexp(0, x)", rtol=4e-6),
    _workload("activations/gelu-exact-4M", _gelu_numpy, lambda tf, x: tf.nn.gelu(x),
              "tf.nn.gelu (erfc form) on 4M float32 vs SciPy's erfc (math.erfc without SciPy)", rtol=2e-6),
]
