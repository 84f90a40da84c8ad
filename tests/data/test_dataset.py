"""tf.data eagerly: elements, structure, dtypes and cardinality against NumPy (semantics checked
against TensorFlow 2.21 by hand: partial last batch, None batch dimension, list = one tensor)."""
import collections

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data

Dataset = data.Dataset


def _np(element):
    return tf.nest.map_structure(lambda t: t.numpy(), element, expand_composites=True)


def test_from_tensor_slices_tuple_elements_and_spec():
    x = np.arange(10, dtype=np.float64).reshape(5, 2)
    y = np.arange(5)
    ds = Dataset.from_tensor_slices((x, y))
    spec = ds.element_spec
    assert spec[0].shape.as_list() == [2] and spec[0].dtype == tf.float64
    assert spec[1].shape.as_list() == [] and spec[1].dtype == tf.int64
    got = [_np(e) for e in ds]
    assert len(got) == 5 == len(ds)
    for i, (a, b) in enumerate(got):
        np.testing.assert_array_equal(a, x[i])
        assert b == y[i]


def test_python_lists_are_tensors_and_dicts_are_structure():
    ds = Dataset.from_tensor_slices([1, 2, 3])
    assert ds.element_spec.dtype == tf.int32 and ds.element_spec.shape.as_list() == []
    assert [int(e) for e in ds] == [1, 2, 3]
    d = Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [1.0, 2.0, 3.0]})
    assert d.element_spec["b"].dtype == tf.float32
    first = next(iter(d))
    assert int(first["a"]) == 1 and float(first["b"]) == 1.0


def test_namedtuple_structure_kept():
    Pair = collections.namedtuple("Pair", "x y")
    ds = Dataset.from_tensor_slices(Pair(np.zeros((3, 2)), np.ones(3)))
    elem = next(iter(ds))
    assert isinstance(elem, Pair) and elem.x.shape.as_list() == [2]


def test_from_tensor_slices_errors():
    with pytest.raises(ValueError, match="not compatible"):
        Dataset.from_tensor_slices((np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError, match="rank >= 1"):
        Dataset.from_tensor_slices(5)


def test_from_tensors_and_range():
    ds = Dataset.from_tensors([1, 2, 3])
    assert ds.element_spec.shape.as_list() == [3] and len(ds) == 1
    np.testing.assert_array_equal(next(iter(ds)).numpy(), [1, 2, 3])
    r = Dataset.range(2, 9, 3)
    assert r.element_spec.dtype == tf.int64
    assert list(r.as_numpy_iterator()) == list(range(2, 9, 3))
    assert list(Dataset.range(5, output_type=tf.int32).as_numpy_iterator()) == [0, 1, 2, 3, 4]
    assert list(Dataset.range(5, 0, -2).as_numpy_iterator()) == [5, 3, 1]


@pytest.mark.parametrize("n,b,drop", [(10, 3, False), (10, 3, True), (9, 3, False), (2, 5, False), (2, 5, True)])
def test_batch_matches_numpy(n, b, drop):
    x = np.random.default_rng(0).normal(size=(n, 2)).astype(np.float32)
    ds = Dataset.from_tensor_slices(x).batch(b, drop_remainder=drop)
    assert ds.element_spec.shape.as_list() == [b if drop else None, 2]
    expected = [x[i:i + b] for i in range(0, n, b) if not drop or i + b <= n]
    got = list(ds.as_numpy_iterator())
    assert len(got) == len(expected) == len(ds) == int(ds.cardinality())
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)


def test_batch_of_batch_and_bad_size():
    ds = Dataset.from_tensor_slices(np.arange(6)).batch(2).batch(2)
    assert ds.element_spec.shape.as_list() == [None, None]
    got = list(ds.as_numpy_iterator())
    np.testing.assert_array_equal(got[0], [[0, 1], [2, 3]])
    np.testing.assert_array_equal(got[1], [[4, 5]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Batch size must be greater than zero"):
        Dataset.range(3).batch(0)


def test_map_traces_once_and_unpacks_tuples():
    calls = []

    def fn(a, b):
        calls.append(1)  # a Python side effect runs at trace time only, as in TensorFlow
        return a * 2.0, tf.cast(b, tf.float32) + 1.0

    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    ds = Dataset.from_tensor_slices((x, np.arange(3))).map(fn)
    assert ds.element_spec[1].dtype == tf.float32
    got = list(ds.as_numpy_iterator())
    assert len(calls) == 1
    for i, (a, b) in enumerate(got):
        np.testing.assert_array_equal(a, x[i] * 2)
        assert b == i + 1


def test_map_after_batch_and_batch_after_map():
    x = np.arange(7, dtype=np.float32)
    a = list(Dataset.from_tensor_slices(x).batch(3).map(lambda v: tf.reduce_sum(v)).as_numpy_iterator())
    np.testing.assert_allclose(a, [3, 12, 6])
    b = list(Dataset.from_tensor_slices(x).map(lambda v: v * v).batch(3).as_numpy_iterator())
    np.testing.assert_array_equal(np.concatenate(b), x * x)
    assert [len(v) for v in b] == [3, 3, 1]


def test_map_with_autograph_condition():
    def clip(v):
        if v > 2:
            v = v - 10
        return v
    got = list(Dataset.range(5).map(clip).as_numpy_iterator())
    assert got == [0, 1, 2, -7, -6]


def test_repeat_take_skip_and_cardinality():
    r = Dataset.range(3)
    assert list(r.repeat(2).as_numpy_iterator()) == [0, 1, 2, 0, 1, 2]
    assert int(r.repeat().cardinality()) == data.INFINITE_CARDINALITY == -1
    with pytest.raises(TypeError, match="infinite"):
        len(r.repeat())
    assert list(r.repeat().take(7).as_numpy_iterator()) == [0, 1, 2, 0, 1, 2, 0]
    ten = Dataset.range(10)
    assert list(ten.skip(3).take(4).as_numpy_iterator()) == [3, 4, 5, 6]
    assert int(ten.take(-1).cardinality()) == 10 and int(ten.skip(20).cardinality()) == 0
    assert int(ten.repeat(2).take(25).cardinality()) == 20
    assert list(ten.skip(-1).as_numpy_iterator()) == []
    assert list(Dataset.range(0).repeat().as_numpy_iterator()) == []


def test_shuffle_is_a_permutation_reproducible_with_seed_and_new_per_pass():
    tf.random.set_seed(3)
    ds = Dataset.range(50).shuffle(50, seed=7)
    first, second = list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator())
    assert sorted(first) == list(range(50)) and sorted(second) == list(range(50))
    assert first != second  # reshuffle_each_iteration=True
    tf.random.set_seed(3)  # restarts seeded streams: the same seeds give the same sequence of orders
    again = Dataset.range(50).shuffle(50, seed=7)
    assert list(again.as_numpy_iterator()) == first
    fixed = Dataset.range(50).shuffle(50, seed=7, reshuffle_each_iteration=False)
    assert list(fixed.as_numpy_iterator()) == list(fixed.as_numpy_iterator())


def test_shuffle_then_repeat_reorders_each_sweep_and_batches_follow():
    ds = Dataset.range(20).shuffle(20, seed=1).repeat(3)
    got = list(ds.as_numpy_iterator())
    sweeps = [got[i:i + 20] for i in range(0, 60, 20)]
    assert all(sorted(s) == list(range(20)) for s in sweeps)
    assert len({tuple(s) for s in sweeps}) == 3
    batched = np.concatenate(list(Dataset.range(20).shuffle(20, seed=1).batch(6).as_numpy_iterator()))
    assert sorted(batched.tolist()) == list(range(20))


def test_shuffle_of_infinite_input_runs_a_buffer_over_the_stream():
    # A buffer of 4 over 0, 1, 2, ... (repeat of a range 100 long): the k-th output is one of the
    # first k + 4 inputs, and no input comes out twice.
    got = list(Dataset.range(100).repeat().shuffle(4, seed=2).take(60).as_numpy_iterator())
    assert all(v < k + 4 for k, v in enumerate(got))
    assert len(set(got)) == 60
    assert got != list(range(60))


def test_prefetch_cache_autotune_and_iterator():
    assert data.AUTOTUNE == data.experimental.AUTOTUNE == -1
    ds = Dataset.range(3).cache().prefetch(data.AUTOTUNE)
    assert list(ds.as_numpy_iterator()) == [0, 1, 2]
    it = iter(ds)
    assert int(it.get_next()) == 0 and int(next(it)) == 1 and int(next(it)) == 2
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    assert "_RangeDataset" in repr(Dataset.range(3)) and "element_spec" in repr(ds)
