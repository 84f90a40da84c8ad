"""zip, concatenate, enumerate, unbatch: elements, element_spec, cardinality and errors, with the
expected values and messages taken from TensorFlow 2.21."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data

Dataset = data.Dataset
S64 = tf.TensorSpec([], tf.int64)


def _values(ds):
    return [tuple(int(v) for v in e) if isinstance(e, tuple) else e for e in ds.as_numpy_iterator()]


def test_zip_tuple_args_and_nested_dict():
    a, b = Dataset.range(3), Dataset.range(10, 15)
    assert _values(Dataset.zip((a, b))) == [(0, 10), (1, 11), (2, 12)]
    assert _values(Dataset.zip(a, b)) == [(0, 10), (1, 11), (2, 12)]
    assert _values(Dataset.zip(datasets=(a, b))) == [(0, 10), (1, 11), (2, 12)]
    nested = Dataset.zip({"x": a, "y": (b, a)})
    assert nested.element_spec == {"x": S64, "y": (S64, S64)}
    first = next(iter(nested))
    assert int(first["x"]) == 0 and int(first["y"][0]) == 10
    assert Dataset.zip(a).element_spec == S64  # one dataset: its own structure


def test_zip_cardinality_follows_tensorflow():
    a, b = Dataset.range(3), Dataset.range(10, 15)
    assert int(Dataset.zip(a, b).cardinality()) == 3
    assert int(Dataset.zip(a.repeat(), b.repeat()).cardinality()) == data.INFINITE_CARDINALITY == -1
    assert int(Dataset.zip(a.repeat(), b).cardinality()) == 5
    assert int(Dataset.zip(a.filter(lambda x: True), b).cardinality()) == data.UNKNOWN_CARDINALITY == -2


def test_zip_errors():
    a = Dataset.range(3)
    with pytest.raises(TypeError, match="encountered object of type <class 'int'>"):
        Dataset.zip((a, 1))
    with pytest.raises(TypeError, match="Python `list` is not supported and you should use `tuple` instead"):
        Dataset.zip([a, a])
    with pytest.raises(TypeError, match="Must pass at least one dataset to `zip`."):
        Dataset.zip()


def test_concatenate_values_cardinality_and_relaxed_shapes():
    a, b = Dataset.range(3), Dataset.range(10, 15)
    assert _values(a.concatenate(b)) == [0, 1, 2, 10, 11, 12, 13, 14]
    assert int(a.concatenate(b).cardinality()) == 8
    assert int(a.repeat().concatenate(b).cardinality()) == -1
    assert int(a.filter(lambda x: True).concatenate(b).cardinality()) == -2
    wide = Dataset.from_tensor_slices(np.zeros((2, 3))).concatenate(Dataset.from_tensor_slices(np.ones((2, 4))))
    assert wide.element_spec == tf.TensorSpec([None], tf.float64)
    assert [v.shape for v in wide.as_numpy_iterator()] == [(3,), (3,), (4,), (4,)]
    ranks = Dataset.from_tensor_slices(np.zeros((2, 3))).concatenate(Dataset.from_tensor_slices(np.zeros((2, 4, 1))))
    assert ranks.element_spec.shape.rank is None


def test_concatenate_incompatible_elements():
    a = Dataset.range(3)
    with pytest.raises(TypeError) as info:
        a.concatenate(Dataset.range(3, output_type=tf.int32))
    assert str(info.value) == ("Incompatible dataset elements:\n  TensorSpec(shape=(), dtype=tf.int64, name=None) vs."
                               "   TensorSpec(shape=(), dtype=tf.int32, name=None)")
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        a.concatenate(Dataset.zip(a, a))


def test_enumerate():
    assert _values(Dataset.range(3).enumerate(start=5)) == [(5, 0), (6, 1), (7, 2)]
    ds = Dataset.from_tensor_slices(np.zeros((2, 3), np.float32)).enumerate()
    assert ds.element_spec == (S64, tf.TensorSpec([3], tf.float32))
    assert int(Dataset.range(3).enumerate().cardinality()) == 3


def test_unbatch_values_spec_and_cardinality():
    rows = Dataset.from_tensor_slices(np.arange(6).reshape(3, 2))
    assert _values(rows.unbatch()) == [0, 1, 2, 3, 4, 5]
    assert rows.unbatch().element_spec == S64
    assert int(rows.unbatch().cardinality()) == 6
    short_last = Dataset.range(7).batch(2).unbatch()  # batch dimension unknown: a stream
    assert _values(short_last) == list(range(7))
    assert int(short_last.cardinality()) == -2
    pairs = Dataset.from_tensor_slices((np.arange(4).reshape(2, 2), np.arange(4.0).reshape(2, 2))).unbatch()
    assert [(int(a), float(b)) for a, b in pairs.as_numpy_iterator()] == [(0, 0.0), (1, 1.0), (2, 2.0), (3, 3.0)]


def test_unbatch_errors():
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components."):
        Dataset.range(7).unbatch()
    with pytest.raises(ValueError, match="matching leading dimension. Encountered both 2 and 3."):
        Dataset.from_tensors((np.zeros(2), np.zeros(3))).unbatch()


def test_concatenate_is_index_arithmetic_inside_tf_function():
    @tf.function
    def digits(x, y):
        s = tf.constant(0.0)
        for v in Dataset.from_tensor_slices(x).concatenate(Dataset.from_tensor_slices(y)):
            s = s * 10.0 + v
        return s
    assert float(digits(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0]))) == 12345.0  # the function's tensors

    @tf.function
    def batch_sums(x, y):
        s = tf.constant(0.0)
        for v in Dataset.from_tensor_slices(x).concatenate(Dataset.from_tensor_slices(y)).batch(2):
            s = s * 100.0 + tf.reduce_sum(v)
        return s
    assert float(batch_sums(tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0]))) == 30705.0  # 3, 7, 5

    @tf.function
    def total(x, y):
        s = tf.constant(0.0)
        for v in Dataset.from_tensor_slices(x).concatenate(Dataset.from_tensor_slices(y)):
            s += tf.reduce_sum(v)
        return s
    assert float(total(tf.ones([2, 3]), tf.ones([2, 4]))) == 14.0  # element shapes (3,) then (4,)
    assert [b.tolist() for b in Dataset.range(3).concatenate(Dataset.range(10, 15)).batch(3).as_numpy_iterator()] \
        == [[0, 1, 2], [10, 11, 12], [13, 14]]
