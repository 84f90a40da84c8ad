"""map(num_parallel_calls=...) and prefetch overlap work in threads when iterated eagerly (data/parallel.py):
the same elements in the same order, errors where they happened, and work that really runs at once."""
import threading
import time

import numpy as np
import pytest

import eagerflow as tf

Dataset = tf.data.Dataset


def _meeting(parties):
    """A map function whose elements can only finish when `parties` of them run at the same time."""
    barrier = threading.Barrier(parties, timeout=10)

    def wait(v):
        barrier.wait()
        return v * 2
    return lambda x: tf.py_function(wait, [x], tf.int64)


@pytest.mark.parametrize("calls", [2, 4, tf.data.AUTOTUNE])
def test_parallel_map_runs_elements_at_once_and_keeps_order(calls):
    if calls == tf.data.AUTOTUNE and (__import__("os").cpu_count() or 1) < 2:
        pytest.skip("one core: AUTOTUNE is one call at a time")
    ds = Dataset.range(8).map(_meeting(2), num_parallel_calls=calls)
    assert [int(v) for v in ds] == [0, 2, 4, 6, 8, 10, 12, 14]  # two at a time met at the barrier
    batched = Dataset.range(8).map(_meeting(2), num_parallel_calls=calls).batch(4)
    assert [b.tolist() for b in batched.as_numpy_iterator()] == [[0, 2, 4, 6], [8, 10, 12, 14]]
    streamed = Dataset.range(8).filter(lambda x: x >= 0).map(_meeting(2), num_parallel_calls=calls)
    assert [int(v) for v in streamed] == [0, 2, 4, 6, 8, 10, 12, 14]


def test_serial_map_computes_one_element_at_a_time():
    with pytest.raises(tf.errors.OpError):  # the barrier breaks: nobody else arrives
        list(Dataset.range(2).map(_meeting_with_timeout(2, 0.3)))


def _meeting_with_timeout(parties, seconds):
    barrier = threading.Barrier(parties, timeout=seconds)

    def wait(v):
        barrier.wait()
        return v
    return lambda x: tf.py_function(wait, [x], tf.int64)


def test_parallel_map_errors_come_in_order_and_values_match_serial():
    failing = Dataset.from_tensor_slices([1., 0., 2.]).map(lambda x: tf.debugging.check_numerics(1. / x, "bad"),
                                                           num_parallel_calls=2)
    it = iter(failing)
    assert float(next(it)) == 1.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad"):
        next(it)
    assert [float(v) for v in failing.ignore_errors()] == [1.0, 0.5]
    x = np.random.default_rng(0).standard_normal((10, 5)).astype(np.float32)
    serial = [v.numpy() for v in Dataset.from_tensor_slices(x).map(tf.nn.softmax)]
    parallel = [v.numpy() for v in Dataset.from_tensor_slices(x).map(tf.nn.softmax, num_parallel_calls=3)]
    np.testing.assert_array_equal(np.stack(serial), np.stack(parallel))


def test_prefetch_reads_ahead_in_a_thread():
    produced = []

    def record(v):
        produced.append(int(v))
        return v
    ds = Dataset.range(6).map(lambda x: tf.py_function(record, [x], tf.int64)).prefetch(3)
    it = iter(ds)
    assert int(next(it)) == 0
    deadline = time.monotonic() + 10
    while len(produced) < 4 and time.monotonic() < deadline:  # the consumer took one; three more wait ready
        time.sleep(0.01)
    assert produced[:4] == [0, 1, 2, 3]
    assert [int(v) for v in it] == [1, 2, 3, 4, 5]
    assert [int(v) for v in Dataset.range(5).prefetch(tf.data.AUTOTUNE)] == [0, 1, 2, 3, 4]
    assert [int(v) for v in Dataset.range(5).prefetch(0)] == [0, 1, 2, 3, 4]


def test_prefetch_passes_errors_on_and_stops_its_thread_when_abandoned():
    failing = Dataset.from_tensor_slices([1., 0.]).map(lambda x: tf.debugging.check_numerics(1. / x, "bad"))
    it = iter(failing.prefetch(2))
    assert float(next(it)) == 1.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad"):
        next(it)
    it = iter(Dataset.range(1000).prefetch(2))
    next(it)
    del it
    deadline = time.monotonic() + 10
    while any(t.name == "eagerflow-prefetch" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(t.name == "eagerflow-prefetch" for t in threading.enumerate())


def test_inside_tf_function_the_graph_computes_them():
    @tf.function
    def total(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)
    def triple(x):
        return x * 3

    def pipeline():
        return Dataset.range(10).map(triple, num_parallel_calls=tf.data.AUTOTUNE).prefetch(2)
    assert int(total(pipeline())) == 135
    assert int(total(pipeline())) == 135
    assert total.experimental_get_tracing_count() == 1  # a prefetch keys by its pipeline, as before


def test_a_parallel_map_over_a_seeded_shuffle_keeps_tensorflows_order():
    tf.random.set_seed(None)
    expected = [1, 2, 0, 1, 0, 2]  # TF 2.21: range(3).shuffle(3, seed=1).repeat(2)
    for _ in range(5):  # sweeps drawn in order however the threads ask for them
        ds = Dataset.range(3).shuffle(3, seed=1).repeat(2).map(lambda x: x + 0, num_parallel_calls=6)
        assert [int(v) for v in ds] == expected
        batched = Dataset.range(3).shuffle(3, seed=1).repeat(2).map(lambda x: x + 0, num_parallel_calls=6).batch(6)
        assert next(batched.as_numpy_iterator()).tolist() == expected
