"""evaluate/fit call a user's compute_loss as its signature allows; compile() under mixed_float16
wraps the optimizer in LossScaleOptimizer; ModelCheckpoint makes its folder. Recorded from Keras
3.15.1 on TensorFlow 2.21 with the same weights."""
import os

import numpy as np
import pytest

from eagerflow import keras

X = np.arange(12, dtype="float32").reshape(4, 3) / 10
Y = np.arange(4, dtype="float32").reshape(4, 1)


def set_weights(model, seed=0):
    rng = np.random.default_rng(seed)
    for w in model.weights:
        w.assign(rng.normal(size=w.shape).astype("float32") * 0.5)


class DoubledLoss(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.seen = []

    def call(self, x):
        return self.dense(x)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        self.seen.append(training)
        return super().compute_loss(x, y, y_pred, sample_weight, training) * 2.0


class OldSignature(DoubledLoss):
    def compute_loss(self, x, y, y_pred, sample_weight):  # written before Keras 3.3: no `training`
        self.seen.append("old")
        return keras.ops.mean((y - y_pred) ** 2) + 1.0


@pytest.mark.parametrize("cls, evaluated, fitted, seen", [
    (DoubledLoss, 5.159351348876953, [5.159351348876953, 0.7251497507095337], [False, True, True]),
    (OldSignature, 3.5796756744384766, [3.5796756744384766, 2.077040195465088], ["old", "old", "old"]),
])
def test_evaluate_and_fit_call_the_compute_loss_override(cls, evaluated, fitted, seen):
    model = cls()
    model(X)
    set_weights(model)
    model.compile(keras.optimizers.SGD(0.1), "mse", run_eagerly=True)
    np.testing.assert_allclose(model.evaluate(X, Y, batch_size=4, verbose=0), evaluated, rtol=1e-5)
    history = model.fit(X, Y, batch_size=4, epochs=2, verbose=0)
    np.testing.assert_allclose(history.history["loss"], fitted, rtol=1e-5)
    assert model.seen[:3] == seen


def test_the_override_is_called_in_a_compiled_evaluate_too():
    model = OldSignature()
    model(X)
    set_weights(model)
    model.compile(keras.optimizers.SGD(0.1), "mse")
    np.testing.assert_allclose(model.evaluate(X, Y, batch_size=4, verbose=0), 3.5796756744384766, rtol=1e-5)


@pytest.fixture
def mixed_float16():
    keras.mixed_precision.set_global_policy("mixed_float16")
    yield
    keras.mixed_precision.set_global_policy(None)


def small_mixed_model():
    inp = keras.Input((3,))
    h = keras.layers.Dense(4, activation="relu")(inp)
    model = keras.Model(inp, keras.layers.Dense(1, dtype="float32")(h))
    set_weights(model)
    return model


def test_mixed_float16_compile_wraps_the_optimizer(mixed_float16):
    model = small_mixed_model()
    model.compile(keras.optimizers.SGD(0.1), "mse")
    opt = model.optimizer
    assert type(opt).__name__ == "LossScaleOptimizer" and opt.name == "loss_scale_optimizer"
    assert isinstance(opt, keras.optimizers.LossScaleOptimizer)
    assert type(opt.inner_optimizer).__name__ == "SGD"
    assert (opt.initial_scale, opt.dynamic_growth_steps) == (32768.0, 2000)
    config = opt.get_config()
    assert config["name"] == "loss_scale_optimizer" and config["inner_optimizer"]["class_name"] == "SGD"
    assert (config["initial_scale"], config["dynamic_growth_steps"]) == (32768.0, 2000)
    # the compile config records the optimizer as given, as Keras does (its dict as Keras 3.15 wrote it)
    recorded = model.get_compile_config()["optimizer"]
    recorded["config"].pop("name")  # "sgd" in a fresh process
    assert recorded == {
        "module": "keras.optimizers", "class_name": "SGD",
        "config": {"learning_rate": 0.10000000149011612, "weight_decay": None, "clipnorm": None,
                   "global_clipnorm": None, "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                   "ema_overwrite_frequency": None, "loss_scale_factor": None, "gradient_accumulation_steps": None,
                   "momentum": 0.0, "nesterov": False},
        "registered_name": None}
    history = model.fit(X, Y, batch_size=2, epochs=2, verbose=0, shuffle=False)
    # the first step's scaled loss overflows float16: that step is skipped and the scale halved
    np.testing.assert_allclose(history.history["loss"], [3.2728891372680664, 3.002819299697876], rtol=1e-3)
    assert float(opt.dynamic_scale.numpy()) == 16384.0
    assert int(opt.step_counter.numpy()) == 2 and int(opt.iterations.numpy()) == 3
    np.testing.assert_allclose(model.weights[1].numpy(), [-1.16251540184021, -0.109395831823349,
                                                          -0.6229555010795593, -0.12511806190013885], rtol=1e-3)
    paths = [v.path for v in opt.variables]
    assert paths[:4] == ["loss_scale_optimizer/iteration", "loss_scale_optimizer/learning_rate",
                         "loss_scale_optimizer/step_counter", "loss_scale_optimizer/dynamic_scale"]
    inner = opt.inner_optimizer.name  # "sgd" in a fresh process
    assert paths[4:] == [f"{inner}/iteration", f"{inner}/learning_rate"]


def test_mixed_float16_compile_leaves_a_given_loss_scale_optimizer_and_auto_scale_loss_false(mixed_float16):
    model = small_mixed_model()
    model.compile("adam", "mse")
    assert type(model.optimizer.inner_optimizer).__name__ == "Adam"
    model.compile(keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD()), "mse")
    assert type(model.optimizer.inner_optimizer).__name__ == "SGD"
    model.compile("sgd", "mse", auto_scale_loss=False)
    assert type(model.optimizer).__name__ == "SGD"


def test_mixed_bfloat16_compile_does_not_wrap():
    keras.mixed_precision.set_global_policy("mixed_bfloat16")
    try:
        model = small_mixed_model()
        model.compile("sgd", "mse")
    finally:
        keras.mixed_precision.set_global_policy(None)
    assert type(model.optimizer).__name__ == "SGD"


def test_model_checkpoint_makes_its_folder_as_keras_does(tmp_path):
    inp = keras.Input((3,))
    model = keras.Model(inp, keras.layers.Dense(1)(inp))
    model.compile("sgd", "mse")
    checkpoints = [keras.callbacks.ModelCheckpoint(str(tmp_path / "c/d/m.keras")),
                   keras.callbacks.ModelCheckpoint(str(tmp_path / "w/z/m.weights.h5"), save_weights_only=True),
                   keras.callbacks.BackupAndRestore(str(tmp_path / "g/h"))]
    model.fit(X, Y, epochs=1, verbose=0, callbacks=checkpoints)
    assert os.path.exists(tmp_path / "c/d/m.keras") and os.path.exists(tmp_path / "w/z/m.weights.h5")
    # Keras 3 itself does not make folders for save_weights, save or CSVLogger: FileNotFoundError there
    with pytest.raises(FileNotFoundError):
        model.save_weights(str(tmp_path / "a/b/w.weights.h5"))
    with pytest.raises(FileNotFoundError):
        model.save(str(tmp_path / "x/y/m.keras"))
    with pytest.raises(FileNotFoundError):
        model.fit(X, Y, epochs=1, verbose=0, callbacks=[keras.callbacks.CSVLogger(str(tmp_path / "e/f/log.csv"))])
