"""GELU on 4M float32: large elementwise work, where the time is memory traffic, not Python.

`0.5 * x * (1 + tanh(c * (x + a * x**3)))` (the tanh approximation, c = sqrt(2/pi), a = 0.044715)
in four forms:

* `numpy`: the floor, NumPy as a careful programmer writes it by hand: `x * x * x` instead of
  NumPy's slow float32 `power` (a `powf` call per element), one scratch buffer allocated once
  and reused through `out=`, and a fresh array for the result (it is returned, so it cannot be a
  buffer the next call overwrites).
* `numpy-naive`: the same formula typed as is: a new array per operation and `x ** 3` through
  `power`.
* `eagerflow`: the formula under `tf.function`, as a user writes it. The passes turn `x ** 3` into
  `x * square(x)`, the generated code writes each step into the buffer that died at it, and runs
  the chain in 256 KiB tiles that stay in the L2 cache through all nine steps (codegen/tiling.py),
  where the floor streams the 16 MB array through memory once per step. Target: at most 1.0x the
  hand-tuned floor.
* `tensorflow`: the same `tf.function` in TensorFlow (through `--tf-python`).
"""
from __future__ import annotations

import numpy as np

from ..harness import Workload, ratio_at_most

N = 4 * 1024 * 1024
C = float(np.sqrt(2.0 / np.pi))
A = 0.044715


def _setup(quick):
    rng = np.random.default_rng(0)
    return {"x": rng.standard_normal(N, dtype=np.float32)}


def _hand_tuned(p):
    x = p["x"]
    scratch = np.empty_like(x)
    c, a, half, one = np.float32(C), np.float32(A), np.float32(0.5), np.float32(1.0)

    def gelu():
        t = np.multiply(x, x, out=scratch)
        t *= x
        t *= a
        t += x
        t *= c
        np.tanh(t, out=t)
        t += one
        out = np.multiply(x, half)
        out *= t
        return out
    return gelu


def _naive(p):
    x = p["x"]
    c, a = np.float32(C), np.float32(A)
    return lambda: 0.5 * x * (1 + np.tanh(c * (x + a * x ** 3)))


def _function(framework):
    def factory(p):
        if framework == "eagerflow":
            import eagerflow as tf
        else:
            import tensorflow as tf
        x = tf.constant(p["x"])

        @tf.function
        def gelu(x):
            return 0.5 * x * (1.0 + tf.tanh(C * (x + A * x ** 3)))

        gelu(x)  # trace outside the timed loop
        return lambda: gelu(x)
    return factory


WORKLOADS = [
    Workload(name="gelu/4M-float32", setup=_setup,
             variants={"numpy": _hand_tuned, "numpy-naive": _naive, "eagerflow": _function("eagerflow"),
                       "tensorflow": _function("tensorflow")},
             target=ratio_at_most(1.0), rtol=1e-5, atol=1e-6,
             description="0.5*x*(1+tanh(c*(x+a*x**3))) under tf.function vs hand-tuned NumPy (x*x*x, out=)"),
]
