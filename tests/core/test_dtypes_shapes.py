"""DType, TensorShape and TensorSpec behave as TensorFlow's (names, printing, compatibility)."""
import numpy as np
import pytest

import eagerflow as tf


def test_dtype_names_and_printing():
    assert repr(tf.float32) == "tf.float32"
    assert str(tf.float32) == "<dtype: 'float32'>"
    assert tf.float32.name == "float32" and tf.bool.name == "bool"
    assert tf.double is tf.float64 and tf.half is tf.float16


@pytest.mark.parametrize("value,expected", [
    (np.float32, "float32"), ("int64", "int64"), (np.dtype("uint8"), "uint8"), (float, "float32"),
    (int, "int32"), (bool, "bool"), (str, "string"), (tf.int16, "int16")])
def test_as_dtype(value, expected):
    assert tf.as_dtype(value).name == expected


def test_as_dtype_rejects_nonsense():
    with pytest.raises(TypeError):
        tf.as_dtype("no_such_type")


def test_dtype_properties():
    assert tf.float32.is_floating and not tf.float32.is_integer
    assert tf.int32.is_integer and tf.uint8.is_unsigned
    assert tf.complex64.is_complex and tf.complex64.real_dtype is tf.float32
    assert tf.int8.min == -128 and tf.int8.max == 127
    assert tf.float32 == np.float32 and tf.float32 != tf.float64
    assert tf.float32.as_numpy_dtype is np.float32


def test_shape_printing_and_lists():
    s = tf.TensorShape([2, None, 3])
    assert repr(s) == "TensorShape([2, None, 3])"
    assert str(s) == "(2, None, 3)"
    assert str(tf.TensorShape([4])) == "(4,)"
    assert str(tf.TensorShape(None)) == "<unknown>"
    assert s.rank == 3 and s.as_list() == [2, None, 3] and s[1] is None
    assert s[1:] == tf.TensorShape([None, 3])
    assert not s.is_fully_defined() and tf.TensorShape([2, 3]).num_elements() == 6
    with pytest.raises(ValueError):
        tf.TensorShape(None).as_list()


def test_shape_compatibility_and_merge():
    a, b = tf.TensorShape([None, 3]), tf.TensorShape([5, 3])
    assert a.is_compatible_with(b) and not a.is_compatible_with([5, 4])
    assert a.merge_with(b) == tf.TensorShape([5, 3])
    assert tf.TensorShape([2, 3]).most_specific_compatible_shape([4, 3]) == tf.TensorShape([None, 3])
    assert tf.TensorShape([2, 3]).most_specific_compatible_shape([4]) == tf.TensorShape(None)
    with pytest.raises(ValueError):
        a.merge_with([5, 4])
    assert tf.TensorShape([2, 2]) == (2, 2) and tf.TensorShape([2, 2]) == [2, 2]


def test_tensor_spec():
    spec = tf.TensorSpec([None, 784], tf.float32)
    assert repr(spec) == "TensorSpec(shape=(None, 784), dtype=tf.float32, name=None)"
    assert spec.is_compatible_with(tf.zeros([32, 784]))
    assert not spec.is_compatible_with(tf.zeros([32, 784], tf.float64))
    assert not spec.is_compatible_with(tf.zeros([32, 10]))
    assert tf.TensorSpec.from_tensor(tf.constant([1, 2])) == tf.TensorSpec([2], tf.int32)
    assert hash(spec) == hash(tf.TensorSpec([None, 784]))
