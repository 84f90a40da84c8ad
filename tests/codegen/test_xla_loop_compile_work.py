"""Compile-time work the loop lowering under jit_compile=True skips: the static trip count computes
only what counting the steps needs (codegen/xla_trip_count.py), and a TensorArray written with items
of a shape the graph knows gets its buffer without a look-ahead trace of the body
(codegen/xla_lists.py). Needs JAX. References: the same function as a plain tf.function (the NumPy
kernels) and NumPy."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

from .test_xla_counters import _rnn_inputs, _states  # noqa: E402


def _count_calls(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(name)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_tensor_array_written_with_items_of_known_shape_gets_its_buffer_without_tracing_the_body_again(
        monkeypatch):
    calls = _count_calls(monkeypatch, jax, "eval_shape")
    x, wx, wh = _rnn_inputs()
    got = tf.function(_states, jit_compile=True)(tf.constant(x), tf.constant(wx), tf.constant(wh)).numpy()
    np.testing.assert_allclose(got, tf.function(_states)(tf.constant(x), tf.constant(wx), tf.constant(wh)).numpy(),
                               rtol=1e-5, atol=1e-6)
    assert calls == []  # the item's shape [B, H] is in the graph: no look-ahead trace of the body


def test_items_whose_shape_the_graph_does_not_know_still_size_the_buffer():
    """Rows of unknown length (input_signature [None, None]): the look-ahead trace sizes the buffer."""
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3)
        for t in tf.range(3):
            ta = ta.write(t, x[t] * 2.0)
        return ta.stack()
    spec = [tf.TensorSpec([None, None], tf.float32)]
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = tf.function(f, jit_compile=True, input_signature=spec)(tf.constant(x)).numpy()
    np.testing.assert_array_equal(got, x * 2.0)


def test_the_trip_count_run_does_not_compute_the_loops_other_known_values(monkeypatch):
    """The RNN's hidden state is known at trace time too (constant inputs, zero start): the static
    trip count used to compute it T times with NumPy (MatMul and Tanh kernels) to count the steps."""
    from eagerflow._src.ops.linalg import matmul as matmul_ops
    x, wx, wh = _rnn_inputs()
    consts = [tf.constant(a) for a in (x, wx, wh)]

    @tf.function(jit_compile=True)
    def f():
        return _states(*consts)
    ran = []
    kernel = matmul_ops.MatMul.kernel
    monkeypatch.setattr(matmul_ops.MatMul, "kernel", lambda *a, **k: ran.append(1) or kernel(*a, **k))
    got = f().numpy()
    monkeypatch.undo()
    np.testing.assert_allclose(got, tf.function(_states)(*consts).numpy(), rtol=1e-5, atol=1e-6)
    assert len(ran) == 0
