"""tf.saved_model.save and tf.saved_model.load of the Keras MNIST MLP and a small CNN, eagerflow against
TensorFlow 2.21 (through `--tf-python`). Target: eagerflow's save and load each at most TensorFlow's time.

Both frameworks build the same model with the same weights; `save` writes the SavedModel into a fresh
directory (eagerflow writes TensorFlow's layout and its own document), `load` reads the directory the
factory saved once. Each call returns the model's prediction on a fixed batch (the loaded model's
serving signature for `load`), so the frameworks' outputs can be compared; the NumPy floor writes or reads the
same weights with np.savez/np.load and computes the prediction itself."""
from __future__ import annotations

import itertools
import os
import shutil
import tempfile

import numpy as np

from ..harness import EAGERFLOW, TENSORFLOW, Target, Workload

_NO_SLOWER_THAN_TF = Target(max_ratio=1.0, subject=EAGERFLOW, baseline=TENSORFLOW)


def _setup_for(kind):
    def setup(quick):
        rng = np.random.default_rng(0)
        shape = (8, 28, 28) if kind == "mlp" else (8, 28, 28, 1)
        return {"x": rng.random(shape, dtype=np.float32), "seed": np.array(0)}
    return setup


def _model(keras, kind):
    L = keras.layers
    if kind == "mlp":
        layers = [keras.Input((28, 28)), L.Flatten(), L.Dense(128, activation="relu"), L.Dense(10)]
    else:
        layers = [keras.Input((28, 28, 1)), L.Conv2D(16, 3, activation="relu"), L.BatchNormalization(),
                  L.MaxPooling2D(), L.Flatten(), L.Dropout(0.2), L.Dense(10)]
    model = keras.Sequential(layers)
    model.set_weights(_weights([w.shape for w in model.get_weights()], kind))
    return model


def _weights(shapes, kind):
    """The same weights in every variant: normal(0, 0.1), BatchNormalization's moving variance made positive."""
    rng = np.random.default_rng(1)
    values = [rng.normal(scale=0.1, size=shape).astype(np.float32) for shape in shapes]
    if kind == "cnn":
        values[5] = np.abs(values[5]) + 0.5  # conv kernel, bias, gamma, beta, moving mean, moving variance
    return values


_SHAPES = {"mlp": [(784, 128), (128,), (128, 10), (10,)],
           "cnn": [(3, 3, 1, 16), (16,), (16,), (16,), (16,), (16,), (13 * 13 * 16, 10), (10,)]}


def _numpy_forward(weights, x, kind):
    if kind == "mlp":
        w1, b1, w2, b2 = weights
        return np.maximum(x.reshape(len(x), -1) @ w1 + b1, 0) @ w2 + b2
    k, b, gamma, beta, mean, var, w, c = weights
    n, h, wd, _ = x.shape
    y = sum(x[:, i:i + h - 2, j:j + wd - 2, :] @ k[i, j] for i in range(3) for j in range(3)) + b
    y = np.maximum(y, 0)
    y = (y - mean) / np.sqrt(var + 1e-3) * gamma + beta
    y = y[:, :26, :26].reshape(n, 13, 2, 13, 2, 16).max(axis=(2, 4))
    return y.reshape(n, -1) @ w + c


def _numpy_variant(kind, action):
    """The floor: the weights written with np.savez into a fresh folder (save) or read back with np.load (load),
    and the model's prediction computed in NumPy."""
    def factory(p):
        weights = _weights(_SHAPES[kind], kind)
        x = p["x"]
        root = tempfile.mkdtemp(prefix="bench_savedmodel_numpy_")
        counter = itertools.count()
        np.savez(f"{root}/weights.npz", *weights)

        def save():
            directory = f"{root}/save_{next(counter)}"
            os.makedirs(directory)
            np.savez(f"{directory}/weights.npz", *weights)
            shutil.rmtree(directory, ignore_errors=True)
            return _numpy_forward(weights, x, kind)

        def load():
            with np.load(f"{root}/weights.npz") as stored:
                loaded = [stored[f"arr_{i}"] for i in range(len(weights))]
            return _numpy_forward(loaded, x, kind)
        return save if action == "save" else load
    return factory


def _variant(framework, kind, action):
    def factory(p):
        if framework == EAGERFLOW:
            import eagerflow as tf
            from eagerflow import keras
        else:
            import tensorflow as tf
            keras = tf.keras
        model = _model(keras, kind)
        x = tf.constant(p["x"])
        root = tempfile.mkdtemp(prefix="bench_savedmodel_")
        counter = itertools.count()
        saved = f"{root}/model"
        tf.saved_model.save(model, saved)

        def save():
            directory = f"{root}/save_{next(counter)}"
            tf.saved_model.save(model, directory)
            shutil.rmtree(directory, ignore_errors=True)
            return model(x)

        def load():
            return tf.saved_model.load(saved).signatures["serving_default"](inputs=x)["output_0"]
        return save if action == "save" else load
    return factory


WORKLOADS = [
    Workload(name=f"savedmodel/{kind} {action}", setup=_setup_for(kind),
             description=f"tf.saved_model.{action} of the {'MNIST MLP' if kind == 'mlp' else 'small CNN'}",
             variants={"numpy": _numpy_variant(kind, action), EAGERFLOW: _variant(EAGERFLOW, kind, action),
                       TENSORFLOW: _variant(TENSORFLOW, kind, action)},
             target=_NO_SLOWER_THAN_TF, rtol=1e-4, atol=1e-5)
    for kind in ("mlp", "cnn") for action in ("save", "load")
]
