"""WhileGrad written inline (codegen/loop_gradient.py): a Python `for` over the reversed history,
the body gradient's statements in the function's own frame, externals' gradients summed into one
buffer each. Checked against hand-written NumPy backpropagation through time, the reference
interpreter (graph/evaluate.py, which runs the WhileGrad kernel) and eager execution."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.codegen.loop_gradient import history_entries
from eagerflow._src.core.variant import VariantValue
from eagerflow._src.graph.evaluate import evaluate

T, B, I, H = 6, 3, 4, 5


def _weights(seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((T, B, I)).astype(np.float32), (rng.standard_normal((I, H)) * 0.3).astype(np.float32),
            (rng.standard_normal((H, H)) * 0.3).astype(np.float32), (rng.standard_normal(H) * 0.1).astype(np.float32))


def _numpy_bptt(x, wx, wh, b, steps):
    hs = [np.zeros((B, H), np.float32)]
    for t in range(steps):
        hs.append(np.tanh(x[t] @ wx + hs[-1] @ wh + b))
    gwx, gwh, gb, gx = np.zeros_like(wx), np.zeros_like(wh), np.zeros_like(b), np.zeros_like(x)
    gh = np.ones((B, H), np.float32)
    for t in range(steps - 1, -1, -1):
        gz = gh * (1 - hs[t + 1] * hs[t + 1])
        gwx += x[t].T @ gz
        gwh += hs[t].T @ gz
        gb += gz.sum(axis=0)
        gx[t] = gz @ wx.T
        gh = gz @ wh.T
    return np.sum(hs[-1]), gwx, gwh, gb, gx


def _rnn_step(steps):
    x, wx, wh, b = _weights()
    wx_v, wh_v, b_v = tf.Variable(wx), tf.Variable(wh), tf.Variable(b)

    @tf.function
    def step(xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            h = tf.zeros([B, H])
            for t in tf.range(steps):
                h = tf.tanh(tf.matmul(xs[t], wx_v) + tf.matmul(h, wh_v) + b_v)
            loss = tf.reduce_sum(h)
        return (loss,) + tuple(tape.gradient(loss, [wx_v, wh_v, b_v, xs]))
    return step, x, (wx, wh, b)


@pytest.mark.parametrize("steps", [T, 1])
def test_rnn_gradient_matches_numpy_bptt_and_the_kernel(steps):
    step, x, (wx, wh, b) = _rnn_step(steps)
    got = [t.numpy() for t in step(tf.constant(x))]
    expected = _numpy_bptt(x, wx, wh, b, steps)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    cf = step.get_concrete_function(tf.TensorSpec(x.shape, tf.float32))
    assert "in reversed(" in cf.code and "k_WhileGrad" not in cf.code
    assert ".sum(axis=(0,))" in cf.code  # the bias gradient: SumToShape as one NumPy reduction
    reference = evaluate(cf.graph, [tf.constant(x)], cf.graph.structured_outputs)  # runs WhileGrad's kernel
    for g, r in zip(got, reference):
        np.testing.assert_array_equal(g, r.numpy())  # the same sums in the same order


def test_zero_iterations_give_zero_external_gradients_and_the_seed():
    w = tf.Variable([1.5, -2.0])

    @tf.function
    def f(n, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * w), (tf.constant(0), x))
            loss = tf.reduce_sum(y * 3.0)
        return tape.gradient(loss, [w, x])

    gw, gx = f(tf.constant(0), tf.constant([2.0, 5.0]))
    np.testing.assert_array_equal(gw.numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(gx.numpy(), [3.0, 3.0])
    gw, gx = f(tf.constant(3), tf.constant([2.0, 5.0]))  # y = x * w**3: dy/dw = 3 x w**2, dy/dx = w**3
    np.testing.assert_allclose(gw.numpy(), 3.0 * 3.0 * np.array([2.0, 5.0]) * np.array([1.5, -2.0]) ** 2, rtol=1e-6)
    np.testing.assert_allclose(gx.numpy(), 3.0 * np.array([1.5, -2.0]) ** 3, rtol=1e-6)
    code = f.get_concrete_function(tf.TensorSpec([], tf.int32), tf.TensorSpec([2])).code
    assert "in reversed(" in code


def test_returned_gradients_are_fresh_arrays_each_call():
    """The summed buffers are the call's own: a second call must not write into the first's."""
    step, x, _ = _rnn_step(T)
    first = [t.numpy().copy() for t in step(tf.constant(x))]
    kept = step(tf.constant(x))
    step(tf.constant(x * 2))
    for a, b in zip(first, kept):
        np.testing.assert_array_equal(a, b.numpy())


def test_second_order_gradient_through_the_loop_still_runs_the_kernel_form():
    """Under a recording tape the gradient of the gradient needs WhileGrad as an op; values
    against the closed form: y = x**4 (four multiplications), d2y/dx2 = 12 x**2."""
    @tf.function
    def f(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), (tf.constant(0), x))
            g = inner.gradient(y, x)
        return g, outer.gradient(g, x)

    g, gg = f(tf.constant(1.5))
    np.testing.assert_allclose([g.numpy(), gg.numpy()], [4 * 1.5 ** 3, 12 * 1.5 ** 2], rtol=1e-6)


def test_history_entries_picks_the_kept_positions_out_of_a_full_history():
    entries = [(("i0", "h0"), ("a0", "b0", "c0", "d0")), (("i1", "h1"), ("a1", "b1", "c1", "d1"))]
    assert history_entries(VariantValue((None, entries)), (1, 3)) == [
        (("i0", "h0"), ("b0", "d0")), (("i1", "h1"), ("b1", "d1"))]
    stored = [(("i0",), ("x0", "y0"))]
    assert history_entries(VariantValue(((2, 5), stored)), (2, 5)) is stored
    assert history_entries(VariantValue(((2, 5), stored)), (5,)) == [(("i0",), ("y0",))]
    with pytest.raises(RuntimeError, match="without keeping the history"):
        history_entries(VariantValue(None), (1,))
