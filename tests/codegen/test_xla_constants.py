"""Arguments compiled in as constants under jit_compile=True (codegen/xla.py `_call_with_constants`).

TensorFlow's XLA needs some op inputs at compile time (a shape, a size, the row count of
tf.where(x)); when such an input is computed from the function's arguments, TF compiles those
arguments in as constants, one executable per value. The expected values and messages below are
TensorFlow 2.21's (jit_compile=True), written in; the same programs without jit_compile give the
NumPy kernels' answers, which must agree.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402


def _both(fn, *args):
    """fn's result with jit_compile=True, after checking it equals the uncompiled one."""
    jitted = tf.function(fn, jit_compile=True)(*args)
    plain = tf.function(fn)(*args)
    for j, p in zip(tf.nest.flatten(jitted), tf.nest.flatten(plain)):
        assert j.dtype == p.dtype and j.shape == p.shape
        np.testing.assert_array_equal(j.numpy(), p.numpy())
    return tf.nest.map_structure(lambda t: t.numpy().tolist(), jitted)


def test_a_shape_computed_from_a_float_argument_compiles():
    # TF 2.21: [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    got = _both(lambda x, y: tf.reshape(x, tf.cast(y, tf.int32)), tf.ones([6]), tf.constant([2.0, 3.0]))
    assert got == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]


def test_where_with_one_argument_compiles_once_per_value():
    f = tf.function(lambda x: tf.where(x > 0), jit_compile=True)
    # TF 2.21: [[0], [2]] for a float and for an int argument
    assert f(tf.constant([1.0, -1.0, 2.0])).numpy().tolist() == [[0], [2]]
    assert f(tf.constant([-1.0, 3.0, 0.0])).numpy().tolist() == [[1]]  # a new value: a new executable
    assert f(tf.constant([1.0, -1.0, 2.0])).numpy().tolist() == [[0], [2]]
    assert _both(lambda x: tf.where(x > 0), tf.constant([1, -1, 2])) == [[0], [2]]


@pytest.mark.parametrize("fn, args, expected", [
    # TF 2.21's results under jit_compile=True
    (lambda x: tf.math.bincount(tf.cast(x, tf.int32)), (tf.constant([1.0, 1.0, 3.0]),), [0, 2, 0, 1]),
    (lambda x: tf.math.bincount(x, minlength=5, maxlength=5), (tf.constant([1, 1, 3]),), [0, 2, 0, 1, 0]),
    (lambda x, w: tf.math.bincount(x, weights=w, axis=-1),
     (tf.constant([[1, 1, 3], [0, 2, 2]]), tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
     [[0.0, 3.0, 0.0, 3.0], [4.0, 0.0, 11.0, 0.0]]),
    (lambda x: tf.math.bincount(x, binary_output=True, minlength=6), (tf.constant([1, 1, 3]),), [0, 1, 0, 1, 0, 0]),
    (lambda x: tf.math.bincount(x, minlength=5, maxlength=5), (tf.constant([1, 7, 3]),), [0, 1, 0, 1, 0]),
], ids=["from-float", "fixed-length", "rows-weighted", "binary", "beyond-maxlength"])
def test_bincount_compiles_as_in_tensorflow(fn, args, expected):
    assert _both(fn, *args) == expected


def test_bincount_with_a_size_known_at_trace_time_runs_the_lowering():
    """DenseBincount with a constant size and run-time values: the scatter-add in XLA, no constant
    arguments (the result changes with the argument on the same executable)."""
    from eagerflow._src.ops.registry import bind
    from eagerflow._src.ops.math.segments import DenseBincount

    def counts(x):
        return bind(DenseBincount, (x, tf.constant(5), tf.constant([], tf.float32)),
                    {"binary_output": False, "per_row": False, "out_dtype": tf.float32})
    assert _both(counts, tf.constant([1, 1, 4, 9])) == [0.0, 2.0, 0.0, 0.0, 1.0]
    f = tf.function(counts, jit_compile=True)
    assert f(tf.constant([1, 1, 4, 9])).numpy().tolist() == [0.0, 2.0, 0.0, 0.0, 1.0]
    assert f(tf.constant([0, 0, 0, 2])).numpy().tolist() == [3.0, 0.0, 1.0, 0.0, 0.0]
    assert not f.get_concrete_function(tf.constant([1, 1, 4, 9])).executable.compiled._static


def test_a_shape_from_a_random_draw_is_refused_at_the_users_line():
    @tf.function(jit_compile=True)
    def f(x):
        return tf.reshape(x, tf.cast(tf.random.uniform([2], 2, 3), tf.int32))  # the line named
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.ones([4]))
    message = str(info.value)
    # TF 2.21: "Input 1 to node `Reshape` with op Reshape must be a compile-time constant.\n\nXLA
    # compilation requires that operator arguments that represent shapes or dimensions be evaluated
    # to concrete values at compile time. ..."
    assert "Input 1 to node `Reshape` with op Reshape must be a compile-time constant." in message
    assert "jit_compile=False" in message
    assert "tf.random.uniform([2], 2, 3)" in message and __file__ in message


def test_a_shape_from_a_variable_is_refused_clearly():
    # TensorFlow 2.21 compiles this one (it reads the variable at compile time); eagerflow refuses it
    # with the compile-time-constant message rather than baking in a value the variable may change.
    v = tf.Variable([2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be a compile-time constant"):
        tf.function(lambda x: tf.reshape(x, v), jit_compile=True)(tf.ones([6]))


def test_unique_repeat_meshgrid_and_tensor_scatter_compile_as_in_tensorflow():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])

    def f(x, i, u):
        return tf.tensor_scatter_nd_update(x, i, u), tf.repeat(x, 2, axis=1), tf.meshgrid(x[0], x[1])
    got = _both(f, x, tf.constant([[0, 0]]), tf.constant([5.0]))
    # TF 2.21 under jit_compile=True
    assert got[0] == [[5.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert got[1] == [[1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [4.0, 4.0, 5.0, 5.0, 6.0, 6.0]]
    assert got[2] == [[[1.0, 2.0, 3.0]] * 3, [[4.0] * 3, [5.0] * 3, [6.0] * 3]]
    # TF 2.21: Unique(y=[1, 2], idx=[0, 0, 1]) (compiled once per value of the argument)
    assert _both(lambda v: tuple(tf.unique(v)), tf.constant([1, 1, 2])) == ([1, 2], [0, 0, 1])
