"""Outputs of a jit_compile=True function stay in XLA's buffers until first read (core/tensor.py's
DeviceTensor), and `tf.config.experimental.set_synchronous_execution` / `tf.test.experimental.
sync_devices` (codegen/jit_dispatch.py). What must hold: such an output is an ordinary eager
tensor to every use (values equal NumPy's, ops, tapes, printing, pickling, other functions,
threads), reading it never changes it, and nothing it came from is kept alive."""
from __future__ import annotations

import copy
import gc
import pickle
import threading
import weakref

import numpy as np
import pytest

pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402
from eagerflow._src.core.tensor import DeviceTensor  # noqa: E402

RNG = np.random.default_rng(7)
W = RNG.standard_normal((16, 16)).astype(np.float32) * 0.3
H = RNG.standard_normal((4, 16)).astype(np.float32)


def _cell():
    w = tf.constant(W)

    @tf.function(jit_compile=True)
    def cell(h):
        return tf.tanh(tf.matmul(h, w))
    return cell


def _reference(h, steps=1):
    for _ in range(steps):
        h = np.tanh(h @ W)
    return h


def test_outputs_are_device_tensors_with_numpys_values():
    cell = _cell()
    out = cell(tf.constant(H))
    assert type(out) is DeviceTensor and isinstance(out, tf.Tensor)
    assert out.shape == (4, 16) and out.dtype == tf.float32 and out.ndim == 2
    np.testing.assert_allclose(out.numpy(), _reference(H), rtol=1e-5, atol=1e-6)
    assert str(out).startswith("tf.Tensor(\n[[") and str(out).endswith("shape=(4, 16), dtype=float32)")


def test_numpy_returns_a_copy_and_reading_never_changes_the_tensor():
    out = _cell()(tf.constant(H))
    first = out.numpy()
    first[:] = 0.0
    np.testing.assert_allclose(out.numpy(), _reference(H), rtol=1e-5, atol=1e-6)
    assert np.asarray(out) is np.asarray(out)  # converted once, then the same array


def test_several_outputs_in_their_structure():
    @tf.function(jit_compile=True)
    def stats(x):
        return {"mean": tf.reduce_mean(x), "max": tf.reduce_max(x, axis=1), "n": tf.size(x)}
    out = stats(tf.constant(H))
    assert sorted(out) == ["max", "mean", "n"]
    assert out["n"].dtype == tf.int32 and int(out["n"]) == H.size
    np.testing.assert_allclose(float(out["mean"]), H.mean(), rtol=1e-5)
    np.testing.assert_allclose(out["max"].numpy(), H.max(axis=1))


def test_a_chain_of_calls_feeds_outputs_back_without_retracing():
    cell = _cell()
    h = tf.constant(H)
    for _ in range(5):
        h = cell(h)
    assert cell.experimental_get_tracing_count() == 1
    np.testing.assert_allclose(h.numpy(), _reference(H, 5), rtol=1e-4, atol=1e-5)

    @tf.function
    def plain(a, b):  # a jit_compile=False function, taking two of them (the two-argument hot path)
        return a * 2.0 + b
    got = plain(cell(tf.constant(H)), cell(tf.constant(H)))
    np.testing.assert_allclose(got.numpy(), 3 * _reference(H), rtol=1e-5, atol=1e-5)
    assert plain.experimental_get_tracing_count() == 1
    plain(tf.constant(H), tf.constant(H))  # an EagerTensor of the same spec: the same trace
    assert plain.experimental_get_tracing_count() == 1


def test_eager_ops_and_tapes_take_them():
    out = _cell()(tf.constant(H))
    np.testing.assert_allclose((out + 1.0).numpy(), _reference(H) + 1.0, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.matmul(out, out, transpose_b=True).numpy(),
                               _reference(H) @ _reference(H).T, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(tf.matmul(out, tf.constant(W)).numpy(), _reference(H) @ W, rtol=1e-4, atol=1e-5)
    with tf.GradientTape() as tape:
        tape.watch(out)
        y = tf.reduce_sum(out * out)
    np.testing.assert_allclose(tape.gradient(y, out).numpy(), 2 * _reference(H), rtol=1e-5, atol=1e-6)
    v = tf.Variable(out)  # a variable's initial value
    np.testing.assert_allclose(v.numpy(), _reference(H), rtol=1e-5, atol=1e-6)


def test_pickle_and_copy():
    out = _cell()(tf.constant(H))
    back = pickle.loads(pickle.dumps(out))
    assert type(back) is tf.Tensor or isinstance(back, tf.Tensor)
    np.testing.assert_array_equal(back.numpy(), out.numpy())
    assert copy.copy(out) is out and copy.deepcopy(out) is out


def test_threads_reading_one_output_see_the_same_values():
    out = _cell()(tf.constant(H))
    want = _reference(H)
    seen, errors = [], []

    def read():
        try:
            seen.append(out.numpy())
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(seen) == 8
    for got in seen:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_dropped_outputs_and_functions_do_not_survive():
    cell = _cell()
    x = tf.constant(H)
    refs = []
    for i in range(2000):
        out = cell(x)
        if i % 2:
            out.numpy()  # read ones and unread ones
        refs.append(weakref.ref(out))
    del out
    function_ref = weakref.ref(cell)
    del cell
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert function_ref() is None


def test_synchronous_execution_setting_as_tensorflow_has_it():
    assert tf.config.experimental.get_synchronous_execution() is True  # TensorFlow 2.21's default
    cell = _cell()
    try:
        tf.config.experimental.set_synchronous_execution(False)
        assert tf.config.experimental.get_synchronous_execution() is False
        outs = [cell(tf.constant(H)) for _ in range(100)]
        tf.test.experimental.sync_devices()
        assert all(o._device.is_ready() for o in outs)
        for o in outs[::10]:
            np.testing.assert_allclose(o.numpy(), _reference(H), rtol=1e-5, atol=1e-6)
        tf.config.experimental.set_synchronous_execution(None)  # None: the default
        assert tf.config.experimental.get_synchronous_execution() is True
    finally:
        tf.config.experimental.set_synchronous_execution(True)


def test_a_read_output_is_recognised_as_its_xla_array_and_nothing_else_is():
    from eagerflow._src.codegen.xla_outputs import array_viewed
    out = _cell()(tf.constant(H))
    view = np.asarray(out)
    assert array_viewed(view) is out._device  # passed back in, it goes to XLA without a copy
    assert array_viewed(view[1:]) is None and array_viewed(view.reshape(-1)) is None
    assert array_viewed(view[::-1, ::-1]) is None and array_viewed(np.asarray(out)) is out._device
    assert array_viewed(np.array(view)) is None and array_viewed(H) is None


def test_variables_a_compiled_step_assigns_stay_in_xla_until_read_and_agree_with_numpy():
    from eagerflow._src.core.tensor import DeviceValue
    w = tf.Variable(W)
    v = tf.Variable(np.zeros(16, np.float32))
    x = tf.constant(H)

    @tf.function(jit_compile=True)
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(tf.matmul(x, w)) ** 2)
        g = tape.gradient(loss, w)
        v.assign(0.9 * v + tf.reduce_sum(g, axis=0))
        w.assign_sub(0.01 * g)
        return loss

    @tf.function
    def plain_read():
        return tf.reduce_sum(w) + tf.reduce_sum(v)

    rw, rv = W.copy(), np.zeros(16, np.float32)
    for i in range(6):
        loss = step(x)
        assert type(w._held) is DeviceValue and type(v._held) is DeviceValue  # nothing copied out yet
        t = np.tanh(H @ rw)
        want_loss = (t ** 2).sum()
        g = H.T @ (2 * t * (1 - t ** 2))
        rv = 0.9 * rv + g.sum(axis=0)
        rw = rw - 0.01 * g
        np.testing.assert_allclose(float(loss), want_loss, rtol=1e-5)
        if i == 2:  # read eagerly, through a plain function, and write eagerly between compiled steps
            np.testing.assert_allclose(w.numpy(), rw, rtol=1e-4, atol=1e-6)
            np.testing.assert_allclose(float(plain_read()), rw.sum() + rv.sum(), rtol=1e-4)
            v.assign_add(tf.ones(16))
            rv = rv + 1.0
        if i == 4:
            np.testing.assert_allclose((w + 0.0).numpy(), rw, rtol=1e-4, atol=1e-6)  # an eager op reads it
    np.testing.assert_allclose(w.numpy(), rw, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(v.numpy(), rv, rtol=1e-4, atol=1e-5)


def test_variables_written_by_compiled_steps_do_not_survive_being_dropped():
    refs = []
    for _ in range(300):
        v = tf.Variable(np.ones(4, np.float32))

        @tf.function(jit_compile=True)
        def bump():
            v.assign_add(tf.ones(4))
            return v.read_value()
        bump()
        refs.append((weakref.ref(v), weakref.ref(bump)))
    del v, bump
    gc.collect()
    assert sum(a() is not None or b() is not None for a, b in refs) == 0
