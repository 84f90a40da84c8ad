"""Scalar tensors where Python wants a number: `__index__` (list indexing, tf.train.Int64List) and
`__float__` (tf.train.FloatList), refused with the errors TensorFlow 2.21's tensors give (their
NumPy value's). Expected outputs printed by TensorFlow 2.21 running the same code."""
import operator

import numpy as np
import pytest

import eagerflow as tf

# TensorFlow 2.21 (NumPy 2) says 'numpy.bool'; the message names NumPy's own type, 'numpy.bool_' before NumPy 2.
NUMPY_BOOL = type(np.True_).__name__


def test_example_lists_take_eager_scalars():
    t, t64 = tf.constant(3), tf.constant(7, tf.int64)
    assert list(tf.train.Int64List(value=[t, t64, 4]).value) == [3, 7, 4]
    assert list(tf.train.FloatList(value=[tf.constant(2.5), 1.0]).value) == [2.5, 1.0]
    assert list(tf.train.FloatList(value=[tf.constant(2.5, tf.float64)]).value) == [2.5]
    assert list(tf.train.FloatList(value=[t]).value) == [3.0]  # an int tensor is a float too
    assert list(tf.train.Int64List(value=tf.constant([1, 2])).value) == [1, 2]  # a vector iterates
    assert list(tf.train.FloatList(value=tf.constant([1., 2.])).value) == [1.0, 2.0]
    feature = tf.train.Feature(int64_list=tf.train.Int64List(value=[t]))
    assert str(feature) == "int64_list {\n  value: 3\n}\n"
    assert list(tf.train.BytesList(value=[tf.constant(b"ab").numpy()]).value) == [b"ab"]


@pytest.mark.parametrize("make, error, message", [
    (lambda: tf.train.Int64List(value=[tf.constant(2.5)]), AttributeError,
     "'numpy.float32' object has no attribute '__index__'"),
    (lambda: tf.train.Int64List(value=[tf.constant([1, 2])]), TypeError,
     "only integer scalar arrays can be converted to a scalar index"),
    (lambda: tf.train.Int64List(value=[tf.constant(True)]), AttributeError,
     f"'numpy.{NUMPY_BOOL}' object has no attribute '__index__'"),
    (lambda: tf.train.BytesList(value=[tf.constant(b"ab")]), TypeError, "expected bytes"),
])
def test_example_lists_refuse_as_tensorflow(make, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        make()


@pytest.mark.parametrize("value, outcome", [
    (tf.constant(2.5), (AttributeError, "'numpy.float32' object has no attribute '__index__'")),
    (tf.constant([1, 2]), (TypeError, "only integer scalar arrays can be converted to a scalar index")),
    (tf.constant(True), (AttributeError, f"'numpy.{NUMPY_BOOL}' object has no attribute '__index__'")),
    (tf.constant(3, tf.uint8), 3),
    (tf.constant(b"x"), (AttributeError, "'bytes' object has no attribute '__index__'")),
    (tf.constant([[5]]), (TypeError, "only integer scalar arrays can be converted to a scalar index")),
])
def test_operator_index(value, outcome):
    if isinstance(outcome, int):
        assert operator.index(value) == outcome
        assert [1, 2, 3, 4][value] == 4
    else:
        with pytest.raises(outcome[0], match=outcome[1]):
            operator.index(value)
