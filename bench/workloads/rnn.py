"""A recurrent cell over time: h = tanh(x_t Wx + h Wh + b), T = 100 steps, batch 8, input 32,
hidden 64 (issue 4). Written `for t in tf.range(T)` inside `tf.function`: AutoGraph makes it a
graph `while_loop` (a Python `while` in the generated code), timed against the same loop
hand-written over NumPy.

Targets: forward at most 1.3x the NumPy loop; forward + backward (GradientTape inside the
function, gradients for Wx, Wh, b) at most 1.3x hand-written NumPy backpropagation through time
(issue 12; it was 1.6x while the loop's gradient ran as a kernel calling the body gradient per step).
Also reported, without targets: the same cell run eagerly, and unrolled by Python at trace time.
"""
from __future__ import annotations

import numpy as np

from ..harness import Workload, ratio_at_most

T, BATCH, INPUT, HIDDEN = 100, 8, 32, 64
FRAMEWORKS = ("eagerflow", "tensorflow")


def _setup(quick):
    rng = np.random.default_rng(5)
    return {"x": rng.standard_normal((T, BATCH, INPUT)).astype(np.float32),
            "wx": (rng.standard_normal((INPUT, HIDDEN)) * 0.1).astype(np.float32),
            "wh": (rng.standard_normal((HIDDEN, HIDDEN)) * 0.1).astype(np.float32),
            "b": np.zeros(HIDDEN, np.float32)}


def _numpy_forward(p):
    x, wx, wh, b = p["x"], p["wx"], p["wh"], p["b"]

    def run():
        h = np.zeros((BATCH, HIDDEN), np.float32)
        for t in range(T):
            h = np.tanh(x[t] @ wx + h @ wh + b)
        return h
    return run


def _numpy_forward_backward(p):
    x, wx, wh, b = p["x"], p["wx"], p["wh"], p["b"]

    def run():
        hs = [np.zeros((BATCH, HIDDEN), np.float32)]
        for t in range(T):
            hs.append(np.tanh(x[t] @ wx + hs[-1] @ wh + b))
        loss = np.sum(hs[-1])
        gwx, gwh, gb = np.zeros_like(wx), np.zeros_like(wh), np.zeros_like(b)
        gh = np.ones((BATCH, HIDDEN), np.float32)
        for t in range(T - 1, -1, -1):
            gz = gh * (1 - hs[t + 1] * hs[t + 1])
            gwx += x[t].T @ gz
            gwh += hs[t].T @ gz
            gb += gz.sum(axis=0)
            gh = gz @ wh.T
        return loss, gwx, gwh, gb
    return run


def _framework(name):
    if name == "eagerflow":
        import eagerflow as tf
    else:
        import tensorflow as tf
    return tf


def _cell_loop(tf, x, wx, wh, b):
    """The loop as users write it: AutoGraph turns `for t in tf.range(T)` into a tf.while_loop
    when this runs under tf.function."""
    h = tf.zeros([BATCH, HIDDEN])
    for t in tf.range(T):
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh) + b)
    return h


def _graph_forward(framework):
    def factory(p):
        tf = _framework(framework)
        x, wx, wh, b = (tf.constant(p[k]) for k in ("x", "wx", "wh", "b"))
        @tf.function
        def forward():
            return _cell_loop(tf, x, wx, wh, b)
        forward()
        return forward
    return factory


def _eager_forward(framework):
    def factory(p):
        tf = _framework(framework)
        x, wx, wh, b = (tf.constant(p[k]) for k in ("x", "wx", "wh", "b"))

        def run():
            h = tf.zeros([BATCH, HIDDEN])
            for t in range(T):
                h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh) + b)
            return h
        return run
    return factory


def _unrolled_forward(framework):
    def factory(p):
        tf = _framework(framework)
        x, wx, wh, b = (tf.constant(p[k]) for k in ("x", "wx", "wh", "b"))

        @tf.function
        def run():
            h = tf.zeros([BATCH, HIDDEN])
            for t in range(T):  # Python loop: unrolled into T copies of the cell at trace time
                h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh) + b)
            return h
        run()
        return run
    return factory


def _graph_forward_backward(framework):
    def factory(p):
        tf = _framework(framework)
        x = tf.constant(p["x"])
        wx, wh, b = tf.Variable(p["wx"]), tf.Variable(p["wh"]), tf.Variable(p["b"])

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(_cell_loop(tf, x, wx, wh, b))
            gwx, gwh, gb = tape.gradient(loss, [wx, wh, b])
            return loss, gwx, gwh, gb
        step()
        return step
    return factory


def _variants(numpy_factory, make):
    return {"numpy": numpy_factory, **{fw: make(fw) for fw in FRAMEWORKS}}


WORKLOADS = [
    Workload(name="rnn/forward", setup=_setup, variants=_variants(_numpy_forward, _graph_forward),
             target=ratio_at_most(1.3), rtol=1e-4, atol=1e-5,
             description="tf.function + while_loop, T=100 batch 8 input 32 hidden 64: forward"),
    Workload(name="rnn/forward+backward", setup=_setup,
             variants=_variants(_numpy_forward_backward, _graph_forward_backward),
             target=ratio_at_most(1.3), rtol=1e-3, atol=1e-4,
             description="tf.function + while_loop + GradientTape: loss and grads of Wx, Wh, b"),
    Workload(name="rnn/forward-eager", setup=_setup, variants=_variants(_numpy_forward, _eager_forward),
             rtol=1e-4, atol=1e-5, description="the same cell run eagerly, op by op (no target)"),
    Workload(name="rnn/forward-unrolled", setup=_setup, variants=_variants(_numpy_forward, _unrolled_forward),
             rtol=1e-4, atol=1e-5, description="tf.function over a Python loop: unrolled at trace time (no target)"),
]
