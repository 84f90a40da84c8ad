"""A Python `for` over a dataset in a tf.function AutoGraph cannot convert (source not available:
defined by exec). TensorFlow 2.21 keeps tracing such a loop without end (each `next` in a graph adds
an IteratorGetNext op and never stops); eagerflow refuses it at once with a clear error, and still
allows `next(iterator)` and converted loops."""
import time

import pytest

import eagerflow as tf

_SOURCE = '''
def over_range(n):
    total = tf.constant(0, tf.int64)
    for x in tf.data.Dataset.range(n):
        total += x
    return total

def over_argument(ds):
    total = tf.constant(0, tf.int64)
    for x in ds:
        total += x
    return total

def first_two(n):
    it = iter(tf.data.Dataset.range(n))
    return next(it) + 10 * next(it)
'''


def _unconverted():
    names = {"tf": tf}
    exec(_SOURCE, names)  # noqa: S102 - a function whose source AutoGraph cannot read
    return names


@pytest.mark.parametrize("call", [
    lambda ns: tf.function(ns["over_range"])(5),
    lambda ns: tf.function(ns["over_range"])(tf.constant(5, tf.int64)),
    lambda ns: tf.function(ns["over_argument"])(tf.data.Dataset.range(4)),
    lambda ns: tf.function(ns["over_range"], autograph=False)(3),
])
def test_python_for_over_a_dataset_is_refused_without_hanging(call):
    start = time.perf_counter()
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Python `for` loop"):
        call(_unconverted())
    assert time.perf_counter() - start < 30


def test_next_on_an_iterator_still_traces():
    assert int(tf.function(_unconverted()["first_two"])(tf.constant(5, tf.int64))) == 10


def test_converted_loop_runs():
    @tf.function
    def total(n):
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(n):
            s += x
        return s

    assert int(total(tf.constant(5, tf.int64))) == 10
