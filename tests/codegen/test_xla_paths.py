"""jit_compile=True beyond the plain call (codegen/xla.py): what a loop keeps for its gradient, a
compiled function called under an outer GradientTape, `ConcreteFunction.code`, and the refusal of a
data-dependent loop's gradient (needs JAX).

References: hand-written NumPy backpropagation through time, the same function on the NumPy path,
and TensorFlow 2.21's behaviour (quoted where asserted)."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

T, B, I, H = 7, 3, 4, 5


def _rnn_arrays():
    rng = np.random.default_rng(11)
    return (rng.standard_normal((T, B, I)).astype(np.float32),
            (rng.standard_normal((I, H)) * 0.3).astype(np.float32),
            (rng.standard_normal((H, H)) * 0.3).astype(np.float32))


def _numpy_bptt(x, wx, wh):
    x, wx, wh = (np.asarray(a, np.float64) for a in (x, wx, wh))
    hs = [np.zeros((x.shape[1], wh.shape[0]))]
    for t in range(x.shape[0]):
        hs.append(np.tanh(x[t] @ wx + hs[-1] @ wh))
    gwx, gwh, gh = np.zeros_like(wx), np.zeros_like(wh), np.ones_like(hs[-1])
    for t in range(x.shape[0] - 1, -1, -1):
        gz = gh * (1 - hs[t + 1] ** 2)
        gwx += x[t].T @ gz
        gwh += hs[t].T @ gz
        gh = gz @ wh.T
    return hs[-1].sum(), gwx, gwh


def _variable_rnn_step():
    x, wx0, wh0 = _rnn_arrays()
    x = tf.constant(x)
    wx, wh = tf.Variable(wx0), tf.Variable(wh0)

    @tf.function(jit_compile=True)
    def step():
        with tf.GradientTape() as tape:
            h = tf.zeros([B, H])
            for t in tf.range(T):
                h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
            loss = tf.reduce_sum(h)
        return [loss] + tape.gradient(loss, [wx, wh])
    return step, (x, wx0, wh0)


def test_loop_gradient_keeps_a_weight_read_in_the_body_once_not_per_iteration():
    """The body reads Wh (a variable it does not assign) and its gradient needs it: the scan used to
    stack it per iteration ([T, H, H], copied T times); now it is kept once, gradients unchanged."""
    step, (x, wx0, wh0) = _variable_rnn_step()
    loss, gwx, gwh = step()
    ref = _numpy_bptt(x, wx0, wh0)
    np.testing.assert_allclose(loss.numpy(), ref[0], rtol=1e-4)
    np.testing.assert_allclose(gwx.numpy(), ref[1], rtol=1e-3, atol=1e-5)
    np.testing.assert_allclose(gwh.numpy(), ref[2], rtol=1e-3, atol=1e-5)
    program = step.get_concrete_function()._fn.__self__
    variables = program._device_values([v for _, v in program._captured_variables])
    text = str(jax.make_jaxpr(program._lowered, static_argnums=(1,))([], (), variables))
    assert f"f32[{T},{H},{H}]" not in text  # no per-iteration stack of Wh
    assert f"f32[{T},{B},{H}]" in text  # the hidden states are (the gradient needs each one)


def _mlp_inputs():
    rng = np.random.default_rng(4)
    return (rng.standard_normal((6, 5)).astype(np.float32), (rng.standard_normal((5, 3)) * 0.5).astype(np.float32),
            rng.standard_normal(3).astype(np.float32))


def _gradient_under_outer_tape(jit_compile):
    x, w0, b0 = _mlp_inputs()
    w, b = tf.Variable(w0), tf.Variable(b0)

    @tf.function(jit_compile=jit_compile)
    def loss_fn(x):
        return tf.reduce_mean(tf.square(tf.nn.relu(tf.matmul(x, w) + b)))
    with tf.GradientTape() as tape:
        loss = loss_fn(tf.constant(x))
    return [loss.numpy()] + [g.numpy() for g in tape.gradient(loss, [w, b])]


def test_called_under_an_outer_tape_the_forward_runs_in_xla(monkeypatch):
    """The tape path runs the outputs-plus-intermediates variant: it used to run as NumPy code
    silently; now it is compiled too (one more executable), gradient equal to the NumPy path's."""
    from eagerflow._src.codegen import xla
    compiled = []
    real = xla.CompiledProgram.__init__
    monkeypatch.setattr(xla.CompiledProgram, "__init__", lambda self, *a: (compiled.append(a[1]), real(self, *a))[1])
    got = _gradient_under_outer_tape(True)
    assert compiled == ["loss_fn", "loss_fn_with_intermediates"]
    want = _gradient_under_outer_tape(False)
    for g, r in zip(got, want):
        np.testing.assert_allclose(g, r, rtol=1e-5, atol=1e-7)
    x, w0, b0 = (a.astype(np.float64) for a in _mlp_inputs())  # and NumPy by hand
    z = x @ w0 + b0
    gz = 2 * np.maximum(z, 0) * (z > 0) / z.size
    np.testing.assert_allclose(got[0], np.mean(np.maximum(z, 0) ** 2), rtol=1e-5)
    np.testing.assert_allclose(got[1], x.T @ gz, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(got[2], gz.sum(0), rtol=1e-4, atol=1e-6)


def test_under_an_outer_tape_a_loop_falls_back_to_numpy_with_one_warning():
    """A loop's saved history cannot leave the executable: that call runs the NumPy code, and says so
    once (not silently), with the same gradient."""
    x0, wx0, wh0 = _rnn_arrays()
    wh = tf.Variable(wh0)

    def rnn(x, wx):
        h = tf.zeros([B, H])
        for t in tf.range(T):
            h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
        return tf.reduce_sum(h)
    compiled = tf.function(rnn, jit_compile=True)
    x, wx = tf.constant(x0), tf.constant(wx0)
    with pytest.warns(RuntimeWarning, match="runs as NumPy code, not XLA"):
        with tf.GradientTape() as tape:
            tape.watch(wx)
            loss = compiled(x, wx)
        gwx, gwh = tape.gradient(loss, [wx, wh])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tf.GradientTape() as tape:  # the second call: no second warning
            tape.watch(wx)
            compiled(x, wx)
    ref = _numpy_bptt(x0, wx0, wh0)
    np.testing.assert_allclose(loss.numpy(), ref[0], rtol=1e-4)
    np.testing.assert_allclose(gwx.numpy(), ref[1], rtol=1e-3, atol=1e-5)
    np.testing.assert_allclose(gwh.numpy(), ref[2], rtol=1e-3, atol=1e-5)


def test_code_of_a_jit_function_shows_the_jaxpr_that_runs_and_labels_the_numpy_code():
    @tf.function(jit_compile=True)
    def f(x):
        return tf.tanh(x) * 2.0
    cf = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    assert cf.code.startswith("# jit_compile=True: calls run one XLA executable")
    assert "after the first call" in cf.code
    f(tf.constant([1.0, 2.0, 3.0]))
    code = cf.code
    assert "# { lambda" in code and "tanh" in code and "f32[3]" in code  # the jaxpr, as comments
    assert "the NumPy code jit_compile=False runs (the reference, not what runs here)" in code
    assert code.endswith(cf.executable.generated.source) and "k_Tanh(x)" in cf.executable.generated.source
    compile(code, "<code>", "exec")  # still valid Python: the jaxpr is in comments


def test_gradient_of_a_data_dependent_loop_is_refused_naming_the_op_and_why():
    """TensorFlow 2.21 refuses this too: tf.while_loop with a data-dependent condition under a
    GradientTape inside jit_compile=True raises InvalidArgumentError "XLA compilation requires a fixed
    tensor list size. Set the max number of elements. This could also happen if you're using a
    TensorArray in a while loop that does not have its maximum_iteration set ..."."""
    v = tf.Variable(2.0)

    @tf.function(jit_compile=True)
    def f(n):
        with tf.GradientTape() as tape:
            _, x = tf.while_loop(lambda i, x: x < n, lambda i, x: (i + 1, x * 1.5), [tf.constant(0), v * 1.0])
        return tape.gradient(x, v)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant(100.0))
    message = str(info.value)
    assert "gradient of StatelessWhile" in message or "gradient of While" in message
    assert "trip count is unknown at compile time" in message and "depends on the data" in message
    assert "XLA compilation requires a fixed tensor list size" in message
    # the NumPy path computes it: x = 2 * 1.5**10 >= 100 after 10 iterations, dx/dv = 1.5**10
    np.testing.assert_allclose(tf.function(f.python_function)(tf.constant(100.0)).numpy(), 1.5 ** 10, rtol=1e-6)


@pytest.mark.parametrize("limit, want", [(50, 57.66504), (4, 1.5 ** 4)])
def test_gradient_of_a_data_dependent_loop_with_maximum_iterations_compiles(limit, want):
    """With maximum_iterations TensorFlow 2.21's XLA compiles it (the gradient of x = 2 * 1.5**k with
    x >= 100 stopping it: 57.66504 = 1.5**10 for limit 50); here: a scan of `limit` steps, those
    after the condition's end masked (and the limit itself stopping it at 4)."""
    v = tf.Variable(2.0)

    def f(n):
        with tf.GradientTape() as tape:
            _, x = tf.while_loop(lambda i, x: x < n, lambda i, x: (i + 1, x * 1.5), [tf.constant(0), v * 1.0],
                                 maximum_iterations=limit)
        return x, tape.gradient(x, v)
    x, g = tf.function(f, jit_compile=True)(tf.constant(100.0))
    np.testing.assert_allclose(g.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(x.numpy(), 2.0 * want, rtol=1e-6)


def test_masked_loop_gradient_of_vectors_matches_the_numpy_path():
    rng = np.random.default_rng(8)
    w = tf.Variable((rng.standard_normal((3, 3)) * 0.5).astype(np.float32))
    x0 = tf.constant(rng.standard_normal((2, 3)).astype(np.float32))

    def f(x, stop):
        with tf.GradientTape() as tape:
            _, y = tf.while_loop(lambda i, y: tf.reduce_sum(tf.abs(y)) < stop,
                                 lambda i, y: (i + 1, tf.tanh(tf.matmul(y, w)) * 2.0 + y),
                                 [tf.constant(0), x], maximum_iterations=6)
            loss = tf.reduce_sum(y * y)
        return loss, tape.gradient(loss, w)
    for stop in (10.0, 1e9):  # stops on the condition / on maximum_iterations
        plain = tf.function(f)(x0, tf.constant(stop))
        compiled = tf.function(f, jit_compile=True)(x0, tf.constant(stop))
        for a, b in zip(plain, compiled):
            np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=2e-5, atol=1e-5)
