"""tf.saved_model.save and tf.saved_model.load of the Keras MNIST MLP and a small CNN, eagerflow against
TensorFlow 2.21 (through `--tf-python`). Target: eagerflow's save and load each at most TensorFlow's time.

Both frameworks build the same model with the same weights; `save` writes the SavedModel into a fresh
directory (eagerflow writes TensorFlow's layout and its own document), `load` reads the directory the
factory saved once. Each call returns the model's prediction on a fixed batch (the loaded model's
serving signature for `load`), so the two frameworks' outputs can be compared."""
from __future__ import annotations

import itertools
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
    rng = np.random.default_rng(1)
    model.set_weights([rng.normal(scale=0.1, size=w.shape).astype(np.float32) for w in model.get_weights()])
    return model


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
             variants={EAGERFLOW: _variant(EAGERFLOW, kind, action), TENSORFLOW: _variant(TENSORFLOW, kind, action)},
             target=_NO_SLOWER_THAN_TF, rtol=1e-5, atol=1e-6)
    for kind in ("mlp", "cnn") for action in ("save", "load")
]
