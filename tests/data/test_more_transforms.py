"""take_while, unique, shard, apply, get_single_element: values, cardinality and errors from
TensorFlow 2.21, eagerly and (get_single_element, shard) inside tf.function."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data

Dataset = data.Dataset


def _ints(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def test_take_while():
    ds = Dataset.range(10).take_while(lambda x: x < 4)
    assert _ints(ds) == [0, 1, 2, 3] and int(ds.cardinality()) == -2
    with pytest.raises(ValueError) as info:
        Dataset.range(10).take_while(lambda x: x)
    assert str(info.value) == ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its "
                               "return type isTensorSpec(shape=(), dtype=tf.int64, name=None).")


def test_unique_apply():
    assert _ints(Dataset.from_tensor_slices([1, 3, 1, 2, 3]).unique()) == [1, 3, 2]
    assert _ints(Dataset.range(3).apply(lambda d: d.map(lambda x: x + 1))) == [1, 2, 3]


def test_shard():
    assert _ints(Dataset.range(10).shard(3, 1)) == [1, 4, 7]
    assert int(Dataset.range(10).shard(3, 1).cardinality()) == 3
    assert int(Dataset.range(10).shard(3, 0).cardinality()) == 4
    assert _ints(Dataset.range(10).filter(lambda x: True).shard(3, 2)) == [2, 5, 8]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Index must be between 0 and 2 \(currently index = 3\)."):
        Dataset.range(10).shard(3, 3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Number of shards must be greater than zero \(currently num_shards = 0\)."):
        Dataset.range(10).shard(0, 0)

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for v in ds:
            s += v
        return s
    assert int(total(Dataset.range(10).shard(3, 1))) == 12


def test_get_single_element_eagerly_and_traced():
    assert int(Dataset.range(1).get_single_element()) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset was empty."):
        Dataset.range(0).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset had more than one element."):
        Dataset.range(2).get_single_element()

    single = tf.function(lambda ds: ds.get_single_element())
    assert int(single(Dataset.range(1))) == 0
    assert int(single(Dataset.range(5).filter(lambda x: x == 3))) == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset was empty."):
        single(Dataset.range(5).filter(lambda x: x > 9))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset had more than one element."):
        single(Dataset.range(5).filter(lambda x: x > 2))


def test_unique_types_and_scan_state_dtype():
    with pytest.raises(TypeError) as info:
        Dataset.range(3).map(lambda x: tf.cast(x, tf.float32)).unique()
    assert str(info.value) == ("`tf.data.Dataset.unique` does not support type <dtype: 'float32'> -- only `tf.int32`, "
                               "`tf.int64`, and `tf.string` are supported.")
    words = Dataset.from_tensor_slices(["a", "b", "a"]).unique()
    assert list(words.as_numpy_iterator()) == [b"a", b"b"]
    with pytest.raises(TypeError) as info:
        Dataset.range(3).scan(np.int64(0), lambda s, x: (tf.cast(s, tf.float32), x))
    assert str(info.value) == ("Invalid `scan_func`. The element types for the new state must match the initial "
                               "state. Expected <dtype: 'int64'>, got <dtype: 'float32'>.")
    grown = Dataset.range(3).scan(tf.constant([0], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), tf.size(s)))
    assert [int(v) for v in grown.as_numpy_iterator()] == [1, 2, 3]  # the state's shape relaxed, as TF
