"""A small eager MLP training step's math: forward + backward with GradientTape.

Batch 32, 784 -> 128 (ReLU) -> 10, mean squared error against one-hot labels. The NumPy floor is
the same forward and backward written by hand, so the ratio is what the tape, the gradient rules
and op dispatch cost on a realistic small model. No target: this row is watched, not gated.

Why MSE and `maximum(z, 0)`: they use only the core ops every framework (and every stage of
eagerflow) has; a softmax cross-entropy would add kernels, not dispatch, to the comparison.
Each variant returns (loss, dW1, db1, dW2, db2), which must match NumPy's.
"""
from __future__ import annotations

import numpy as np

from ..harness import Workload

BATCH, IN, HIDDEN, OUT = 32, 784, 128, 10


def _setup(quick: bool):
    rng = np.random.default_rng(0)
    f32 = np.float32
    return {
        "x": rng.random((BATCH, IN), dtype=f32),
        "y": np.eye(OUT, dtype=f32)[rng.integers(0, OUT, BATCH)],
        "w1": (rng.standard_normal((IN, HIDDEN)) * np.sqrt(2.0 / IN)).astype(f32),
        "b1": np.zeros(HIDDEN, f32),
        "w2": (rng.standard_normal((HIDDEN, OUT)) * np.sqrt(2.0 / HIDDEN)).astype(f32),
        "b2": np.zeros(OUT, f32),
    }


def _numpy(p):
    x, y, w1, b1, w2, b2 = (p[k] for k in ("x", "y", "w1", "b1", "w2", "b2"))
    scale = np.float32(2.0 / y.size)

    def step():
        z = x @ w1 + b1
        h = np.maximum(z, np.float32(0))
        logits = h @ w2 + b2
        diff = logits - y
        loss = np.mean(np.square(diff))
        d_logits = diff * scale
        d_h = d_logits @ w2.T
        d_z = d_h * (z > 0)
        return loss, x.T @ d_z, d_z.sum(axis=0), h.T @ d_logits, d_logits.sum(axis=0)
    return step


def _tf_like(tf, p):
    """eagerflow and TensorFlow run the very same program: that is the point of eagerflow."""
    x, y = tf.constant(p["x"]), tf.constant(p["y"])
    params = [tf.Variable(p[k]) for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params

    def step():
        with tf.GradientTape() as tape:
            h = tf.maximum(tf.matmul(x, w1) + b1, 0.0)
            logits = tf.matmul(h, w2) + b2
            loss = tf.reduce_mean(tf.square(logits - y))
        return [loss] + tape.gradient(loss, params)
    return step


def _eagerflow(p):
    import eagerflow as tf
    return _tf_like(tf, p)


def _tensorflow(p):
    import tensorflow as tf
    return _tf_like(tf, p)


def _torch(p):
    import torch
    x, y = torch.from_numpy(p["x"]), torch.from_numpy(p["y"])
    params = [torch.tensor(p[k], requires_grad=True) for k in ("w1", "b1", "w2", "b2")]
    w1, b1, w2, b2 = params

    def step():
        h = torch.clamp_min(x @ w1 + b1, 0.0)
        loss = torch.mean(torch.square(h @ w2 + b2 - y))
        return [loss] + list(torch.autograd.grad(loss, params))
    return step


def _jax(p):
    import jax
    import jax.numpy as jnp
    x, y = jnp.asarray(p["x"]), jnp.asarray(p["y"])
    params = [jnp.asarray(p[k]) for k in ("w1", "b1", "w2", "b2")]

    def loss_fn(w1, b1, w2, b2):
        h = jnp.maximum(x @ w1 + b1, 0.0)
        return jnp.mean(jnp.square(h @ w2 + b2 - y))
    grad_fn = jax.value_and_grad(loss_fn, argnums=(0, 1, 2, 3))  # op-by-op, not jitted: eager vs eager

    def step():
        loss, grads = grad_fn(*params)
        return jax.block_until_ready([loss] + list(grads))
    return step


WORKLOADS = [
    Workload(name="mlp/fwd+bwd", setup=_setup, description="eager MLP 784-128-10, batch 32, forward+backward",
             variants={"numpy": _numpy, "eagerflow": _eagerflow, "tensorflow": _tensorflow,
                       "torch": _torch, "jax": _jax},
             rtol=1e-4, atol=1e-6),
]
