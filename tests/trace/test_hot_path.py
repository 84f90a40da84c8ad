"""The cached-call hot path (Function.__call__): the last-key shortcut, the arities it unrolls,
and running the generated code inside NumPy's quiet context only when an op can warn."""
import operator
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.fp_errors import run_quiet


def _calls(f, *shapes):
    return [f(*[tf.constant(np.full(s, i + 1.0, np.float32)) for s in shape_group])
            for i, shape_group in enumerate(shapes)]


def test_alternating_shapes_each_get_their_own_trace():
    f = tf.function(lambda x, y: tf.reduce_sum(x) * 10.0 + tf.reduce_sum(y))
    a, b = tf.constant(np.ones((2, 2), np.float32)), tf.constant(np.ones(3, np.float32))
    results = [f(a, a), f(b, b), f(a, a), f(a, b), f(a, a), f(b, b)]
    assert [float(r) for r in results] == [44.0, 33.0, 44.0, 43.0, 44.0, 33.0]
    info = f.cache_info()
    assert (info.hits, info.misses, info.currsize) == (3, 3, 3)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_every_arity_computes_and_counts_hits(n):
    f = tf.function(lambda *xs: tf.add_n([tf.constant(1.0)] + [x * float(i + 1) for i, x in enumerate(xs)]))
    args = [tf.constant(float(i + 2)) for i in range(n)]
    expected = 1.0 + sum((i + 2.0) * (i + 1) for i in range(n))
    for _ in range(3):
        assert float(f(*args)) == expected
    assert f.cache_info().hits == 2 and f.cache_info().misses == 1


def test_the_last_key_shortcut_forgets_a_cleared_or_evicted_trace():
    f = tf.function(lambda x: x + 1.0, experimental_max_traces=1)
    a, b = tf.constant([1.0]), tf.constant([1.0, 2.0])
    f(a), f(a)
    f.cache_clear()
    assert f(a).numpy().tolist() == [2.0] and f.cache_info().misses == 2  # traced again
    assert f(b).numpy().tolist() == [2.0, 3.0]  # evicts a's trace
    assert f(a).numpy().tolist() == [2.0]
    assert f.cache_info().misses == 4 and f.cache_info().evictions == 2


def test_single_output_keeps_its_dtype_and_value():
    f = tf.function(lambda x: tf.cast(x, tf.int64) * 2)
    out = f(tf.constant([1.0, 2.5]))
    assert out.dtype == tf.int64 and out.numpy().tolist() == [2, 4]
    g = tf.function(lambda x: tf.reduce_sum(x))  # a 0-d result
    out = g(tf.constant([[1.0, 2.0]]))
    assert out.dtype == tf.float32 and out.shape == () and float(out) == 3.0


def _cf(f, *args):
    return f.get_concrete_function(*args)


def test_graphs_that_only_move_values_skip_the_quiet_context():
    spec = tf.TensorSpec([2, 3], tf.float32)
    moving = tf.function(lambda x: tf.nn.relu(tf.transpose(tf.reshape(x, [3, 2]))))
    computing = tf.function(lambda x: tf.math.log(x))
    assert _cf(moving, spec)._run is operator.call
    assert _cf(computing, spec)._run is run_quiet


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_hot_path_raises_no_floating_point_warning(n):
    f = tf.function(lambda *xs: tf.math.log(tf.add_n(list(xs)) * 0.0) - tf.constant(3e38) * 10.0)
    args = [tf.constant([1.0, 2.0]) for _ in range(n)]
    f(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = f(*args)  # cached: the hot path
    assert np.all(np.isneginf(out.numpy()))


def test_a_new_thread_takes_the_hot_path_with_its_own_state():
    import threading
    f = tf.function(lambda x: x * 3.0)
    x = tf.constant(2.0)
    f(x)  # traced here; the other thread's first call is a hot-path hit
    out = []

    def work():
        out.append(float(f(x)))
        with tf.GradientTape() as tape:  # this thread's tape: the call must record, not take the shortcut
            tape.watch(x)
            y = f(x)
        out.append(float(tape.gradient(y, x)))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert out == [6.0, 3.0]
