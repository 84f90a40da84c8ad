"""EagerTensor: printing in TensorFlow's format and the Python protocol."""
import numpy as np
import pytest

import eagerflow as tf


def test_str_and_repr_match_tensorflow():
    b = tf.add(tf.constant([1.0, 2.0]), 3.0)
    assert str(b) == "tf.Tensor([4. 5.], shape=(2,), dtype=float32)"
    assert repr(b) == "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 5.], dtype=float32)>"
    assert str(tf.constant(1.0)) == "tf.Tensor(1.0, shape=(), dtype=float32)"
    assert repr(tf.constant(1.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"
    assert str(tf.constant([[1, 2], [3, 4]])) == "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
    assert repr(tf.constant([[1, 2], [3, 4]])) == (
        "<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n       [3, 4]], dtype=int32)>")
    assert str(tf.constant(True)) == "tf.Tensor(True, shape=(), dtype=bool)"


def test_attributes():
    t = tf.constant(np.zeros((2, 3), np.float32))
    assert t.shape == tf.TensorShape([2, 3]) and t.ndim == 2 and t.dtype is tf.float32
    assert isinstance(t, tf.Tensor)
    assert type(tf.constant(1.5).numpy()) is np.float32
    assert "CPU:0" in t.device
    with pytest.raises(AttributeError, match="eager execution"):
        t.graph


def test_python_protocol():
    t = tf.constant([[1, 2, 3], [4, 5, 6]])
    assert len(t) == 2
    rows = list(t)
    assert len(rows) == 2 and rows[1].numpy().tolist() == [4, 5, 6]
    assert bool(tf.constant(1)) and not bool(tf.constant(0.0))
    assert [10, 20, 30][tf.constant(1)] == 20
    assert float(tf.constant(2.5)) == 2.5 and int(tf.constant(3.7)) == 3
    assert f"{tf.constant(1.5):.3f}" == "1.500"
    np.testing.assert_array_equal(np.asarray(t), [[1, 2, 3], [4, 5, 6]])
    assert np.add(tf.constant([1.0]), 1.0)[0] == 2.0


def test_protocol_errors_match_tensorflow():
    with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
        len(tf.constant(1))
    with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor."):
        iter(tf.constant(1))
    with pytest.raises(ValueError, match="truth value of an array"):
        bool(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Tensor is unhashable. Instead, use tensor.ref"):
        hash(tf.constant(1))


def test_ref_is_hashable_identity():
    a, b = tf.constant(1), tf.constant(1)
    d = {a.ref(): "a", b.ref(): "b"}
    assert d[a.ref()] == "a" and a.ref().deref() is a


def test_equality_operators():
    np.testing.assert_array_equal((tf.constant([1, 2]) == tf.constant([1, 3])).numpy(), [True, False])
    assert (tf.constant([1, 2]) == tf.constant([1, 2, 3])).numpy() == False  # noqa: E712 (TF: incompatible shapes)
    assert (tf.constant([1, 2]) == None) is False  # noqa: E711
    assert (tf.constant([1, 2]) != None) is True  # noqa: E711


def test_numpy_operand_on_the_left():
    out = np.array([1.0, 2.0], dtype=np.float32) + tf.constant([1.0, 1.0])
    assert isinstance(out, tf.Tensor)
    np.testing.assert_array_equal(out.numpy(), [2.0, 3.0])


def test_scalar_repr_shows_the_python_float_as_tensorflow_does():
    # TensorFlow 2.21 prints a float32 scalar through Python's float: all its double digits.
    assert repr(tf.constant(-0.41614681)) == "<tf.Tensor: shape=(), dtype=float32, numpy=-0.41614681482315063>"
    assert repr(tf.constant(float("inf"))) == "<tf.Tensor: shape=(), dtype=float32, numpy=inf>"
