"""passes/reshapes.py: a Reshape/Squeeze/ExpandDims chain that comes back to its starting shape is
the starting value, and Flatten's `reshape(x, stack([shape(x)[0], d]))` reads a constant [-1, d]
when x's other dimensions are known. Values are checked against NumPy; the cases that must stay
(a product of 0, another tensor's batch size, a chain to a new shape) are checked to stay."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.passes import pipeline

RNG = np.random.default_rng(5)


@pytest.fixture(autouse=True)
def verify(monkeypatch):
    monkeypatch.setattr(pipeline, "VERIFY", True)  # the program is checked after every pass


def test_a_bias_reshaped_and_squeezed_back_is_the_variable_itself():
    bias = tf.Variable(RNG.standard_normal(16).astype(np.float32))
    fn = tf.function(lambda x: x + tf.squeeze(tf.reshape(bias, [1, 1, 1, 16])) * 2.0)
    code = fn.get_concrete_function(tf.TensorSpec([None, 16])).code
    assert "k_Reshape" not in code and "k_Squeeze" not in code, code
    x = RNG.standard_normal((3, 16)).astype(np.float32)
    np.testing.assert_array_equal(fn(x).numpy(), x + bias.numpy() * np.float32(2.0))


def test_a_chain_to_a_new_shape_stays():
    fn = tf.function(lambda x: tf.expand_dims(tf.reshape(x, [4, 3]), 0) + 1.0)
    code = fn.get_concrete_function(tf.TensorSpec([3, 4])).code
    assert "k_Reshape" in code and "k_ExpandDims" in code, code
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_array_equal(fn(x).numpy(), x.reshape(1, 4, 3) + 1)


@pytest.mark.parametrize("batch", [0, 1, 5])
def test_flatten_reads_a_constant_shape(batch):
    def flatten(x):
        return tf.reshape(x, tf.stack([tf.shape(x)[0], 60])) * 3.0

    fn = tf.function(flatten)
    code = fn.get_concrete_function(tf.TensorSpec([None, 3, 4, 5])).code
    for kernel in ("k_Shape", "k_StridedSlice", "k_Pack"):
        assert kernel not in code, code
    x = RNG.standard_normal((batch, 3, 4, 5)).astype(np.float32)
    got = fn(x).numpy()
    assert got.shape == (batch, 60)
    np.testing.assert_array_equal(got, x.reshape(batch, 60) * 3)


def test_flatten_of_zero_elements_per_row_keeps_the_batch_size():
    """[-1, 0] cannot say the batch size: the shape stays computed (a batch of 2 gives [2, 0])."""
    fn = tf.function(lambda x: tf.reshape(x, tf.stack([tf.shape(x)[0], 0])))
    code = fn.get_concrete_function(tf.TensorSpec([None, 0, 3])).code
    assert "k_Pack" in code, code
    assert fn(np.zeros((2, 0, 3), np.float32)).shape == (2, 0)


def test_another_tensors_batch_size_stays():
    fn = tf.function(lambda x, y: tf.reshape(x, tf.stack([tf.shape(y)[0], 6])))
    code = fn.get_concrete_function(tf.TensorSpec([None, 2, 3]), tf.TensorSpec([None])).code
    assert "k_Pack" in code, code
    x = RNG.standard_normal((4, 2, 3)).astype(np.float32)
    np.testing.assert_array_equal(fn(x, np.zeros(4, np.float32)).numpy(), x.reshape(4, 6))
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn(x, np.zeros(3, np.float32))


def test_a_reshape_to_a_computed_shape_stays():
    """The static shape says [4], but a computed shape of another size must still be refused at run time."""
    fn = tf.function(lambda x, n: tf.reshape(x, tf.reshape(n, [1])) + 1.0)
    code = fn.get_concrete_function(tf.TensorSpec([4]), tf.TensorSpec([], tf.int32)).code
    assert "k_Reshape(x" in code, code
    np.testing.assert_array_equal(fn(np.arange(4, dtype=np.float32), tf.constant(4)).numpy(), np.arange(4) + 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn(np.arange(4, dtype=np.float32), tf.constant(5))
