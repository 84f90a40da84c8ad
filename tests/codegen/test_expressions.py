"""Ops generated as NumPy expressions (codegen/expressions.py): SumToShape with static shapes
becomes one `.sum(axis=...)`; values against NumPy and the reference interpreter."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.graph.evaluate import evaluate


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
