"""TensorFlow's conversion rules for Python and NumPy values (checked against TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("value,dtype", [
    (1, tf.int32), (1.0, tf.float32), (True, tf.bool), ([1, 2], tf.int32), ([1, 2.5], tf.float32),
    (2 ** 40, tf.int64), (1 + 2j, tf.complex128), ("abc", tf.string), (np.float64(1.0), tf.float64),
    (np.array([1.0, 2.0]), tf.float64), (np.arange(3), tf.int64), (np.float32(2), tf.float32)])
def test_inferred_dtype(value, dtype):
    assert tf.constant(value).dtype is dtype


def test_constant_copies_numpy_input():
    x = np.array([1.0, 2.0], dtype=np.float32)
    t = tf.constant(x)
    x[0] = 7
    assert t.numpy()[0] == 1.0


def test_numpy_returns_a_copy():
    t = tf.constant([1.0, 2.0])
    n = t.numpy()
    n[0] = 9
    assert t.numpy()[0] == 1.0


def test_constant_with_dtype_and_shape():
    assert tf.constant(np.array([1.0, 2.0]), dtype=tf.float32).dtype is tf.float32
    np.testing.assert_array_equal(tf.constant(0, shape=[2, 3]).numpy(), np.zeros((2, 3), np.int32))
    np.testing.assert_array_equal(tf.constant([1, 2, 3, 4], shape=[2, 2]).numpy(), [[1, 2], [3, 4]])
    with pytest.raises(TypeError):
        tf.constant(1.5, dtype=tf.int32)
    with pytest.raises(TypeError):
        tf.constant([1, 2, 3], shape=[2, 2])


def test_python_scalar_takes_tensor_dtype():
    assert (tf.constant([1.0, 2.0], tf.float64) + 1).dtype is tf.float64
    assert (tf.constant([1, 2], tf.int64) * 2).dtype is tf.int64
    assert (tf.constant([1.0, 2.0]) + np.float64(1.0)).dtype is tf.float32
    assert (tf.constant([1.0, 2.0]) + np.array([1.0, 2.0])).dtype is tf.float32
    assert (2 - tf.constant(1.0)).numpy() == 1.0


def test_no_silent_promotion():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute AddV2 as input #1\(zero-based\) "
                                                            r"was expected to be a int32 tensor but is a float"):
        tf.constant(1) + tf.constant(1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor"):
        tf.constant([1, 2]) + 1.5
    with pytest.raises(tf.errors.InvalidArgumentError, match="double tensor but is a float tensor"):
        tf.constant([1.0], tf.float64) + tf.constant(1.0)


def test_convert_to_tensor():
    t = tf.constant([1.0])
    assert tf.convert_to_tensor(t) is t
    assert tf.convert_to_tensor([1, 2], dtype=tf.float32).dtype is tf.float32
    assert tf.convert_to_tensor(3, dtype_hint=tf.float32).dtype is tf.float32
    assert tf.convert_to_tensor(3.5, dtype_hint=tf.int32).dtype is tf.float32  # a hint is not forced
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float64"):
        tf.convert_to_tensor(t, dtype=tf.float64)
    with pytest.raises(ValueError, match="with an unsupported type"):
        tf.convert_to_tensor(object())


def test_list_of_tensors_is_packed():
    t = tf.convert_to_tensor([tf.constant(1.0), 2.0, tf.constant(3.0)])
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0, 3.0])


def test_strings():
    t = tf.constant("abc")
    assert t.numpy() == b"abc"
    assert repr(t) == "<tf.Tensor: shape=(), dtype=string, numpy=b'abc'>"
    assert tf.constant(["a", "bc"]).numpy().tolist() == [b"a", b"bc"]


def test_python_floats_keep_full_precision_in_float64():
    assert tf.constant(0.1, tf.float64).numpy() == 0.1
    assert (tf.constant([1.0], tf.float64) + 0.1).numpy()[0] == 1.1
