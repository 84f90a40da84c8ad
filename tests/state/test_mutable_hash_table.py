"""tf.lookup.experimental.MutableHashTable (state/mutable_hash_table.py, ops/lookup/mutable.py). Expected
values and error messages were recorded from TensorFlow 2.21."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf


def _table():
    return tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)


def test_insert_lookup_remove_size_export():
    m = _table()
    assert (m.key_dtype, m.value_dtype) == (tf.string, tf.int64)
    assert m.size().dtype == tf.int64 and m.size().numpy() == 0
    assert m.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64)) is None
    np.testing.assert_array_equal(m.lookup(tf.constant([["a", "z"], ["b", "a"]])).numpy(), [[1, -1], [2, 1]])
    m.insert(tf.constant(["a", "c"]), tf.constant([10, 3], tf.int64))  # "a" is overwritten
    assert m.size().numpy() == 3
    np.testing.assert_array_equal(m.lookup(tf.constant(["a", "b", "c"])).numpy(), [10, 2, 3])
    assert m.remove(tf.constant(["b", "zz"])) is None  # a missing key is ignored
    assert m.size().numpy() == 2
    np.testing.assert_array_equal(m.lookup(tf.constant(["a", "b", "c"])).numpy(), [10, -1, 3])
    keys, values = m.export()
    assert (keys.dtype, values.dtype) == (tf.string, tf.int64)
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"a", 10), (b"c", 3)]
    m.insert(tf.constant("s"), tf.constant(7, tf.int64))  # scalar key and value
    out = m.lookup(tf.constant("s"))
    assert out.shape == () and out.numpy() == 7


def test_last_duplicate_in_one_insert_wins():
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, 0.0)
    m.insert(tf.constant([5, 5, 1], tf.int64), tf.constant([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(m.lookup(tf.constant([5, 1], tf.int64)).numpy(), [2.0, 3.0])
    assert m.size().numpy() == 2


def test_errors():
    m = _table()
    m.insert(tf.constant(["a"]), tf.constant([1], tf.int64))
    with pytest.raises(ValueError, match="keys: Tensor conversion requested dtype string for Tensor with dtype int32"):
        m.insert(tf.constant([1]), tf.constant([1], tf.int64))
    with pytest.raises(ValueError, match="values: Tensor conversion requested dtype int64 for Tensor with dtype int32"):
        m.insert(tf.constant(["q"]), tf.constant([1], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected shape \[2\] for value, got \[1\]"):
        m.insert(tf.constant(["q", "r"]), tf.constant([1], tf.int64))
    with pytest.raises(ValueError, match="keys: Tensor conversion requested dtype string for Tensor with dtype int32"):
        m.lookup(tf.constant([1]))
    with pytest.raises(TypeError, match="Dtype of argument `keys` must be <dtype: 'string'>, received: <dtype: 'int32'>"):
        m.remove(tf.constant([1]))
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int64"):
        tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 1.5)
    assert m.size().numpy() == 1  # failed inserts changed nothing


def test_state_lives_across_tf_function_calls():
    m = _table()
    m.insert(tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64))
    m.remove(tf.constant(["b"]))

    @tf.function
    def step(k):
        m.insert(k, tf.constant([100], tf.int64))
        return m.lookup(tf.constant(["x", "y"])), m.size()

    ids, n = step(tf.constant(["x"]))
    np.testing.assert_array_equal(ids.numpy(), [100, -1])
    assert n.numpy() == 3
    ids, n = step(tf.constant(["y"]))
    np.testing.assert_array_equal(ids.numpy(), [100, 100])
    assert n.numpy() == 4
    assert m.size().numpy() == 4  # the eager view sees what the function did
    m.remove(tf.constant(["x"]))
    ids, n = step(tf.constant(["a"]))
    np.testing.assert_array_equal(ids.numpy(), [-1, 100])
    np.testing.assert_array_equal(m.lookup(tf.constant(["a", "c"])).numpy(), [100, 3])


def test_vector_values():
    m2 = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0])
    m2.insert(tf.constant([1, 2], tf.int64), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    out = m2.lookup(tf.constant([2, 5], tf.int64))
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [[3.0, 4.0], [0.0, 0.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected shape \[1,2\] for value, got \[1\]"):
        m2.insert(tf.constant([3], tf.int64), tf.constant([1.0]))
    m2.insert(tf.constant([[3, 4]], tf.int64), tf.constant([[[1.0, 2.0], [5.0, 6.0]]]))
    np.testing.assert_array_equal(m2.lookup(tf.constant([[4]], tf.int64)).numpy(), [[[5.0, 6.0]]])
    np.testing.assert_array_equal(tf.function(lambda k: m2.lookup(k))(tf.constant([1, 9], tf.int64)).numpy(),
                                  [[1.0, 2.0], [0.0, 0.0]])


def test_tables_are_freed():
    refs = []
    for _ in range(1000):
        m = _table()
        m.insert(tf.constant(["a"]), tf.constant([1], tf.int64))
        refs.append(weakref.ref(m))
    del m
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def _race(worker, threads=8):
    import threading

    barrier = threading.Barrier(threads)
    errors = []

    def run(i):
        barrier.wait()
        try:
            worker(i)
        except Exception as err:  # noqa: BLE001 - reported by the assert below
            errors.append(err)

    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert errors == []


@pytest.mark.parametrize("traced", [False, True])
def test_inserts_and_removes_from_threads_lose_nothing(traced):
    """TensorFlow's table kernels hold the table's lock: 8 threads x 150 single-key inserts leave 1,200
    keys, and removing every even key from 8 threads leaves exactly the odd ones."""
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, -1)
    insert = tf.function(m.insert) if traced else m.insert
    remove = tf.function(m.remove) if traced else m.remove

    def inserts(i):
        for j in range(150):
            key = np.int64(i * 1000 + j)
            insert(tf.constant([key], tf.int64), tf.constant([key * 2], tf.int64))

    _race(inserts)
    assert m.size().numpy() == 1200

    def removes(i):
        for j in range(0, 150, 2):
            remove(tf.constant([i * 1000 + j], tf.int64))

    _race(removes)
    keys, values = m.export()
    assert sorted(keys.numpy().tolist()) == [i * 1000 + j for i in range(8) for j in range(1, 150, 2)]
    np.testing.assert_array_equal(values.numpy(), keys.numpy() * 2)


def test_readers_never_see_keys_beside_values_of_another_update():
    import sys

    default_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so that a read between two stores shows up
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, -1)
    seen = []

    def work(i):
        for j in range(200):
            if i % 2:
                key = np.int64(i * 1000 + j)
                m.insert(tf.constant([key], tf.int64), tf.constant([key * 2], tf.int64))
            else:
                keys, values = m.export()
                seen.append(keys.shape == values.shape and bool(np.all(values.numpy() == keys.numpy() * 2)))

    try:
        _race(work)
    finally:
        sys.setswitchinterval(default_interval)
    assert len(seen) == 800 and all(seen)
