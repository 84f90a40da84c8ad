"""tf.random from many threads at once: the global seed and op-seed sequence (core/context.py) and
the table of seeded streams (ops/random/draws.py) are shared by every thread, as in TensorFlow.

Reference for each test: the same calls made one after another in a single thread. Threads may
interleave in any order, so the threaded run must produce the same multiset of draws: each call
takes the next values of the shared stream, none is drawn twice and none is lost.
"""
import threading

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.random import draws as random_ops
from tests.threads import fast_thread_switches, in_threads, yield_between_opcodes_of  # noqa: F401

THREADS, CALLS = 6, 12
pytestmark = pytest.mark.usefixtures("fast_thread_switches")


@pytest.fixture(autouse=True)
def _no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


# Where the stream table is read and filled: threads are made to switch between any two bytecodes there.
_STREAM_CODE = (random_ops._generator.__code__, random_ops._Streams.get.__code__)


def _in_threads(call, threads=THREADS, calls=CALLS):
    """Every result of `calls` calls of `call()` in each of `threads` threads started together."""
    per_thread = in_threads(lambda i: [call() for _ in range(calls)], threads,
                            trace=yield_between_opcodes_of(*_STREAM_CODE))
    return [r for results in per_thread for r in results]


def _rows(arrays):
    return sorted(tuple(a.tolist()) for a in arrays)


@pytest.mark.parametrize("attempt", range(2))
def test_threads_sharing_one_seeded_stream_each_take_the_next_values(attempt):
    def draw():
        return tf.random.uniform([16], seed=3).numpy()

    tf.random.set_seed(11 + attempt)
    sequential = [draw() for _ in range(THREADS * CALLS)]
    tf.random.set_seed(11 + attempt)  # restarts the stream: the threads must see the same values
    threaded = _in_threads(draw)
    assert len(threaded) == len(sequential)
    assert _rows(threaded) == _rows(sequential)  # no row drawn twice from two copies of the stream


def test_threads_under_a_global_seed_take_distinct_op_seeds_of_one_sequence():
    def draw():
        return tf.random.normal([8]).numpy()

    tf.random.set_seed(2024)
    sequential = [draw() for _ in range(THREADS * CALLS)]
    tf.random.set_seed(2024)
    threaded = _in_threads(draw)
    assert _rows(threaded) == _rows(sequential)
    assert len(set(_rows(threaded))) == THREADS * CALLS


def test_many_random_ops_eager_and_traced_with_set_seed_from_another_thread_raise_nothing():
    @tf.function
    def traced(x):
        return tf.random.shuffle(x, seed=1) + tf.random.uniform([5], seed=2)

    x = tf.range(5.0)
    traced(x)  # traced once up front: this test is about random state, not the trace cache

    def mixed():
        a = tf.random.truncated_normal([4], seed=5)
        b = tf.random.uniform([3], minval=0, maxval=10, dtype=tf.int64)
        c = tf.random.categorical(tf.math.log([[0.5, 0.5]]), 4, seed=7)
        d = traced(x)
        return a.shape, b.shape, c.shape, d.shape

    stop = threading.Event()

    def reseed():
        seed = 0
        while not stop.is_set():
            tf.random.set_seed(seed % 3 if seed % 4 else None)
            seed += 1

    reseeder = threading.Thread(target=reseed)
    reseeder.start()
    try:
        shapes = _in_threads(mixed, calls=5)
    finally:
        stop.set()
        reseeder.join()
    assert set(shapes) == {((4,), (3,), (1, 4), (5,))}


def test_set_seed_still_restarts_every_sequence_after_threaded_draws():
    tf.random.set_seed(42)
    expected = (tf.random.uniform([3]).numpy(), tf.random.uniform([3], seed=9).numpy())
    _in_threads(lambda: tf.random.uniform([2], seed=9), threads=4, calls=5)
    tf.random.set_seed(42)
    np.testing.assert_array_equal(tf.random.uniform([3]).numpy(), expected[0])
    np.testing.assert_array_equal(tf.random.uniform([3], seed=9).numpy(), expected[1])
