"""Large outputs of a jit_compile=True function: NumPy views of XLA buffers, donated back to a
later call once the user's tensors die (codegen/xla_outputs.py). What must hold: a tensor the
user still has (or any view of its data) is never overwritten, every result equals NumPy's, a
buffer is reused only after its tensor is gone, and a live output keeps nothing else alive."""
from __future__ import annotations

import gc
import threading
import weakref

import numpy as np
import pytest

pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

N = 1 << 19  # float32: 2 MiB, above the recycling threshold


def _pointer(t):
    return np.asarray(t).__array_interface__["data"][0]  # the data itself (.numpy() copies)


def _affine():
    @tf.function(jit_compile=True)
    def f(x):
        return x * 2.0 + 1.0
    return f


def _inputs(count, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(N).astype(np.float32) for _ in range(count)]


def test_a_dead_output_buffer_is_reused_and_a_live_one_is_not_overwritten():
    f = _affine()
    xs = _inputs(4)
    kept = f(tf.constant(xs[0]))
    dropped = f(tf.constant(xs[1]))
    dropped_at = _pointer(dropped)
    del dropped
    gc.collect()
    third = f(tf.constant(xs[2]))
    assert _pointer(third) == dropped_at  # the dead tensor's buffer, not fresh memory
    fourth = f(tf.constant(xs[3]))
    for t, x in ((kept, xs[0]), (third, xs[2]), (fourth, xs[3])):
        np.testing.assert_array_equal(t.numpy(), x * np.float32(2) + np.float32(1))
    assert _pointer(fourth) not in (_pointer(kept), _pointer(third))


def test_a_view_of_the_data_keeps_the_buffer_from_being_reused():
    f = _affine()
    xs = _inputs(6, seed=1)
    t = f(tf.constant(xs[0]))
    part = np.asarray(t)[10:20]  # a slice: its base is the output's view
    whole = np.asarray(t)
    del t
    gc.collect()
    for x in xs[1:]:
        f(tf.constant(x))
    np.testing.assert_array_equal(part, xs[0][10:20] * np.float32(2) + np.float32(1))
    np.testing.assert_array_equal(whole, xs[0] * np.float32(2) + np.float32(1))
    assert not whole.flags.writeable  # as a tensor's data always is: nothing writes into it


def test_an_output_that_is_an_argument_or_repeated_is_never_recycled():
    @tf.function(jit_compile=True)
    def f(x):
        y = tf.identity(x)
        z = x + 1.0
        return y, z, z
    x_np = _inputs(1, seed=2)[0]
    x = tf.constant(x_np)
    for _ in range(4):
        y, z1, z2 = f(x)
        np.testing.assert_array_equal(y.numpy(), x_np)
        np.testing.assert_array_equal(z1.numpy(), x_np + np.float32(1))
        np.testing.assert_array_equal(z2.numpy(), x_np + np.float32(1))
        del y, z1, z2
        gc.collect()
    np.testing.assert_array_equal(x.numpy(), x_np)


def test_a_large_variable_read_as_an_output_stays_intact():
    v = tf.Variable(np.arange(N, dtype=np.float32))

    @tf.function(jit_compile=True)
    def f(d):
        v.assign(v + d)
        return v.read_value(), v * 1.0
    expected = np.arange(N, dtype=np.float32)
    for step in range(4):
        read, scaled = f(tf.constant(np.float32(step)))
        expected = expected + np.float32(step)
        np.testing.assert_array_equal(read.numpy(), expected)
        np.testing.assert_array_equal(scaled.numpy(), expected)
        del read, scaled
        gc.collect()
    np.testing.assert_array_equal(v.numpy(), expected)


def test_outputs_alive_in_a_list_are_all_distinct_and_right():
    f = _affine()
    xs = _inputs(5, seed=3)
    results = [f(tf.constant(x)) for x in xs]
    assert len({_pointer(t) for t in results}) == len(results)
    for t, x in zip(results, xs):
        np.testing.assert_array_equal(t.numpy(), x * np.float32(2) + np.float32(1))


def test_concurrent_calls_never_share_a_buffer():
    f = _affine()
    xs = _inputs(4, seed=4)
    f(tf.constant(xs[0]))
    failures = []

    def worker(k):
        x = xs[k]
        expected = x * np.float32(2) + np.float32(1)
        for _ in range(25):
            t = f(tf.constant(x))
            if not np.array_equal(t.numpy(), expected):
                failures.append(k)
            del t
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert failures == []


def test_a_live_output_does_not_keep_its_function_alive():
    """The pool is reached weakly from an output's finalizer: holding a result must not hold the
    function, its trace or its captured variables."""
    outputs, functions, variables = [], [], []
    for k in range(30):
        v = tf.Variable(np.full(N, k, np.float32))

        @tf.function(jit_compile=True)
        def f(x):
            return x + v
        outputs.append(f(tf.constant(np.ones(N, np.float32))))
        functions.append(weakref.ref(f))
        variables.append(weakref.ref(v))
        del f, v
    gc.collect()
    assert sum(r() is not None for r in functions) == 0
    assert sum(r() is not None for r in variables) == 0
    for k, t in enumerate(outputs):
        assert t.numpy()[0] == k + 1
    del outputs
    gc.collect()  # the finalizers run with their pools gone: nothing to give back to, no error


def test_small_outputs_are_plain_arrays():
    @tf.function(jit_compile=True)
    def f(x):
        return x * 2.0
    t = f(tf.constant(np.ones(16, np.float32)))
    np.testing.assert_array_equal(t.numpy(), np.full(16, 2, np.float32))


def test_outputs_fed_back_as_arguments_chain_correctly():
    """`y = f(y)`: each output goes back in as the XLA array it views; results kept along the way
    stay as they were, dropped ones are recycled."""
    @tf.function(jit_compile=True)
    def step(y):
        return tf.tanh(y) * 0.9 + 0.05
    y_np = _inputs(1, seed=5)[0]
    y = tf.constant(y_np)
    kept = {}
    for k in range(12):
        y = step(y)
        y_np = np.tanh(y_np) * np.float32(0.9) + np.float32(0.05)
        if k % 3 == 0:
            kept[k] = (y, y_np.copy())
        np.testing.assert_allclose(y.numpy(), y_np, rtol=1e-6, atol=1e-6)
    gc.collect()
    for t, expected in kept.values():
        np.testing.assert_allclose(t.numpy(), expected, rtol=1e-6, atol=1e-6)


def test_an_output_assigned_to_a_variable_is_read_back_intact():
    v = tf.Variable(np.zeros(N, np.float32))

    @tf.function(jit_compile=True)
    def make(x):
        return x * 3.0

    @tf.function(jit_compile=True)
    def read_plus(d):
        return v + d
    x_np = _inputs(1, seed=6)[0]
    v.assign(make(tf.constant(x_np)))
    for k in range(3):
        out = read_plus(tf.constant(np.float32(k)))
        np.testing.assert_array_equal(out.numpy(), x_np * np.float32(3) + np.float32(k))
        del out
        gc.collect()
    np.testing.assert_array_equal(v.numpy(), x_np * np.float32(3))
