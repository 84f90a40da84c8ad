"""Ops generated as NumPy expressions (codegen/expressions.py): SumToShape with static shapes
becomes one `.sum(axis=...)`; values against NumPy and the reference interpreter."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.graph.evaluate import evaluate


@pytest.mark.parametrize("x_shape, b_shape, text", [
    ((4, 5), (5,), ".sum(axis=(0,))"),
    ((3, 4, 5), (5,), ".sum(axis=(0, 1))"),
    ((4, 5), (1, 5), ".sum(axis=(0,)).reshape((1, 5))"),
    ((3, 4, 5), (4, 1), ".sum(axis=(0, 2)).reshape((4, 1))"),
])
def test_broadcast_gradient_is_one_numpy_sum(x_shape, b_shape, text):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(x_shape).astype(np.float32)
    b = rng.standard_normal(b_shape).astype(np.float32)
    seed = rng.standard_normal(np.broadcast_shapes(x_shape, b_shape)).astype(np.float32)

    @tf.function
    def grad(x, b, seed):
        with tf.GradientTape() as tape:
            tape.watch(b)
            y = (x + b) * seed
        return tape.gradient(y, b)

    args = [tf.constant(x), tf.constant(b), tf.constant(seed)]
    got = grad(*args).numpy()
    lead = len(seed.shape) - len(b_shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(b_shape) if d == 1)
    np.testing.assert_allclose(got, seed.sum(axis=axes).reshape(b_shape), rtol=1e-6)
    cf = grad.get_concrete_function(*[tf.TensorSpec(a.shape) for a in args])
    assert text in cf.code and "k_SumToShape" not in cf.code
    reference = evaluate(cf.graph, args, cf.graph.structured_outputs)
    np.testing.assert_array_equal(got, reference.numpy())
    assert got.shape == b_shape and got.dtype == np.float32


def test_unknown_shapes_keep_the_kernel():
    @tf.function(input_signature=[tf.TensorSpec([None, 5]), tf.TensorSpec([5])])
    def grad(x, b):
        with tf.GradientTape() as tape:
            tape.watch(b)
            y = x + b
        return tape.gradient(y, b)

    np.testing.assert_array_equal(grad(tf.ones([3, 5]), tf.zeros([5])).numpy(), np.full(5, 3.0, np.float32))
    assert "k_SumToShape" in grad.get_concrete_function().code


SCALAR_OPS = [(tf.add, "+"), (tf.subtract, "-"), (tf.multiply, "*"), (tf.less, "<"), (tf.less_equal, "<="),
              (tf.greater, ">"), (tf.greater_equal, ">=")]


@pytest.mark.parametrize("fn, text", SCALAR_OPS, ids=[t for _, t in SCALAR_OPS])
@pytest.mark.parametrize("dtype, x, c", [
    (np.int32, 2 ** 31 - 1, 7),  # int32 wraps past the top, as the ufunc does
    (np.int64, -(2 ** 62), 3),
    (np.uint8, 250, 9),
    (np.float32, 0.1, 3.3),  # float32 arithmetic, not float64
    (np.float64, 1e300, 1e10),
])
def test_rank0_operator_with_a_constant_is_the_ufunc_bit_for_bit(fn, text, dtype, x, c):
    const = np.asarray(c, dtype)

    @tf.function
    def f(v):
        return fn(v, tf.constant(const)), fn(tf.constant(const), v)

    arg = tf.constant(np.asarray(x, dtype))
    cf = f.get_concrete_function(tf.TensorSpec([], tf.as_dtype(dtype)))
    assert f" {text} c_" in cf.code and "[()]" in cf.code
    got = [t.numpy() for t in f(arg)]
    with np.errstate(all="ignore"):
        expected = [fn_np(np.asarray(x, dtype), const) for fn_np in (lambda a, b: _UFUNC[text](a, b),
                                                                     lambda a, b: _UFUNC[text](b, a))]
    reference = [t.numpy() for t in evaluate(cf.graph, [arg], cf.graph.structured_outputs)]
    for g, e, r in zip(got, expected, reference):
        assert g.dtype == e.dtype == r.dtype
        np.testing.assert_array_equal(g, e)
        np.testing.assert_array_equal(g, r)


_UFUNC = {"+": np.add, "-": np.subtract, "*": np.multiply, "<": np.less, "<=": np.less_equal, ">": np.greater,
          ">=": np.greater_equal}


def test_loop_counter_compares_and_adds_as_scalars():
    @tf.function
    def total(x):
        s = tf.zeros_like(x)
        for i in tf.range(10):
            s += x * tf.cast(i, tf.float32)
        return s

    np.testing.assert_array_equal(total(tf.constant([1.0, -2.0])).numpy(), [45.0, -90.0])
    code = total.get_concrete_function(tf.TensorSpec([2])).code
    assert "k_Less" not in code and "< c_" in code and "[()]" in code


def test_two_computed_scalars_keep_the_kernel():
    """Without a constant operand the values could both be Python scalars, where `+` would not
    wrap as the ufunc does: the kernel call stays."""
    @tf.function
    def f(a, b):
        return a + b

    assert f(tf.constant(2 ** 31 - 1), tf.constant(1)).numpy() == -(2 ** 31)
    assert "k_AddV2(" in f.get_concrete_function(tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)).code
