"""LearningRateScheduler, ReduceLROnPlateau, TerminateOnNaN, CSVLogger, ProgbarLogger and
CallbackList inside fit, against TensorFlow 2.21 (Keras 3.15): printed lines, logged learning
rates, file contents and errors."""
import numpy as np
import pytest

from eagerflow import keras

C = keras.callbacks
X = np.array([[0.1, 0.2], [0.3, -0.1], [0.5, 0.5], [-0.2, 0.4]], np.float32)
Y = np.array([[0.3], [0.1], [0.9], [0.2]], np.float32)


def _model(metrics=None):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=metrics)
    return model


def test_learning_rate_scheduler_sets_logs_and_prints(capsys):
    history = _model().fit(X, Y, epochs=3, verbose=0, batch_size=4,
                           callbacks=[C.LearningRateScheduler(lambda epoch, lr: lr * 0.5, verbose=1)])
    assert capsys.readouterr().out == (  # TF 2.21
        "\nEpoch 1: LearningRateScheduler setting learning rate to 0.05000000074505806.\n"
        "\nEpoch 2: LearningRateScheduler setting learning rate to 0.02500000037252903.\n"
        "\nEpoch 3: LearningRateScheduler setting learning rate to 0.012500000186264515.\n")
    np.testing.assert_allclose(history.history["loss"], [0.23749998211860657, 0.20429235696792603,
                                                         0.19068065285682678], rtol=1e-6)
    assert history.history["learning_rate"] == [0.05000000074505806, 0.02500000037252903, 0.012500000186264515]


def test_learning_rate_shows_in_the_progress_line_and_one_argument_schedules(capsys):
    history = _model().fit(X, Y, epochs=2, verbose=2, batch_size=4,
                           callbacks=[C.LearningRateScheduler(lambda epoch: 0.05 / (epoch + 1))])
    lines = capsys.readouterr().out.splitlines()
    # TF 2.21: 'Epoch 1/2', '1/1 - 0s - 251ms/step - loss: 0.2375 - learning_rate: 0.0500', ...
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    assert lines[1].startswith("1/1 - ") and lines[1].endswith(" - loss: 0.2375 - learning_rate: 0.0500")
    assert lines[3].endswith(" - loss: 0.2043 - learning_rate: 0.0250")
    assert history.history["learning_rate"] == [0.05000000074505806, 0.02500000037252903]


def test_learning_rate_scheduler_wants_a_float():
    with pytest.raises(ValueError, match="The output of the `schedule` function should be a float. Got: 1"):
        _model().fit(X, Y, epochs=1, verbose=0, callbacks=[C.LearningRateScheduler(lambda epoch: 1)])
    _model().fit(X, Y, epochs=1, verbose=0, callbacks=[C.LearningRateScheduler(lambda epoch: np.float32(0.1))])


def test_reduce_lr_on_plateau_with_cooldown_and_floor(capsys):
    cb = C.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, verbose=1, min_delta=0.05, cooldown=1,
                             min_lr=0.02)
    history = _model().fit(X, Y, epochs=6, verbose=0, batch_size=4, callbacks=[cb])
    assert capsys.readouterr().out == (  # TF 2.21
        "\nEpoch 3: ReduceLROnPlateau reducing learning rate to 0.05000000074505806.\n"
        "\nEpoch 5: ReduceLROnPlateau reducing learning rate to 0.02500000037252903.\n"
        "\nEpoch 6: ReduceLROnPlateau reducing learning rate to 0.02.\n")
    assert history.history["learning_rate"] == [0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
                                                0.05000000074505806, 0.05000000074505806, 0.02500000037252903]
    np.testing.assert_allclose(history.history["loss"], [0.23749998211860657, 0.17485195398330688, 0.136093869805336,
                                                         0.11189832538366318, 0.10381421446800232,
                                                         0.09725667536258698], rtol=1e-6)


def test_reduce_lr_on_plateau_follows_a_metric_and_validates(capsys):
    cb = C.ReduceLROnPlateau(monitor="val_mae", patience=0, factor=0.5, min_delta=1.0, verbose=1)
    history = _model(["mae"]).fit(X, Y, epochs=3, verbose=0, batch_size=4, validation_data=(X, Y), callbacks=[cb])
    assert capsys.readouterr().out == ("\nEpoch 2: ReduceLROnPlateau reducing learning rate to 0.05000000074505806.\n"
                                       "\nEpoch 3: ReduceLROnPlateau reducing learning rate to 0.02500000037252903.\n")
    assert history.history["learning_rate"] == [0.10000000149011612, 0.10000000149011612, 0.05000000074505806]
    np.testing.assert_allclose(history.history["val_mae"], [0.28863751888275146, 0.24152562022209167,
                                                            0.22712408006191254], rtol=1e-6)
    cb = C.ReduceLROnPlateau()
    assert (cb.monitor, cb.factor, cb.patience, cb.min_delta, cb.cooldown, cb.min_lr, cb.mode, cb.best, cb.wait) == \
        ("val_loss", 0.1, 10, 0.0001, 0, 0.0, "auto", None, 0)
    with pytest.raises(ValueError, match="ReduceLROnPlateau does not support a factor >= 1.0. Received factor=1.0"):
        C.ReduceLROnPlateau(factor=1.0)
    with pytest.warns(UserWarning, match="ReduceLROnPlateau mode 'bogus' is unknown, fallback to auto mode."):
        assert C.ReduceLROnPlateau(mode="bogus").mode == "auto"
    with pytest.raises(ValueError, match="ReduceLROnPlateau callback received monitor=val_nope, but Keras isn't "
                                         "able to automatically determine"):
        _model().fit(X, Y, epochs=1, verbose=0, callbacks=[C.ReduceLROnPlateau(monitor="val_nope")])
    with pytest.warns(UserWarning, match="Learning rate reduction is conditioned on metric `val_nope` which is not "
                                         "available. Available metrics are: loss,learning_rate."):
        _model().fit(X, Y, epochs=1, verbose=0, callbacks=[C.ReduceLROnPlateau(monitor="val_nope", mode="min")])


def test_terminate_on_nan_stops_after_the_batch(capsys):
    y = Y.copy()
    y[1] = np.nan
    history = _model().fit(X, y, epochs=3, verbose=0, batch_size=2, shuffle=False, callbacks=[C.TerminateOnNaN()])
    assert capsys.readouterr().out == "Batch 0: Invalid loss, terminating training\n"
    assert history.epoch == [0] and np.isnan(history.history["loss"][0])
    with pytest.raises(RuntimeError, match="NaN or Inf loss encountered at batch 0. Loss value: nan. Terminating "
                                           "training immediately."):
        _model().fit(X, y, epochs=1, verbose=0, batch_size=2, shuffle=False,
                     callbacks=[C.TerminateOnNaN(raise_error=True)])


def test_csv_logger_rows_and_append(tmp_path):
    path = tmp_path / "log.csv"
    model = _model(["mae"])
    model.fit(X, Y, epochs=2, verbose=0, batch_size=4, validation_data=(X, Y), callbacks=[C.CSVLogger(path)])
    first = (b"epoch,loss,mae,val_loss,val_mae\r\n"  # TF 2.21, byte for byte but for float32 rounding
             b"0,0.23749998211860657,0.375,0.17485195398330688,0.28863751888275146\r\n"
             b"1,0.17485195398330688,0.2886374890804291,0.136093869805336,0.24152562022209167\r\n")
    assert _rows(path.read_bytes()) == pytest.approx(_rows(first), rel=1e-6)
    assert path.read_bytes().split(b"\r\n")[0] == b"epoch,loss,mae,val_loss,val_mae"
    model.fit(X, Y, epochs=1, verbose=0, batch_size=4, callbacks=[C.CSVLogger(path, separator=";", append=True)])
    lines = path.read_bytes().split(b"\r\n")
    assert len(lines) == 5 and lines[-1] == b"" and lines[3].startswith(b"0;") and lines[3].endswith(b";NA;NA")
    assert [float(v) for v in lines[3].split(b";")[1:3]] == pytest.approx([0.136093869805336, 0.24152562022209167],
                                                                          rel=1e-6)


def _rows(data):
    return [float(v) for line in data.split(b"\r\n")[1:] if line for v in line.split(b",")]


def test_csv_logger_after_a_scheduler_sees_the_learning_rate(tmp_path):
    path = tmp_path / "b.csv"
    _model().fit(X, Y, epochs=2, verbose=0, batch_size=4,
                 callbacks=[C.LearningRateScheduler(lambda e, lr: lr * 0.5), C.CSVLogger(path)])
    lines = path.read_bytes().split(b"\r\n")
    assert lines[0] == b"epoch,learning_rate,loss,val_learning_rate,val_loss"  # TF 2.21
    assert lines[1].startswith(b"0,0.05000000074505806,") and lines[1].endswith(b",NA,NA")
    assert lines[2].startswith(b"1,0.02500000037252903,")


def test_callback_list_and_progbar_logger(capsys):
    model = _model()
    cl = C.CallbackList([C.History()], add_history=True, add_progbar=False, model=model, epochs=2, verbose=0, steps=1)
    assert [type(c).__name__ for c in cl.callbacks] == ["History"]
    assert [c.params for c in cl.callbacks] == [{"epochs": 2, "verbose": 0, "steps": 1}] and cl.model is model
    cl = C.CallbackList(None, add_history=True, add_progbar=True, model=model, epochs=2, verbose=1, steps=1)
    assert [type(c).__name__ for c in cl.callbacks] == ["History", "ProgbarLogger"]
    seen = []
    cl = C.CallbackList([C.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, logs)))])
    cl.on_epoch_end(3, {"loss": 1.0})
    assert seen == [(3, {"loss": 1.0})]
    model.fit(X, Y, epochs=2, verbose=0, batch_size=4, callbacks=[C.ProgbarLogger()])
    assert capsys.readouterr().out == ""  # TF 2.21: fit's verbose=0 silences it
    model.fit(X, Y, epochs=1, verbose=2, batch_size=4, callbacks=[C.ProgbarLogger()])
    assert len(capsys.readouterr().out.splitlines()) == 1  # the user's logger replaces fit's own
