"""fit's class_weight, compile's weighted_metrics and ModelCheckpoint's whole-model and per-batch
saving. The numbers and messages are TensorFlow 2.21's Keras 3 (run on the same data and initial
weights: the script's outputs are written in here)."""
import os
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

_RNG = np.random.default_rng(0)
X = _RNG.random((8, 3)).astype("float32")
Y = np.array([0, 1, 1, 0, 2, 2, 1, 0])
W0 = [(_RNG.standard_normal((3, 3)) * 0.5).astype("float32"), np.array([0.1, -0.2, 0.05], "float32")]
CLASS_WEIGHT = {0: 1.0, 1: 3.0, 2: 0.5}
SAMPLE_WEIGHT = np.array([1, 3, 3, 1, 0.5, 0.5, 3, 1], "float32")  # CLASS_WEIGHT of Y


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _model(metrics=("accuracy",), weighted_metrics=None, loss=None):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3)])
    m.set_weights(W0)
    m.compile(optimizer=keras.optimizers.SGD(0.1),
              loss=loss or keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=list(metrics), weighted_metrics=weighted_metrics)
    return m


def _history(h):
    return {k: [round(v, 5) for v in vs] for k, vs in h.history.items()}


def test_fit_with_class_weight_weighs_the_loss_not_the_metrics():
    m = _model()
    h = m.fit(X, Y, epochs=2, batch_size=4, verbose=0, class_weight=CLASS_WEIGHT, shuffle=False)
    # Keras 3: {'accuracy': [0.375, 0.5], 'loss': [1.895691, 1.681312]}, bias [0.042761, 0.031463, -0.124224]
    assert _history(h) == {"accuracy": [0.375, 0.5], "loss": [1.89569, 1.68131]}
    np.testing.assert_allclose(m.get_weights()[1], [0.042761, 0.031463, -0.124224], atol=1e-6)


def test_class_weight_is_the_same_as_the_sample_weights_it_stands_for():
    by_class = _model().fit(X, Y, epochs=1, batch_size=4, verbose=0, class_weight=CLASS_WEIGHT, shuffle=False)
    by_sample = _model().fit(X, Y, epochs=1, batch_size=4, verbose=0, sample_weight=SAMPLE_WEIGHT, shuffle=False)
    assert _history(by_class) == _history(by_sample) == {"accuracy": [0.375], "loss": [1.89569]}


def test_class_weight_for_a_dataset_one_hot_targets_and_train_on_batch():
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)
    assert _history(_model().fit(ds, epochs=1, verbose=0, class_weight=CLASS_WEIGHT)) == {
        "accuracy": [0.375], "loss": [1.89569]}
    # one-hot targets: the class is the row's argmax (Keras 3: loss 2.5096... on its own initial weights;
    # here the same value as sparse targets, the weighting being per class either way)
    one_hot = _model(loss=keras.losses.CategoricalCrossentropy(from_logits=True), metrics=())
    h = one_hot.fit(X, np.eye(3, dtype="float32")[Y], epochs=1, batch_size=8, verbose=0, class_weight=CLASS_WEIGHT,
                    shuffle=False)
    on_batch = _model().train_on_batch(X, Y, class_weight=CLASS_WEIGHT)  # Keras 3: [1.926318, 0.375]
    np.testing.assert_allclose(on_batch, [1.926318, 0.375], atol=1e-6)
    assert h.history["loss"][0] == pytest.approx(on_batch[0], abs=1e-6)


def test_validation_split_keeps_class_weight_off_the_validation_part():
    h = _model().fit(X, Y, epochs=1, batch_size=4, verbose=0, class_weight=CLASS_WEIGHT, shuffle=False,
                     validation_split=0.25)
    # Keras 3: {'accuracy': [0.5], 'loss': [1.723312], 'val_accuracy': [0.0], 'val_loss': [1.281708]}
    assert _history(h) == {"accuracy": [0.5], "loss": [1.72331], "val_accuracy": [0.0], "val_loss": [1.28171]}


def test_class_weight_errors_match_keras():
    with pytest.raises(ValueError, match=re.escape("You cannot `class_weight` and `sample_weight` at the same time.")):
        _model().fit(X, Y, verbose=0, class_weight=CLASS_WEIGHT, sample_weight=SAMPLE_WEIGHT)
    with pytest.raises(ValueError, match=re.escape("`class_weight` is only supported for Models with a single output.")):
        _model().fit(X, [Y, Y], verbose=0, class_weight=CLASS_WEIGHT)


def test_weighted_metrics_use_the_weights_and_take_a_weighted_prefix_on_a_clash(tmp_path):
    m = _model(weighted_metrics=["accuracy", keras.metrics.SparseCategoricalAccuracy(name="sca")])
    h = m.fit(X, Y, epochs=1, batch_size=4, verbose=0, sample_weight=SAMPLE_WEIGHT, shuffle=False)
    # Keras 3: {'accuracy': [0.375], 'loss': [1.895691], 'sca': [0.192308], 'weighted_accuracy': [0.192308]}
    assert _history(h) == {"accuracy": [0.375], "loss": [1.89569], "sca": [0.19231], "weighted_accuracy": [0.19231]}
    logs = m.evaluate(X, Y, verbose=0, return_dict=True)
    # Keras 3: {'accuracy': 0.5, 'loss': 1.0765440464019775, 'sca': 0.5, 'weighted_accuracy': 0.5}
    assert {k: round(v, 5) for k, v in logs.items()} == {"accuracy": 0.5, "loss": 1.07654, "sca": 0.5,
                                                         "weighted_accuracy": 0.5}
    m.save(str(tmp_path / "m.keras"))  # the compile config keeps weighted_metrics
    loaded = keras.saving.load_model(str(tmp_path / "m.keras"))
    assert sorted(loaded.evaluate(X, Y, verbose=0, return_dict=True)) == ["accuracy", "loss", "sca", "weighted_accuracy"]


def test_model_checkpoint_saves_the_whole_model_each_epoch(tmp_path):
    m = _model()
    path = str(tmp_path / "e{epoch:02d}.keras")
    m.fit(X, Y, epochs=2, batch_size=4, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(path)])
    assert sorted(os.listdir(tmp_path)) == ["e01.keras", "e02.keras"]  # Keras 3
    restored = keras.saving.load_model(str(tmp_path / "e02.keras"))
    np.testing.assert_allclose(restored.predict(X, verbose=0), m.predict(X, verbose=0), rtol=1e-6)


def test_model_checkpoint_with_an_integer_save_freq_counts_batches_across_epochs(tmp_path):
    every = keras.callbacks.ModelCheckpoint(str(tmp_path / "b{epoch:02d}-{batch:02d}.weights.h5"),
                                            save_weights_only=True, save_freq=1)
    _model().fit(X, Y, epochs=2, batch_size=4, verbose=0, callbacks=[every])
    assert sorted(os.listdir(tmp_path)) == ["b01-01.weights.h5", "b01-02.weights.h5", "b02-01.weights.h5",
                                            "b02-02.weights.h5"]  # Keras 3
    third = tmp_path / "third"
    third.mkdir()
    cb = keras.callbacks.ModelCheckpoint(str(third / "s{epoch:02d}.weights.h5"), save_weights_only=True, save_freq=3)
    _model().fit(X, Y, epochs=2, batch_size=2, verbose=0, callbacks=[cb])
    assert sorted(os.listdir(third)) == ["s01.weights.h5", "s02.weights.h5"]  # batches 3 and 6 of 8 (Keras 3)


def test_model_checkpoint_errors_match_keras():
    with pytest.raises(ValueError, match=re.escape("The filepath provided must end in `.keras` (Keras model format). "
                                                   "Received: filepath=m.npz")):
        keras.callbacks.ModelCheckpoint("m.npz")
    with pytest.raises(ValueError, match=re.escape("When using `save_weights_only=True` in `ModelCheckpoint`, the "
                                                   "filepath provided must end in `.weights.h5`")):
        keras.callbacks.ModelCheckpoint("m.keras", save_weights_only=True)
    with pytest.raises(ValueError, match=re.escape("Unrecognized save_freq: batch. Expected save_freq are 'epoch' or "
                                                   "integer values")):
        keras.callbacks.ModelCheckpoint("m.keras", save_freq="batch")
    with pytest.raises(ValueError, match=re.escape("When using `save_weights_only=True` in `ModelCheckpoint`, the "
                                                   "filepath provided must end in `.weights.h5` (Keras weights "
                                                   "format). Received: filepath=m.h5")):
        keras.callbacks.ModelCheckpoint("m.h5", save_weights_only=True)
    for accepted in ("m.h5", "m.weights.h5", "ckpt/m_{epoch}.h5"):  # Keras 3.15: a legacy HDF5 model file
        keras.callbacks.ModelCheckpoint(accepted)


def test_model_checkpoint_to_h5_writes_keras_legacy_hdf5_model_files(tmp_path):
    pytest.importorskip("h5py")
    m = _model()
    path = str(tmp_path / "e{epoch:02d}.h5")
    m.fit(X, Y, epochs=2, batch_size=4, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(path)])
    assert sorted(os.listdir(tmp_path)) == ["e01.h5", "e02.h5"]  # Keras 3.15
    with open(tmp_path / "e02.h5", "rb") as f:
        assert f.read(8) == b"\x89HDF\r\n\x1a\n"
    restored = keras.models.load_model(str(tmp_path / "e02.h5"))
    np.testing.assert_allclose(restored.predict(X, verbose=0), m.predict(X, verbose=0), rtol=1e-6)
