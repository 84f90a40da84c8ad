"""Loop counters under jit_compile=True computed from the scan's step number, not carried
(codegen/xla_counters.py). Needs JAX.

References: the same function as a plain tf.function (the NumPy kernels) and the values written out
(int32 wrapping as TensorFlow's kernels do it: modulo 2**32)."""
from __future__ import annotations

import re

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

T, B, IN, H = 12, 2, 3, 4


def _both(fn, *args):
    """(plain tf.function result, jit_compile=True result), flattened to NumPy arrays."""
    def flat(r):
        return [np.asarray(t) for t in tf.nest.flatten(r)]
    return flat(tf.function(fn)(*args)), flat(tf.function(fn, jit_compile=True)(*args))


def _states(x, wx, wh):
    h = tf.zeros([B, H])
    states = tf.TensorArray(tf.float32, size=T)
    for t in tf.range(T):
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
        states = states.write(t, h)
    return states.stack()


def _rnn_inputs():
    rng = np.random.default_rng(7)
    return (rng.standard_normal((T, B, IN)).astype(np.float32), (rng.standard_normal((IN, H)) * 0.5).astype(np.float32),
            (rng.standard_normal((H, H)) * 0.5).astype(np.float32))


def test_the_executables_loop_keeps_one_counter_for_a_range_loop_writing_a_tensor_array():
    """`for t in tf.range(T)` carried t (int32) beside the scan's own int64 step number: XLA cannot
    merge counters of two types, and kept both (about a quarter of the bench's RNN-states time)."""
    x, wx, wh = _rnn_inputs()
    f = tf.function(_states, jit_compile=True)
    got = f(tf.constant(x), tf.constant(wx), tf.constant(wh)).numpy()
    h, ref = np.zeros((B, H), np.float32), []
    for t in range(T):
        h = np.tanh(x[t] @ wx + h @ wh)
        ref.append(h)
    np.testing.assert_allclose(got, np.stack(ref), rtol=1e-5, atol=1e-6)
    program = f.get_concrete_function(tf.constant(x), tf.constant(wx), tf.constant(wh))._fn.__self__
    arrays = [jax.numpy.asarray(a) for a in (x, wx, wh)]
    hlo = jax.jit(program._lowered, static_argnums=(1,)).lower(arrays, (), []).compile().as_text()
    loops = re.findall(r"= \(([^)]*)\) while\(", hlo)
    assert len(loops) == 1
    scalars = re.findall(r"\b[su](?:8|16|32|64)\[\]", loops[0])
    assert scalars == ["s64[]"], loops[0]  # one integer counter: the step number, no int32 t beside it


def test_counters_of_any_start_step_and_type_read_and_return_their_values():
    def f(x):
        i = tf.constant(5)  # int32, +3 per step
        j = tf.constant(10, tf.int64)  # int64, -2 per step
        acc = tf.zeros([3])
        seen = tf.TensorArray(tf.int32, size=4)
        for t in tf.range(2, 10, 2):  # 2, 4, 6, 8
            acc = acc + x[t // 2] * tf.cast(i, tf.float32) + tf.cast(j, tf.float32)
            seen = seen.write(t // 2 - 1, i * 100 + t)
            i += 3
            j -= 2
        return acc, i, j, seen.stack()
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    plain, jitted = _both(f, tf.constant(x))
    # i = 5, 8, 11, 14 at t = 2, 4, 6, 8; j = 10, 8, 6, 4
    want_acc = x[1] * 5 + 10 + x[2] * 8 + 8 + x[3] * 11 + 6 + x[4] * 14 + 4
    for got in (plain, jitted):
        np.testing.assert_allclose(got[0], want_acc)
        assert got[1] == 17 and got[1].dtype == np.int32
        assert got[2] == 2 and got[2].dtype == np.int64
        np.testing.assert_array_equal(got[3], [502, 804, 1106, 1408])


def test_an_int32_counter_wraps_past_its_maximum_as_when_carried():
    def f():
        i = tf.constant(2**31 - 2)
        seen = tf.TensorArray(tf.int32, size=4)
        for t in tf.range(4):
            seen = seen.write(t, i)
            i += 1
        return seen.stack(), i
    plain, jitted = _both(f)
    for got in (plain, jitted):
        np.testing.assert_array_equal(got[0], np.array([2147483646, 2147483647, -2147483648, -2147483647], np.int32))
        assert got[1] == -2147483646


def test_loop_variables_known_at_trace_time_but_not_counters_stay_right():
    def f(x):
        p = tf.constant(1)  # doubles: not an arithmetic progression
        q = tf.constant(0)  # adds t: steps 0, 1, 2, ... (triangular numbers)
        c = tf.constant(0)  # counts positive entries: depends on the data
        seen = tf.TensorArray(tf.int32, size=5)
        for t in tf.range(5):
            seen = seen.write(t, p * 10000 + q * 100 + c)
            p = p * 2
            q = q + t
            c = c + tf.cast(x[t] > 0, tf.int32)
        return seen.stack(), p, q, c
    x = np.array([1.0, -1.0, 2.0, 3.0, -4.0], np.float32)
    plain, jitted = _both(f, tf.constant(x))
    for got in (plain, jitted):
        # p = 1, 2, 4, 8, 16; q = 0, 0, 1, 3, 6; c = 0, 1, 1, 2, 3
        np.testing.assert_array_equal(got[0], [10000, 20001, 40101, 80302, 160603])
        assert (got[1], got[2], got[3]) == (32, 10, 3)


@pytest.mark.parametrize("n", [0, 1])
def test_a_loop_of_zero_or_one_steps_leaves_its_counters_right(n):
    def f(x):
        i = tf.constant(7)
        acc = tf.zeros([3])
        for t in tf.range(n):
            acc = acc + x[t] * tf.cast(i, tf.float32)
            i += 2
        return acc, i
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    plain, jitted = _both(f, tf.constant(x))
    for got in (plain, jitted):
        np.testing.assert_allclose(got[0], x[0] * 7 if n else np.zeros(3))
        assert got[1] == 7 + 2 * n


def test_nested_range_loops_with_counters():
    def f(x):
        total = tf.zeros([])
        k = tf.constant(0)
        for t in tf.range(3):
            for s in tf.range(4):
                total = total + x[t][s] * tf.cast(k, tf.float32)
                k += 1
        return total, k
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    plain, jitted = _both(f, tf.constant(x))
    for got in (plain, jitted):
        np.testing.assert_allclose(got[0], float(np.sum(x.reshape(-1) * np.arange(12))))
        assert got[1] == 12


def test_gradient_through_a_loop_whose_counter_scales_each_step():
    """The loop keeps its history for the gradient (a scan's stacked outputs): the counter is
    computed there too, and each step's weight i = 1, 3, 5, ... reaches the gradient."""
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    w0 = np.array([0.5, -0.25], np.float32)

    def step(x):
        w = tf.constant(w0)
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.zeros([])
            i = tf.constant(1)
            for t in tf.range(4):
                loss = loss + tf.reduce_sum(tf.tanh(x[t] * w)) * tf.cast(i, tf.float32)
                i += 2
        return loss, tape.gradient(loss, w)
    plain, jitted = _both(step, tf.constant(x))
    scale = np.array([1, 3, 5, 7], np.float32)[:, None]
    want_loss = float(np.sum(np.tanh(x * w0) * scale))
    want_grad = np.sum(x * (1 - np.tanh(x * w0) ** 2) * scale, axis=0)
    for got in (plain, jitted):
        np.testing.assert_allclose(got[0], want_loss, rtol=1e-5)
        np.testing.assert_allclose(got[1], want_grad, rtol=1e-5)


def test_an_unsigned_counter_counting_down():
    def f(x):
        u = tf.constant(9, tf.uint32)
        acc = tf.zeros([3])
        for t in tf.range(3):
            acc = acc + x[t] * tf.cast(u, tf.float32)
            u -= 4
        return acc, u
    x = np.arange(9, dtype=np.float32).reshape(3, 3)
    plain, jitted = _both(f, tf.constant(x))
    for got in (plain, jitted):
        np.testing.assert_allclose(got[0], x[0] * 9 + x[1] * 5 + x[2] * 1)
        assert got[1] == 2**32 - 3 and got[1].dtype == np.uint32  # 1 - 4 wraps, as TensorFlow's uint32

