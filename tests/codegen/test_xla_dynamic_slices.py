"""`x[t, 1]`, `x[t, 1:]`, `x[:, -1, t]` with a loop counter `t` under jit_compile=True: a shrinking
index may be known only at run time (ops/array/slicing.py's _jax_index, codegen/xla_run.py's spec
elements); slice sizes must be known. References: NumPy, and the same function without
jit_compile (TensorFlow 2.21's graph mode gives the same values; its XLA returns
[[36, 40], [44, 48]] for `x[t, 1:]` and [39, 51, 63, 75] for the third case: we follow the
definition, not that)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

X = np.arange(24, dtype=np.float32).reshape(4, 3, 2)


def _both(fn):
    """(jit result, graph result) of the same Python function."""
    return (tf.function(fn, jit_compile=True)(tf.constant(X)).numpy(),
            tf.function(fn)(tf.constant(X)).numpy())


def _shrink_loop(x):
    s = tf.zeros([2])
    for t in tf.range(4):
        s += x[t, 1]
    return s


def _shrink_then_range(x):
    s = tf.zeros([2, 2])
    for t in tf.range(4):
        s += x[t, 1:]
    return s


def _mixed(x):
    s = tf.zeros([4])
    for t in tf.range(2):
        s += x[:, -1, t] + x[-t - 1, :, ::-1][0, 0]
    return s


@pytest.mark.parametrize("fn, want", [
    (_shrink_loop, X[:, 1].sum(axis=0)),
    (_shrink_then_range, X[:, 1:].sum(axis=0)),
    (_mixed, sum(X[:, -1, t] + X[-t - 1, :, ::-1][0, 0] for t in range(2))),
], ids=["x[t, 1]", "x[t, 1:]", "x[:, -1, t] and x[-t-1, :, ::-1]"])
def test_loop_counter_indexes_compile_and_agree_with_graph_mode(fn, want):
    jit, graph = _both(fn)
    np.testing.assert_array_equal(graph, want)
    np.testing.assert_array_equal(jit, want)


def test_gradient_through_a_dynamic_index_in_a_compiled_loop():
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            s = tf.zeros([2])
            for t in tf.range(4):
                s += x[t, 1] * tf.cast(t + 1, tf.float32)
            y = tf.reduce_sum(s * s)
        return tape.gradient(y, x)
    s = sum(X[t, 1] * (t + 1) for t in range(4))
    want = np.zeros_like(X)
    for t in range(4):
        want[t, 1] = 2 * s * (t + 1)
    jit, graph = _both(grad)
    np.testing.assert_allclose(graph, want)
    np.testing.assert_allclose(jit, want)


def test_a_range_with_a_run_time_size_is_refused_as_tensorflow_refuses_other_ones():
    @tf.function(jit_compile=True)
    def f(x):
        s = tf.zeros([2])
        for t in tf.range(4):
            s += x[t:, 1][0]  # the size, 4 - t, changes every step: no static shape
        return s
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be a compile-time constant"):
        f(tf.constant(X))
