"""filter, reduce, flat_map, interleave, window, scan, padded_batch: elements, element_spec,
cardinality and errors, expected values and messages taken from TensorFlow 2.21."""
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data

Dataset = data.Dataset
S64 = tf.TensorSpec([], tf.int64)


def _ints(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def test_filter_values_and_cardinality():
    ds = Dataset.range(10).filter(lambda x: x % 3 == 0)
    assert _ints(ds) == [0, 3, 6, 9]
    assert int(ds.cardinality()) == -2 and ds.element_spec == S64
    pairs = Dataset.zip(Dataset.range(3), Dataset.range(10, 15)).filter(lambda x, y: y > 11)
    assert [tuple(int(v) for v in e) for e in pairs.as_numpy_iterator()] == [(2, 12)]


def test_filter_predicate_is_traced_once():
    calls = []

    def keep_even(x):
        calls.append(1)
        return x % 2 == 0
    ds = Dataset.range(6).filter(keep_even)
    assert _ints(ds) == [0, 2, 4] and _ints(ds) == [0, 2, 4]
    assert len(calls) == 1


def test_filter_predicate_errors():
    with pytest.raises(ValueError) as info:
        Dataset.range(10).filter(lambda x: x)
    assert str(info.value) == ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its "
                               "return type is TensorSpec(shape=(), dtype=tf.int64, name=None).")
    with pytest.raises(ValueError, match=r"return type is TensorSpec\(shape=\(None,\), dtype=tf.bool"):
        Dataset.range(10).batch(2).filter(lambda x: x > 1)


def test_cardinality_of_unknown_inputs_follows_tensorflow():
    unknown = Dataset.range(10).filter(lambda x: True)
    assert [int(d.cardinality()) for d in (unknown.take(3), unknown.batch(3), unknown.repeat(), unknown.repeat(2),
                                           unknown.skip(2), unknown.take(0))] == [-2, -2, -1, -2, -2, -2]
    assert _ints(unknown.take(3)) == [0, 1, 2] and _ints(unknown.skip(8)) == [8, 9]
    assert _ints(unknown.repeat(2)) == list(range(10)) * 2
    assert [b.tolist() for b in unknown.batch(4).as_numpy_iterator()] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert _ints(unknown.map(lambda x: x * 2).take(2)) == [0, 2]


def test_reduce_values_and_state_rules():
    assert int(Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)) == 10
    total, product = Dataset.range(5).reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * (x + 1)))
    assert (int(total), int(product)) == (10, 120)
    assert int(Dataset.range(0).reduce(np.int64(7), lambda s, x: s + x)) == 7
    grown = Dataset.range(5).reduce(tf.constant([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0))
    assert grown.numpy().tolist() == [0, 0, 1, 2, 3, 4]  # the state's shape is relaxed, as TensorFlow does
    assert int(Dataset.range(10).filter(lambda x: x % 3 == 0).reduce(np.int64(0), lambda s, x: s + x)) == 18


def test_reduce_errors():
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type int64 that does not match type int32"):
        Dataset.range(5).reduce(0, lambda s, x: s + x)
    with pytest.raises(TypeError) as info:
        Dataset.range(5).reduce(np.int64(0), lambda s, x: tf.cast(s, tf.float32))
    assert str(info.value) == ("The element types for the new state must match the initial state. Expected "
                               "<dtype: 'int64'> but got <dtype: 'float32'>.")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"The number of components of the initial state and "
                                                             r"the reduce function output does not match. "
                                                             r"\(initial_state=1, output=2\)."):
        Dataset.range(5).reduce(np.int64(0), lambda s, x: (s, x))


def test_flat_map_and_its_spec():
    ds = Dataset.range(3).flat_map(lambda x: Dataset.range(x))
    assert _ints(ds) == [0, 0, 1]
    assert int(ds.cardinality()) == -2 and ds.element_spec == S64
    rows = Dataset.from_tensor_slices(np.arange(6.0).reshape(2, 3)).flat_map(Dataset.from_tensor_slices)
    assert [float(v) for v in rows.as_numpy_iterator()] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    with pytest.raises(TypeError, match="must return a `tf.data.Dataset`"):
        Dataset.range(3).flat_map(lambda x: x)


def test_interleave_order_is_tensorflows():
    ds = Dataset.range(1, 4).interleave(lambda x: Dataset.from_tensors(x).repeat(x + 1), cycle_length=2,
                                        block_length=2)
    assert _ints(ds) == [1, 1, 2, 2, 2, 3, 3, 3, 3]
    one = Dataset.range(1, 4).interleave(lambda x: Dataset.from_tensors(x).repeat(2), cycle_length=1)
    assert _ints(one) == [1, 1, 2, 2, 3, 3]
    assert int(one.cardinality()) == -2
    two = Dataset.range(1, 4).interleave(lambda x: Dataset.from_tensors(x).repeat(3), cycle_length=2)
    assert _ints(two) == [1, 2, 1, 2, 1, 2, 3, 3, 3]
    if os.cpu_count() == 2:  # cycle_length's default (AUTOTUNE) is the number of cores, as in TensorFlow
        assert _ints(Dataset.range(1, 4).interleave(lambda x: Dataset.from_tensors(x).repeat(3))) == _ints(two)


def test_interleave_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="cycle_length must be greater than zero."):
        Dataset.range(3).interleave(lambda x: Dataset.from_tensors(x), cycle_length=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="block_length must be greater than zero."):
        Dataset.range(3).interleave(lambda x: Dataset.from_tensors(x), block_length=0)


def _windows(ds):
    return [[int(v) for v in w.as_numpy_iterator()] for w in ds]


def test_window_values_cardinality_and_spec():
    w = Dataset.range(7).window(3, shift=2)
    assert repr(w.element_spec) == "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))"
    assert _windows(w) == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]
    assert int(w.cardinality()) == 4
    dropped = Dataset.range(7).window(3, shift=2, drop_remainder=True)
    assert _windows(dropped) == [[0, 1, 2], [2, 3, 4], [4, 5, 6]] and int(dropped.cardinality()) == 3
    strided = Dataset.range(10).window(3, shift=1, stride=3)
    assert _windows(strided) == [[0, 3, 6], [1, 4, 7], [2, 5, 8], [3, 6, 9], [4, 7], [5, 8], [6, 9], [7], [8], [9]]
    assert int(strided.cardinality()) == 10


def test_window_flat_map_batch_and_tuples():
    rolling = Dataset.range(7).window(3, 1, 1, True).flat_map(lambda w: w.batch(3))
    assert [b.tolist() for b in rolling.as_numpy_iterator()] == [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5],
                                                                [4, 5, 6]]
    assert rolling.element_spec == tf.TensorSpec([None], tf.int64)
    pairs = Dataset.zip(Dataset.range(3), Dataset.range(3)).window(2)
    assert isinstance(pairs.element_spec, tuple) and len(pairs.element_spec) == 2
    assert [(_windows([a])[0], _windows([b])[0]) for a, b in pairs] == [([0, 1], [0, 1]), ([2], [2])]


def test_window_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Window size must be greater than zero."):
        Dataset.range(3).window(0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Window shift must be greater than zero."):
        Dataset.range(3).window(2, shift=0)


def test_scan():
    ds = Dataset.range(5).scan(np.int64(0), lambda s, x: (s + x, s * 10))
    assert _ints(ds) == [0, 0, 10, 30, 60]
    assert int(ds.cardinality()) == 5 and ds.element_spec == S64
    with pytest.raises(TypeError, match="Invalid `scan_func`. `scan_func` should return a pair consisting of new "
                                        "state and the output value but its return type is TensorSpec"):
        Dataset.range(5).scan(np.int64(0), lambda s, x: s + x)


def _ragged():
    return Dataset.range(1, 5).map(lambda x: tf.range(x))


def test_padded_batch_values_and_specs():
    assert [b.tolist() for b in _ragged().padded_batch(2).as_numpy_iterator()] == [[[0, 0], [0, 1]],
                                                                                   [[0, 1, 2, 0], [0, 1, 2, 3]]]
    assert _ragged().padded_batch(2).element_spec == tf.TensorSpec([None, None], tf.int64)
    assert _ragged().padded_batch(3, drop_remainder=True).element_spec == tf.TensorSpec([3, None], tf.int64)
    assert int(_ragged().padded_batch(3).cardinality()) == 2
    fixed = _ragged().padded_batch(2, padded_shapes=[5], padding_values=np.int64(-1))
    assert fixed.element_spec == tf.TensorSpec([None, 5], tf.int64)
    assert [b.tolist() for b in fixed.as_numpy_iterator()] == [[[0, -1, -1, -1, -1], [0, 1, -1, -1, -1]],
                                                               [[0, 1, 2, -1, -1], [0, 1, 2, 3, -1]]]
    assert _ragged().padded_batch(2, padded_shapes=[None]).element_spec == tf.TensorSpec([None, None], tf.int64)


def test_padded_batch_structures_floats_and_strings():
    pairs = Dataset.zip(_ragged(), Dataset.range(4))
    for values in ((np.int64(-1), np.int64(0)), np.int64(-1)):
        got = [(a.tolist(), b.tolist()) for a, b in pairs.padded_batch(2, padding_values=values).as_numpy_iterator()]
        assert got == [([[0, -1], [0, 1]], [0, 1]), ([[0, 1, 2, -1], [0, 1, 2, 3]], [2, 3])]
    floats = Dataset.from_tensor_slices(np.ones((2, 2), np.float32)).padded_batch(2, padded_shapes=[3])
    np.testing.assert_array_equal(next(iter(floats)).numpy(), np.array([[1, 1, 0], [1, 1, 0]], np.float32))
    words = Dataset.from_tensor_slices([["a"], ["b"]]).padded_batch(2, padded_shapes=[2])
    assert next(iter(words)).numpy().tolist() == [[b"a", b""], [b"b", b""]]


def test_padded_batch_errors():
    with pytest.raises(tf.errors.DataLossError, match="Attempted to pad to a smaller size than the input element."):
        list(_ragged().padded_batch(2, padded_shapes=[2]))
    with pytest.raises(ValueError) as info:
        _ragged().padded_batch(2, padded_shapes=[2, 3])
    assert str(info.value) == ("The padded shape (2, 3) is not compatible with the shape (None,) of the "
                               "corresponding input component.")
    with pytest.raises(TypeError) as info:
        _ragged().padded_batch(2, padding_values=7)
    assert str(info.value) == ("Invalid `padding_values`. `padding_values` values type <dtype: 'int32'> does not "
                               "match type <dtype: 'int64'> of the corresponding input component.")
    unknown_rank = Dataset.from_generator(lambda: iter([np.zeros(2)]), output_signature=tf.TensorSpec(None, tf.float64))
    with pytest.raises(ValueError, match="You must provide `padded_shapes` argument because component 0 has unknown "
                                         "rank."):
        unknown_rank.padded_batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Batch size must be greater than zero."):
        _ragged().padded_batch(0)
