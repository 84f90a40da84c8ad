"""A small Keras CNN under tf.function, forward and training step, at batch 1, 8 and 32.

Conv2D(16, 3, relu) -> MaxPooling2D -> Conv2D(32, 3, relu) -> GlobalAveragePooling2D -> Dense(10) on
28x28x1 images. The rows at three batch sizes watch how the time grows with the batch: per sample it
should fall or stay flat. It once rose 300 times from batch 1 to batch 8, because each
convolution was one large matmul that the multi-threaded BLAS split over worker threads, and on a
busy machine every such call waited a scheduler slice for them (ops/nn/window_matmul.py). Run it
with `--threads 0` to see the library defaults (the suite pins one thread by default).

The NumPy floor is the same network written by hand: im2col matmuls, a reshape-max pooling, and
for the step the backward pass, returning the loss and the six gradients (Keras' variable order).
Max pooling's gradient goes to the window's maximum; a tie within a 2x2 window (ReLU zeros) is
multiplied by the ReLU mask, which is zero there, so tie-breaking never shows. No target: watched.
"""
from __future__ import annotations

import numpy as np

from ..harness import Workload

SIZE, C1, C2, CLASSES = 28, 16, 32, 10
BATCHES = (1, 8, 32)


def _setup_for(batch):
    def setup(quick: bool):
        rng = np.random.default_rng(batch)
        f32 = np.float32
        return {
            "x": rng.random((batch, SIZE, SIZE, 1), dtype=f32),
            "y": np.eye(CLASSES, dtype=f32)[rng.integers(0, CLASSES, batch)],
            "k1": (rng.standard_normal((3, 3, 1, C1)) * np.sqrt(2 / 9)).astype(f32),
            "b1": (rng.standard_normal(C1) * 0.1).astype(f32),
            "k2": (rng.standard_normal((3, 3, C1, C2)) * np.sqrt(2 / (9 * C1))).astype(f32),
            "b2": (rng.standard_normal(C2) * 0.1).astype(f32),
            "wd": (rng.standard_normal((C2, CLASSES)) * np.sqrt(1 / C2)).astype(f32),
            "bd": np.zeros(CLASSES, f32),
        }
    return setup


_WEIGHTS = ("k1", "b1", "k2", "b2", "wd", "bd")


def _columns(x):
    """[N, H - 2, W - 2, 3 * 3 * C] rows of 3x3 VALID windows (a copy)."""
    n, h, w, c = x.shape
    view = np.lib.stride_tricks.as_strided(x, (n, h - 2, w - 2, 3, 3, c), x.strides[:3] + x.strides[1:])
    return view.reshape(n, h - 2, w - 2, 9 * c)


def _forward(p, x):
    n = x.shape[0]
    cols1 = _columns(x)
    z1 = cols1 @ p["k1"].reshape(-1, C1) + p["b1"]
    h1 = np.maximum(z1, np.float32(0))
    p1 = h1.reshape(n, 13, 2, 13, 2, C1).max(axis=(2, 4))
    cols2 = _columns(p1)
    z2 = cols2 @ p["k2"].reshape(-1, C2) + p["b2"]
    h2 = np.maximum(z2, np.float32(0))
    g = h2.mean(axis=(1, 2))
    return g @ p["wd"] + p["bd"], (cols1, z1, h1, p1, cols2, z2, g)


def _numpy_forward(p):
    return lambda: _forward(p, p["x"])[0]


def _numpy_step(p):
    x, y = p["x"], p["y"]

    def step():
        n = x.shape[0]
        logits, (cols1, z1, h1, p1, cols2, z2, g) = _forward(p, x)
        diff = logits - y
        loss = np.mean(np.square(diff))
        d_logits = diff * np.float32(2 / y.size)
        d_wd, d_bd = g.T @ d_logits, d_logits.sum(axis=0)
        d_z2 = np.broadcast_to((d_logits @ p["wd"].T)[:, None, None, :] / np.float32(11 * 11), z2.shape) * (z2 > 0)
        d_k2 = (cols2.reshape(-1, 9 * C1).T @ d_z2.reshape(-1, C2)).reshape(3, 3, C1, C2)
        d_cols2 = (d_z2.reshape(-1, C2) @ p["k2"].reshape(-1, C2).T).reshape(n, 11, 11, 3, 3, C1)
        d_p1 = np.zeros_like(p1)
        for i in range(3):
            for j in range(3):
                d_p1[:, i:i + 11, j:j + 11, :] += d_cols2[:, :, :, i, j, :]
        upsample = lambda a: a.repeat(2, axis=1).repeat(2, axis=2)  # noqa: E731
        d_z1 = (h1 == upsample(p1)) * upsample(d_p1) * (z1 > 0)
        d_k1 = (cols1.reshape(-1, 9).T @ d_z1.reshape(-1, C1)).reshape(3, 3, 1, C1)
        return [loss, d_k1, d_z1.sum(axis=(0, 1, 2)), d_k2, d_z2.sum(axis=(0, 1, 2)), d_wd, d_bd]
    return step


def _model(tf, keras, p):
    L = keras.layers
    m = keras.Sequential([keras.Input((SIZE, SIZE, 1)), L.Conv2D(C1, 3, activation="relu"), L.MaxPooling2D(),
                          L.Conv2D(C2, 3, activation="relu"), L.GlobalAveragePooling2D(), L.Dense(CLASSES)])
    m.set_weights([p[k] for k in _WEIGHTS])
    return m


def _forward_variant(tf, keras, p, function=True):
    m = _model(tf, keras, p)
    x = tf.constant(p["x"])
    call = tf.function(lambda v: m(v)) if function else m
    return lambda: call(x)


def _step_variant(tf, keras, p):
    """The gradients of one training step (no optimizer update, so every call computes the same)."""
    m = _model(tf, keras, p)
    x, y = tf.constant(p["x"]), tf.constant(p["y"])

    @tf.function
    def step(v, t):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(m(v) - t))
        return [loss] + tape.gradient(loss, m.trainable_variables)
    return lambda: step(x, y)


def _eagerflow(kind):
    def factory(p):
        import eagerflow as tf
        from eagerflow import keras
        return _step_variant(tf, keras, p) if kind == "step" else _forward_variant(tf, keras, p, kind == "fwd")
    return factory


def _tensorflow(kind):
    def factory(p):
        import tensorflow as tf
        import keras
        return _step_variant(tf, keras, p) if kind == "step" else _forward_variant(tf, keras, p, kind == "fwd")
    return factory


WORKLOADS = [
    Workload(name=f"cnn/fwd-b{b}", setup=_setup_for(b), description=f"small Keras CNN forward, tf.function, batch {b}",
             variants={"numpy": _numpy_forward, "eagerflow": _eagerflow("fwd"),
                       "eagerflow-eager": _eagerflow("eager"), "tensorflow": _tensorflow("fwd")},
             rtol=1e-4, atol=1e-5)
    for b in BATCHES
] + [
    Workload(name=f"cnn/step-b{b}", setup=_setup_for(b),
             description=f"small Keras CNN loss and gradients, tf.function, batch {b}",
             variants={"numpy": _numpy_step, "eagerflow": _eagerflow("step"), "tensorflow": _tensorflow("step")},
             rtol=1e-4, atol=1e-5)
    for b in BATCHES
]
