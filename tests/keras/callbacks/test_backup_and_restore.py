"""keras.callbacks.BackupAndRestore, with Keras 3.15's observable behaviour: the files it keeps, the
metadata it writes (epoch/batch as Keras 3.15 wrote them for the same schedule), the epoch a resumed
fit starts at, and a resumed run ending exactly where an uninterrupted run ends (optimizer state
included)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
X = np.random.RandomState(0).rand(32, 3).astype("float32")
Y = X.sum(1, keepdims=True)


def _model():
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    model.compile(keras.optimizers.Adam(0.05), "mse")
    return model


class Interrupt(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 1:
            raise RuntimeError("interrupted")


class SeenEpochs(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.epochs = []

    def on_epoch_begin(self, epoch, logs=None):
        self.epochs.append(epoch)


def test_resume_after_interruption_matches_an_uninterrupted_run(tmp_path):
    backup = str(tmp_path / "bk")
    reference = _model()
    reference.fit(X, Y, epochs=4, verbose=0, shuffle=False, batch_size=8)
    interrupted = _model()
    with pytest.raises(RuntimeError, match="interrupted"):
        interrupted.fit(X, Y, epochs=4, verbose=0, shuffle=False, batch_size=8,
                        callbacks=[keras.callbacks.BackupAndRestore(backup), Interrupt()])
    assert sorted(os.listdir(backup)) == ["latest.optimizer.npz", "latest.weights.h5", "training_metadata.json"]
    with open(os.path.join(backup, "training_metadata.json")) as f:
        assert json.load(f) == {"epoch": 2, "batch": 0}
    resumed = _model()
    seen = SeenEpochs()
    history = resumed.fit(X, Y, epochs=4, verbose=0, shuffle=False, batch_size=8,
                          callbacks=[keras.callbacks.BackupAndRestore(backup), seen])
    assert seen.epochs == [2, 3] and len(history.history["loss"]) == 2
    assert not os.path.exists(backup)  # delete_checkpoint=True: a finished fit removes the backup
    assert int(resumed.optimizer.iterations.numpy()) == 16
    for got, want in zip(resumed.get_weights(), reference.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_batch_frequency_metadata_as_keras3(tmp_path):
    backup = str(tmp_path / "bk")
    metas = []

    class Peek(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            path = os.path.join(backup, "training_metadata.json")
            if os.path.exists(path):
                with open(path) as f:
                    metas.append((batch, json.load(f)))

    _model().fit(X, Y, epochs=2, verbose=0, shuffle=False, batch_size=8,
                 callbacks=[keras.callbacks.BackupAndRestore(backup, save_freq=3, delete_checkpoint=False), Peek()])
    assert metas == [(2, {"epoch": 0, "batch": 2}), (3, {"epoch": 0, "batch": 2}), (0, {"epoch": 0, "batch": 2}),
                     (1, {"epoch": 1, "batch": 1}), (2, {"epoch": 1, "batch": 1}), (3, {"epoch": 1, "batch": 1})]
    assert os.path.exists(os.path.join(backup, "latest.weights.h5"))


def test_double_checkpoint_keeps_the_previous_backup(tmp_path):
    backup = str(tmp_path / "bk")
    _model().fit(X, Y, epochs=2, verbose=0,
                 callbacks=[keras.callbacks.BackupAndRestore(backup, double_checkpoint=True, delete_checkpoint=False)])
    assert {"latest.weights.h5", "latest.weights.h5.bkp", "training_metadata.json",
            "training_metadata.json.bkp"} <= set(os.listdir(backup))


def test_bad_arguments():
    with pytest.raises(ValueError, match="Empty `backup_dir` argument passed"):
        keras.callbacks.BackupAndRestore("")
    with pytest.raises(ValueError, match="Invalid value for argument `save_freq`. Received: save_freq=bogus. "
                                         "Expected either 'epoch' or an integer value."):
        keras.callbacks.BackupAndRestore("x", save_freq="bogus")
