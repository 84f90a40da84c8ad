"""Keras' legacy HDF5 model file (`model.save("m.h5")`, `keras.models.load_model("m.h5")`): the layout Keras
3.15.1 writes (recorded below from its file for the same model), a round trip with the optimizer state, Keras'
messages for weights that do not fit (recorded from Keras 3.15.1), and the file named in every error."""
import json
import logging
import sys

import numpy as np
import pytest

from eagerflow import keras

h5py = pytest.importorskip("h5py")

# Keras 3.15.1's m.h5 for _model() compiled with Adam and trained one step: datasets and their shapes.
KERAS_DATASETS = {
    "model_weights/batch_normalization/seq/batch_normalization/beta": (4,),
    "model_weights/batch_normalization/seq/batch_normalization/gamma": (4,),
    "model_weights/batch_normalization/seq/batch_normalization/moving_mean": (4,),
    "model_weights/batch_normalization/seq/batch_normalization/moving_variance": (4,),
    "model_weights/d0/seq/d0/bias": (4,), "model_weights/d0/seq/d0/kernel": (3, 4),
    "model_weights/d1/seq/d1/bias": (2,), "model_weights/d1/seq/d1/kernel": (4, 2),
    "optimizer_weights/adam/iteration": (), "optimizer_weights/adam/learning_rate": (),
    **{f"optimizer_weights/adam/seq_{var}_{slot}": shape for var, shape in (
        ("batch_normalization_beta", (4,)), ("batch_normalization_gamma", (4,)), ("d0_bias", (4,)),
        ("d0_kernel", (3, 4)), ("d1_bias", (2,)), ("d1_kernel", (4, 2))) for slot in ("momentum", "velocity")},
}
KERAS_BN_WEIGHT_NAMES = ["seq/batch_normalization/gamma", "seq/batch_normalization/beta",
                         "seq/batch_normalization/moving_mean", "seq/batch_normalization/moving_variance"]
KERAS_OPTIMIZER_NAMES_START = ["adam/iteration", "adam/learning_rate", "adam/seq_d0_kernel_momentum",
                               "adam/seq_d0_kernel_velocity"]
KERAS_WARNING = ("You are saving your model as an HDF5 file via `model.save()` or `keras.saving.save_model(model)`. "
                 "This file format is considered legacy. We recommend using instead the native Keras format, e.g. "
                 "`model.save('my_model.keras')` or `keras.saving.save_model(model, 'my_model.keras')`. ")


def _model():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu", name="d0"),
                             keras.layers.BatchNormalization(name="batch_normalization"),
                             keras.layers.Dense(2, name="d1")], name="seq")


def _trained():
    model = _model()
    model.compile(optimizer=keras.optimizers.Adam(name="adam"), loss="mse", metrics=["mae"])
    model.fit(np.ones((8, 3), np.float32), np.ones((8, 2), np.float32), verbose=0, epochs=1)
    return model


def _datasets(path):
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda n, o: out.__setitem__(n, o.shape) if isinstance(o, h5py.Dataset) else None)
    return out


def test_the_file_has_keras_layout_and_warns_as_keras(tmp_path, caplog):
    model = _trained()
    with caplog.at_level(logging.WARNING, logger="absl"):
        model.save(tmp_path / "m.h5")
    assert [r.getMessage() for r in caplog.records if r.name == "absl"] == [KERAS_WARNING]
    assert _datasets(tmp_path / "m.h5") == KERAS_DATASETS
    with h5py.File(tmp_path / "m.h5", "r") as f:
        assert sorted(f.attrs) == ["backend", "keras_version", "model_config", "training_config"]
        assert json.loads(f.attrs["model_config"])["class_name"] == "Sequential"
        training = json.loads(f.attrs["training_config"])
        assert training["loss"] == "mse" and training["optimizer_config"]["class_name"] == "Adam"
        assert "optimizer" not in training
        weights = f["model_weights"]
        assert [n.decode() for n in weights.attrs["layer_names"]] == ["d0", "batch_normalization", "d1"]
        assert [n.decode() for n in weights["batch_normalization"].attrs["weight_names"]] == KERAS_BN_WEIGHT_NAMES
        assert len(weights["top_level_model_weights"].attrs["weight_names"]) == 0
        names = [n.decode() for n in f["optimizer_weights"].attrs["weight_names"]]
        assert names[:4] == KERAS_OPTIMIZER_NAMES_START and len(names) == 14


def test_a_round_trip_gives_the_same_model_and_optimizer(tmp_path):
    model = _trained()
    model.save(tmp_path / "m.h5")
    loaded = keras.models.load_model(tmp_path / "m.h5")
    x = np.random.default_rng(0).random((5, 3)).astype(np.float32)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert int(loaded.optimizer.iterations) == 1
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables, strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    bare = keras.models.load_model(tmp_path / "m.h5", compile=False)
    assert not bare.compiled
    model.save(tmp_path / "w.h5", include_optimizer=False)
    with h5py.File(tmp_path / "w.h5", "r") as f:
        assert "optimizer_weights" not in f and "training_config" not in f.attrs


def _saved(tmp_path):
    _model().save(tmp_path / "a.h5")
    return tmp_path / "a.h5"


@pytest.mark.parametrize("other, message", [  # Keras 3.15.1's messages for these models
    (lambda: keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d0"), keras.layers.BatchNormalization(),
                               keras.layers.Dense(5, name="d1")], name="seq"),
     "Shape mismatch in layer #2 (named d1)for weight seq/d1/kernel. Weight expects shape (4, 5). Received saved "
     "weight with shape (4, 2)"),
    (lambda: keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d0"), keras.layers.BatchNormalization(),
                               keras.layers.Dense(2, name="d1", use_bias=False)], name="seq"),
     "Weight count mismatch for layer #2 (named d1 in the current model, d1 in the save file). Layer expects 1 "
     "weight(s). Received 2 saved weight(s)"),
    (lambda: keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)]),
     "Layer count mismatch when loading weights from file. Model expected 1 layers, found 3 saved layers."),
])
def test_weights_that_do_not_fit_fail_with_keras_words_and_change_nothing(tmp_path, other, message):
    path = _saved(tmp_path)
    model = other()
    before = model.get_weights()
    with pytest.raises(ValueError) as info:
        model.load_weights(path)
    assert str(info.value) == f"Cannot load the weights file {path}: {message}"
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), before))


def test_skip_mismatch_skips_each_weight_that_does_not_fit(tmp_path):
    path = _saved(tmp_path)
    source = keras.models.load_model(path)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d0"), keras.layers.BatchNormalization(),
                              keras.layers.Dense(5, name="d1")], name="seq")
    before = model.get_weights()
    with pytest.warns(UserWarning) as caught:
        model.load_weights(path, skip_mismatch=True)
    assert [str(w.message) for w in caught] == [  # Keras 3.15.1's warnings
        "Skipping loading weights for layer #2 (named d1)due to mismatch in shape for weight seq/d1/kernel. Weight "
        "expects shape (4, 5). Received saved weight with shape (4, 2)",
        "Skipping loading weights for layer #2 (named d1)due to mismatch in shape for weight seq/d1/bias. Weight "
        "expects shape (5,). Received saved weight with shape (2,)"]
    got = model.get_weights()
    assert all(np.array_equal(a, b) for a, b in zip(got[:6], source.get_weights()[:6]))
    assert all(np.array_equal(a, b) for a, b in zip(got[6:], before[6:]))


def test_bad_files_name_themselves(tmp_path, monkeypatch):
    with h5py.File(tmp_path / "noconf.h5", "w") as f:
        f.create_group("model_weights")
    with pytest.raises(ValueError, match=f"^No model config found in the file at {tmp_path / 'noconf.h5'}.$"):
        keras.models.load_model(tmp_path / "noconf.h5")
    with h5py.File(tmp_path / "badjson.h5", "w") as f:
        f.attrs["model_config"] = b"{not json"
    with pytest.raises(ValueError, match="Cannot load the legacy HDF5 file .*badjson.h5: its model_config attribute "
                                         "is not valid JSON"):
        keras.models.load_model(tmp_path / "badjson.h5")
    path = _saved(tmp_path)
    (tmp_path / "secret.h5").write_bytes(path.read_bytes())
    with h5py.File(path, "a") as f:  # a weight that would pull its bytes from another file
        del f["model_weights/d0/seq/d0/kernel"]
        f["model_weights/d0/seq/d0/kernel"] = h5py.ExternalLink(str(tmp_path / "secret.h5"),
                                                                "model_weights/d0/seq/d0/kernel")
    with pytest.raises(ValueError, match="a.h5: .*seq/d0/kernel is missing, a link, or not a dataset"):
        keras.models.load_model(path)
    with pytest.raises(FileNotFoundError, match="absent.h5"):
        keras.models.load_model(tmp_path / "absent.h5")
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ImportError, match=r"needs h5py: pip install 'eagerflow\[h5\]'"):
        keras.models.load_model(tmp_path / "secret.h5")
    with pytest.raises(ImportError, match=r"needs h5py: pip install 'eagerflow\[h5\]'"):
        _model().save(tmp_path / "again.h5")


def test_a_tf_keras_2_file_loads(tmp_path, caplog):
    """tf.keras 2's layout: Keras 2 configs (batch_input_shape, no modules), weights named `dense/kernel:0`, an
    optimizer config with `decay` (Keras 3 ignores it with a warning) and slots Keras 3 cannot take (a warning
    and a fresh optimizer, as Keras 3 does)."""
    rng = np.random.default_rng(5)
    kernel, bias = rng.random((3, 2)).astype(np.float32), rng.random(2).astype(np.float32)
    config = {"class_name": "Sequential", "config": {"name": "sequential", "layers": [
        {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 3], "dtype": "float32", "sparse": False,
                                                "ragged": False, "name": "dense_input"}},
        {"class_name": "Dense", "config": {"name": "dense", "trainable": True, "dtype": "float32", "units": 2,
                                           "activation": "linear", "use_bias": True,
                                           "kernel_initializer": {"class_name": "GlorotUniform",
                                                                  "config": {"seed": None}},
                                           "bias_initializer": {"class_name": "Zeros", "config": {}},
                                           "kernel_regularizer": None, "bias_regularizer": None,
                                           "activity_regularizer": None, "kernel_constraint": None,
                                           "bias_constraint": None}}]}}
    training = {"loss": "mse", "metrics": None, "weighted_metrics": None, "loss_weights": None,
                "optimizer_config": {"class_name": "Adam", "config": {
                    "name": "Adam", "learning_rate": 0.001, "decay": 0.0, "beta_1": 0.9, "beta_2": 0.999,
                    "epsilon": 1e-07, "amsgrad": False}}}
    with h5py.File(tmp_path / "k2.h5", "w") as f:
        f.attrs["keras_version"] = b"2.15.0"
        f.attrs["backend"] = b"tensorflow"
        f.attrs["model_config"] = json.dumps(config).encode()
        f.attrs["training_config"] = json.dumps(training).encode()
        weights = f.create_group("model_weights")
        weights.attrs["layer_names"] = [b"dense"]
        group = weights.create_group("dense")
        group.attrs["weight_names"] = [b"dense/kernel:0", b"dense/bias:0"]
        group["dense/kernel:0"], group["dense/bias:0"] = kernel, bias
        slots = f.create_group("optimizer_weights")
        slots.attrs["weight_names"] = [b"Adam/iter:0", b"Adam/dense/kernel/m:0", b"Adam/dense/bias/m:0",
                                       b"Adam/dense/kernel/v:0", b"Adam/dense/bias/v:0"]
        slots["Adam/iter:0"] = np.int64(3)
        for name, shape in (("kernel/m", (3, 2)), ("bias/m", (2,)), ("kernel/v", (3, 2)), ("bias/v", (2,))):
            slots[f"Adam/dense/{name}:0"] = np.ones(shape, np.float32)
    with pytest.warns(UserWarning, match=r"^Argument `decay` is no longer supported and will be ignored.$"), \
            caplog.at_level(logging.WARNING, logger="absl"):
        model = keras.models.load_model(tmp_path / "k2.h5")
    np.testing.assert_array_equal(model.layers[0].kernel.numpy(), kernel)
    np.testing.assert_array_equal(model.layers[0].bias.numpy(), bias)
    assert model.optimizer.name == "Adam" and int(model.optimizer.iterations) == 0
    assert "Error in loading the saved optimizer state. As a result, your model is starting with a freshly " \
           "initialized optimizer." in [r.getMessage() for r in caplog.records]
