"""Keras models and their optimizers in TensorFlow's checkpoints, both ways: a checkpoint TensorFlow 2.21 (Keras 3)
writes with `tf.train.Checkpoint(model=..., optimizer=...)` after a training step restores into the same model
built in eagerflow (weights at once, the optimizer's slots when it builds), with the same keys eagerflow writes
for that model; and what eagerflow writes restores in TensorFlow."""
import json
import textwrap

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

# Each builds a compiled model from `keras` and returns (model, x, y); run by both sides as the same source.
MODELS = {
    "mlp": """
        model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="relu"),
                                  keras.layers.Dense(4, activation="softmax")])
        x = rng.random((6, 8)).astype("float32"); y = rng.random((6, 4)).astype("float32")
    """,
    "cnn": """
        model = keras.Sequential([keras.Input((6, 6, 1)), keras.layers.Conv2D(3, 3, activation="relu"),
                                  keras.layers.BatchNormalization(), keras.layers.Dropout(0.25),
                                  keras.layers.Flatten(), keras.layers.Dense(2)])
        x = rng.random((6, 6, 6, 1)).astype("float32"); y = rng.random((6, 2)).astype("float32")
    """,
    "text": """
        model = keras.Sequential([keras.Input((5,), dtype="int32"), keras.layers.Embedding(20, 4),
                                  keras.layers.LSTM(3), keras.layers.Dense(1)])
        x = rng.integers(0, 20, (6, 5)).astype("int32"); y = rng.random((6, 1)).astype("float32")
    """,
    "subclassed": """
        class Blocks(keras.Model):
            def __init__(self):
                super().__init__()
                self.d1 = keras.layers.Dense(3, activation="relu")
                self.blocks = [keras.layers.Dense(2), keras.layers.BatchNormalization()]  # a list: Keras 3 does
                                                                                          # not track it
            def call(self, x):
                x = self.d1(x)
                for block in self.blocks:
                    x = block(x)
                return x
        model = Blocks()
        x = rng.random((6, 4)).astype("float32"); y = rng.random((6, 2)).astype("float32")
        model(x[:1])
    """,
    "two_inputs": """
        a = keras.Input((3,), name="a"); b = keras.Input((2,), name="b")
        h = keras.layers.Dense(4, name="h")(a)
        joined = keras.layers.Concatenate()([h, b])
        model = keras.Model([a, b], {"y": keras.layers.Dense(1, name="y")(joined),
                                     "z": keras.layers.Dense(2, name="z")(h)})
        x = [rng.random((6, 3)).astype("float32"), rng.random((6, 2)).astype("float32")]
        y = {"y": rng.random((6, 1)).astype("float32"), "z": rng.random((6, 2)).astype("float32")}
    """,
}


def _build(source, seed=0):
    rng = np.random.default_rng(seed)
    scope = {"keras": keras, "rng": rng}
    exec(textwrap.dedent(source), scope)
    model = scope["model"]
    model.compile(keras.optimizers.Adam(0.01), "mse")
    return model, scope["x"], scope["y"]


TF_PREAMBLE = """
    import json, textwrap
    import numpy as np
    import tensorflow as tf
    import keras
    def build(source, seed=0):
        rng = np.random.default_rng(seed)
        scope = {"keras": keras, "rng": rng}
        exec(textwrap.dedent(source), scope)
        model = scope["model"]
        model.compile(keras.optimizers.Adam(0.01), "mse")
        return model, scope["x"], scope["y"]
    def values(variables):
        return [np.asarray(v.numpy(), np.float64).tolist() for v in variables]
"""


def _values(variables):
    return [np.asarray(v.numpy(), np.float64) for v in variables]


def _assert_same(ours, theirs, what):
    assert len(ours) == len(theirs), what
    for i, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a, np.asarray(b, np.float64).reshape(a.shape), rtol=1e-6, atol=0, err_msg=f"{what} {i}")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_keras_checkpoints_go_both_ways(tmp_path, run_tf, name):
    """One TensorFlow process per model: it restores what eagerflow wrote, then writes its own checkpoint, which
    eagerflow restores."""
    ours_model, x, y = _build(MODELS[name])
    ours_model.fit(x, y, epochs=2, batch_size=3, verbose=0)
    ours = tf.train.Checkpoint(model=ours_model, optimizer=ours_model.optimizer).write(str(tmp_path / "ours"))
    answer = run_tf(TF_PREAMBLE + f"""
    model, x, y = build({MODELS[name]!r}, seed=1)
    status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).read("ours")
    model.optimizer.build(model.trainable_variables)
    if {name == "subclassed"}:  # Keras 3 restores no layer of a list: those reached only through the optimizer
        status.expect_partial()
        restored = values(model.d1.weights)
    else:
        status.assert_consumed()
        restored = values(model.weights)
    restored_optimizer = values(model.optimizer.variables)

    model, x, y = build({MODELS[name]!r})
    model.fit(x, y, epochs=2, batch_size=3, verbose=0)
    tf.train.Checkpoint(model=model, optimizer=model.optimizer).write("theirs")
    print(json.dumps({{"restored": restored, "restored_optimizer": restored_optimizer,
                      "weights": values(model.weights), "optimizer": values(model.optimizer.variables),
                      "trainable": values(model.trainable_weights),
                      "keys": [k for k, _ in tf.train.list_variables("theirs")]}}))
    """)
    # TensorFlow restored eagerflow's values
    _assert_same(_values(ours_model.d1.weights if name == "subclassed" else ours_model.weights),
                 answer["restored"], "weight TensorFlow restored")
    _assert_same(_values(ours_model.optimizer.variables), answer["restored_optimizer"],
                 "optimizer variable TensorFlow restored")
    # eagerflow names every value as TensorFlow does
    assert [key for key, _ in tf.train.list_variables(ours)] == answer["keys"]
    # eagerflow restores TensorFlow's values
    model, x, y = _build(MODELS[name], seed=1)
    status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).read(str(tmp_path / "theirs"))
    if name != "subclassed":  # Keras 3 reaches the weights of a list of layers only through the optimizer
        status.assert_existing_objects_matched()
        _assert_same(_values(model.weights), answer["weights"], "weight")
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\)\.optimizer\._variables\.2"):
        status.assert_consumed()  # the slots wait for the optimizer to build
    model.optimizer.build(model.trainable_variables)
    _assert_same(_values(model.optimizer.variables), answer["optimizer"], "optimizer variable")
    _assert_same(_values(model.trainable_weights), answer["trainable"], "trainable weight")
    status.assert_consumed()


def test_a_lazily_built_model_takes_its_values_when_it_builds(tmp_path, run_tf):
    answer = run_tf(TF_PREAMBLE + """
    model = keras.Sequential([keras.layers.Dense(3, activation="tanh"), keras.layers.Dense(1)])
    model(np.ones((1, 2), "float32"))
    tf.train.Checkpoint(model=model).write("theirs")
    print(json.dumps(values(model.weights)))
    """)
    model = keras.Sequential([keras.layers.Dense(3, activation="tanh"), keras.layers.Dense(1)])
    status = tf.train.Checkpoint(model=model).read(str(tmp_path / "theirs"))
    assert model.weights == []
    model(np.ones((1, 2), "float32"))
    _assert_same(_values(model.weights), answer, "weight")
    status.assert_consumed()
