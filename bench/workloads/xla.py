"""jit_compile=True (XLA through JAX) side by side with JAX's own jit, on the workloads where a
whole compiled loop or step wins: RNN forward, RNN forward+backward, RNN states collected in a
tf.TensorArray, MLP step, one small step, GELU (issue 12).

Each workload reuses the default-path module's NumPy floor and inputs, and adds:
* `jax`: the same math written by hand for `jax.jit` (`lax.scan` for the loop, `value_and_grad`
  for the step): what a user leaving TensorFlow's API for speed would write.
* `eagerflow`: the TensorFlow program of the default-path workload, with `jit_compile=True`.
* `tensorflow`: the same with TensorFlow's XLA (`--tf-python`, or TensorFlow importable here).
Target: eagerflow at most 1.1x JAX's jit. Rows without JAX installed are skipped. `xla/small-step`
(one 8x64 RNN cell step) has no target: it shows what a compiled call costs when the work is nearly
free; JAX's own dispatch is most of it (~8 us), and tf.function's call path and output tensors add
~3 us (1.4x JAX; the NumPy floor, ~2 us here, is the better choice for such a step).
`python -m bench.compile_times` reports the first call (trace + compile) of each next to the others.
"""
from __future__ import annotations

import numpy as np

from ..harness import Unavailable, Workload, ratio_at_most
from . import gelu, mlp, rnn

_TARGET = ratio_at_most(1.1, subject="eagerflow", baseline="jax")


def _jax():
    try:
        import jax
    except ImportError:
        raise Unavailable("JAX is not installed (pip install 'eagerflow[xla]')") from None
    jax.config.update("jax_enable_x64", True)  # as eagerflow's jit runs it (TensorFlow's int64/float64)
    # ...and synchronous CPU dispatch, as eagerflow runs it (TensorFlow's CPU mode): both variants
    # share one process, so they share one mode; this makes it the same one whichever starts first.
    jax.config.update("jax_cpu_enable_async_dispatch", False)
    return jax


def _framework(name):
    if name == "eagerflow":
        _jax()  # jit_compile=True needs it: skip the row rather than fail it
        import eagerflow as tf
    else:
        import tensorflow as tf
    return tf


# --- RNN: h = tanh(x_t Wx + h Wh + b), T = 100 -------------------------------------------------

def _rnn_jax_forward(p):
    jax = _jax()
    jnp = jax.numpy
    x, wx, wh, b = (jnp.asarray(p[k]) for k in ("x", "wx", "wh", "b"))

    @jax.jit
    def forward(x, wx, wh, b):
        def cell(h, xt):
            return jnp.tanh(xt @ wx + h @ wh + b), None
        return jax.lax.scan(cell, jnp.zeros((rnn.BATCH, rnn.HIDDEN), jnp.float32), x)[0]
    forward(x, wx, wh, b).block_until_ready()
    return lambda: forward(x, wx, wh, b).block_until_ready()


def _rnn_jax_forward_backward(p):
    jax = _jax()
    jnp = jax.numpy
    x, wx, wh, b = (jnp.asarray(p[k]) for k in ("x", "wx", "wh", "b"))

    def loss(wx, wh, b):
        def cell(h, xt):
            return jnp.tanh(xt @ wx + h @ wh + b), None
        return jnp.sum(jax.lax.scan(cell, jnp.zeros((rnn.BATCH, rnn.HIDDEN), jnp.float32), x)[0])
    step = jax.jit(jax.value_and_grad(loss, argnums=(0, 1, 2)))

    def run():
        value, grads = step(wx, wh, b)
        return jax.block_until_ready((value,) + tuple(grads))
    run()
    return run


def _cell_loop(tf, x, wx, wh, b):
    """rnn.py's loop, written here: AutoGraph converts the functions of the module it is called
    from, so the `for t in tf.range(T)` must be in this file to become a while_loop."""
    h = tf.zeros([rnn.BATCH, rnn.HIDDEN])
    for t in tf.range(rnn.T):
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh) + b)
    return h


def _compiled_loop(loop):
    """`make(framework)` for a loop over the RNN's constants (x, wx, wh, b), compiled whole."""
    def make(framework):
        def factory(p):
            tf = _framework(framework)
            x, wx, wh, b = (tf.constant(p[k]) for k in ("x", "wx", "wh", "b"))

            @tf.function(jit_compile=True)
            def run():
                return loop(tf, x, wx, wh, b)
            run()
            return run
        return factory
    return make


def _rnn_forward_backward(framework):
    def factory(p):
        tf = _framework(framework)
        x = tf.constant(p["x"])
        wx, wh, b = tf.Variable(p["wx"]), tf.Variable(p["wh"]), tf.Variable(p["b"])

        @tf.function(jit_compile=True)
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(_cell_loop(tf, x, wx, wh, b))
            gwx, gwh, gb = tape.gradient(loss, [wx, wh, b])
            return loss, gwx, gwh, gb
        step()
        return step
    return factory


# --- RNN states: every h_t of the same cell, collected in a tf.TensorArray (a TensorList) ---------

def _rnn_states_numpy(p):
    x, wx, wh, b = p["x"], p["wx"], p["wh"], p["b"]

    def run():
        h, hs = np.zeros((rnn.BATCH, rnn.HIDDEN), np.float32), []
        for t in range(rnn.T):
            h = np.tanh(x[t] @ wx + h @ wh + b)
            hs.append(h)
        return np.stack(hs)
    return run


def _rnn_states_jax(p):
    jax = _jax()
    jnp = jax.numpy
    x, wx, wh, b = (jnp.asarray(p[k]) for k in ("x", "wx", "wh", "b"))

    @jax.jit
    def states(x, wx, wh, b):
        def cell(h, xt):
            h = jnp.tanh(xt @ wx + h @ wh + b)
            return h, h
        return jax.lax.scan(cell, jnp.zeros((rnn.BATCH, rnn.HIDDEN), jnp.float32), x)[1]
    states(x, wx, wh, b).block_until_ready()
    return lambda: states(x, wx, wh, b).block_until_ready()


def _states_loop(tf, x, wx, wh, b):
    h = tf.zeros([rnn.BATCH, rnn.HIDDEN])
    states = tf.TensorArray(tf.float32, size=rnn.T)  # element shape from the first write
    for t in tf.range(rnn.T):
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh) + b)
        states = states.write(t, h)
    return states.stack()


# --- MLP step: 784-128-10, batch 32, loss and gradients -----------------------------------------

def _mlp_jax(p):
    jax = _jax()
    jnp = jax.numpy
    x, y = jnp.asarray(p["x"]), jnp.asarray(p["y"])
    params = [jnp.asarray(p[k]) for k in ("w1", "b1", "w2", "b2")]

    def loss_fn(w1, b1, w2, b2):
        h = jnp.maximum(x @ w1 + b1, 0.0)
        return jnp.mean(jnp.square(h @ w2 + b2 - y))
    step = jax.jit(jax.value_and_grad(loss_fn, argnums=(0, 1, 2, 3)))

    def run():
        loss, grads = step(*params)
        return jax.block_until_ready([loss] + list(grads))
    run()
    return run


def _mlp(framework):
    def factory(p):
        tf = _framework(framework)
        step = tf.function(mlp._tf_like(tf, p), jit_compile=True)  # the default-path workload's step, compiled
        step()
        return step
    return factory


# --- GELU on 4M float32 ------------------------------------------------------------------------

def _gelu_jax(p):
    jax = _jax()
    jnp = jax.numpy
    x = jnp.asarray(p["x"])
    gelu_fn = jax.jit(lambda x: 0.5 * x * (1.0 + jnp.tanh(gelu.C * (x + gelu.A * x ** 3))))
    gelu_fn(x).block_until_ready()
    return lambda: gelu_fn(x).block_until_ready()


def _gelu(framework):
    def factory(p):
        tf = _framework(framework)
        x = tf.constant(p["x"])

        @tf.function(jit_compile=True)
        def gelu_fn(x):
            return 0.5 * x * (1.0 + tf.tanh(gelu.C * (x + gelu.A * x ** 3)))
        gelu_fn(x)
        return lambda: gelu_fn(x)
    return factory


# --- one small step: an RNN cell on (8, 64), where the call itself is the cost ----------------

def _small_numpy(p):
    h, w = p["x"][0] @ p["wx"], p["wh"]
    return lambda: np.tanh(h @ w)


def _small_jax(p):
    jax = _jax()
    jnp = jax.numpy
    h, w = jnp.asarray(p["x"][0] @ p["wx"]), jnp.asarray(p["wh"])
    step = jax.jit(lambda h: jnp.tanh(h @ w))
    step(h).block_until_ready()
    return lambda: step(h).block_until_ready()


def _small(framework):
    def factory(p):
        tf = _framework(framework)
        h, w = tf.constant(p["x"][0] @ p["wx"]), tf.constant(p["wh"])

        @tf.function(jit_compile=True)
        def step(h):
            return tf.tanh(tf.matmul(h, w))
        step(h)
        return lambda: step(h)
    return factory


def _variants(numpy_factory, jax_factory, make):
    return {"numpy": numpy_factory, "jax": jax_factory, "eagerflow": make("eagerflow"),
            "tensorflow": make("tensorflow")}


WORKLOADS = [
    Workload(name="xla/rnn-forward", setup=rnn._setup,
             variants=_variants(rnn._numpy_forward, _rnn_jax_forward, _compiled_loop(_cell_loop)), target=_TARGET,
             rtol=1e-4, atol=1e-5, description="jit_compile=True: RNN T=100 forward vs jax.jit(lax.scan)"),
    Workload(name="xla/rnn-forward+backward", setup=rnn._setup,
             variants=_variants(rnn._numpy_forward_backward, _rnn_jax_forward_backward, _rnn_forward_backward),
             target=_TARGET, rtol=1e-3, atol=1e-4,
             description="jit_compile=True: RNN loss and grads vs jax.jit(value_and_grad(scan))"),
    Workload(name="xla/rnn-states-tensorarray", setup=rnn._setup,
             variants=_variants(_rnn_states_numpy, _rnn_states_jax, _compiled_loop(_states_loop)), target=_TARGET,
             rtol=1e-4, atol=1e-5, description="jit_compile=True: RNN T=100, every state in a tf.TensorArray, "
                                               "vs jax.jit(lax.scan) stacking them"),
    Workload(name="xla/mlp-step", setup=mlp._setup, variants=_variants(mlp._numpy, _mlp_jax, _mlp),
             target=_TARGET, rtol=1e-4, atol=1e-6,
             description="jit_compile=True: MLP 784-128-10 batch 32 loss+grads vs jax.jit(value_and_grad)"),
    Workload(name="xla/small-step", setup=rnn._setup, variants=_variants(_small_numpy, _small_jax, _small),
             rtol=1e-5, atol=1e-6,  # watched, no target: see the module docstring
             description="jit_compile=True: one RNN cell step on (8, 64): the cost of a compiled call"),
    Workload(name="xla/gelu-4M", setup=gelu._setup, variants=_variants(gelu._hand_tuned, _gelu_jax, _gelu),
             target=_TARGET, rtol=1e-5, atol=1e-6,
             description="jit_compile=True: GELU on 4M float32 vs jax.jit"),
]
