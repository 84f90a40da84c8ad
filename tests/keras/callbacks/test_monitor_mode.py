"""mode='auto' of EarlyStopping / ModelCheckpoint / ReduceLROnPlateau decided as Keras 3.15 decides it.

Expected answers come from Keras 3.15 (TF 2.21): a model compiled with loss='binary_crossentropy',
metrics=['accuracy', 'mae', AUC(name='auc'), my_metric, 'mse', Precision(name='prec'),
'binary_crossentropy', 'acc', TruePositives(name='tp')], weighted_metrics=['mse'], then
`_set_monitor_op()` for each monitor: 'max' / 'min', or the ValueError below. The rule is the
metric object's direction looked up by name, not the spelling of the monitor ('val_auc_1' matches
nothing; a weighted metric is known by its unprefixed name, so 'val_weighted_mse' is an error).
"""
import operator
import warnings

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras

EXPECTED = {'val_loss': 'min', 'loss': 'min', 'val_accuracy': 'max', 'accuracy': 'max', 'val_acc': 'max',
            'val_mae': 'min', 'val_auc': 'max', 'auc': 'max', 'val_my_metric': 'error', 'val_mse': 'min',
            'val_weighted_mse': 'error', 'val_prec': 'max', 'val_binary_crossentropy': 'min',
            'val_tp': 'error', 'val_unknown': 'error', 'val_auc_1': 'error', 'my_loss': 'error'}
MESSAGE = ("{cls} callback received monitor={monitor}, but Keras isn't able to automatically determine whether "
           "that metric should be maximized or minimized. Pass `mode='max'` in order to monitor based on the "
           "highest metric value, or pass `mode='min'` in order to use the lowest value.")


def my_metric(y_true, y_pred):
    return tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)


def _model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile("sgd", "binary_crossentropy",
                  metrics=["accuracy", "mae", keras.metrics.AUC(name="auc"), my_metric, "mse",
                           keras.metrics.Precision(name="prec"), "binary_crossentropy", "acc",
                           keras.metrics.TruePositives(name="tp")],
                  weighted_metrics=["mse"])
    return model


def _data():
    x = np.random.RandomState(0).rand(16, 3).astype("float32")
    return x, (x.sum(1, keepdims=True) > 1.5).astype("float32")


def _make(cls, monitor, tmp_path):
    if cls is keras.callbacks.ModelCheckpoint:
        return cls(str(tmp_path / "m.keras"), monitor=monitor)
    return cls(monitor=monitor)


@pytest.mark.parametrize("cls", [keras.callbacks.EarlyStopping, keras.callbacks.ReduceLROnPlateau,
                                 keras.callbacks.ModelCheckpoint])
def test_auto_mode_follows_the_compiled_metric_direction(cls, tmp_path):
    model = _model()
    x, y = _data()
    model.fit(x, y, validation_data=(x, y), epochs=1, verbose=0)
    for monitor, expected in EXPECTED.items():
        cb = _make(cls, monitor, tmp_path)
        cb.set_model(model)
        if expected == "error":
            with pytest.raises(ValueError) as info:
                cb._set_monitor_op()
            assert str(info.value) == MESSAGE.format(cls=cls.__name__, monitor=monitor)
        else:
            cb._set_monitor_op()
            assert cb.monitor_op is (operator.gt if expected == "max" else operator.lt), monitor


def test_explicit_mode_wins_and_min_delta_sign():
    cb = keras.callbacks.EarlyStopping(monitor="val_my_metric", mode="max", min_delta=0.5)
    cb._set_monitor_op()  # no model needed: the mode is given
    assert cb._is_improvement(0.75, 0) and cb._is_improvement(0.5, None) and not cb._is_improvement(0.5, 0)
    cb = keras.callbacks.EarlyStopping(monitor="val_my_metric", mode="min", min_delta=0.5)
    cb._set_monitor_op()
    assert cb._is_improvement(-0.75, 0) and not cb._is_improvement(-0.5, 0)


def test_unknown_mode_warns_with_keras_wording(tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        keras.callbacks.EarlyStopping(mode="bogus")
        keras.callbacks.ReduceLROnPlateau(mode="bogus")
        keras.callbacks.ModelCheckpoint(str(tmp_path / "a.keras"), mode="bogus")
    assert [str(w.message) for w in caught] == [
        "EarlyStopping mode 'bogus' is unknown, fallback to auto mode.",
        "ReduceLROnPlateau mode 'bogus' is unknown, fallback to auto mode.",
        "ModelCheckpoint mode 'bogus' is unknown, fallback to auto mode."]


@pytest.mark.parametrize("cls", [keras.callbacks.EarlyStopping, keras.callbacks.ModelCheckpoint])
def test_fit_raises_for_a_metric_without_direction(cls, tmp_path):
    """Keras 3.15: fit with EarlyStopping(monitor='my_metric') or ModelCheckpoint(..., monitor=
    'my_metric') (even without save_best_only) raises at the first epoch end."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse", metrics=[my_metric])
    x, y = _data()
    with pytest.raises(ValueError, match=MESSAGE.format(cls=cls.__name__, monitor="my_metric")[:60]):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[_make(cls, "my_metric", tmp_path)])


def test_restore_best_weights_without_early_stop():
    """Keras 3.15 restores the best epoch's weights at the end of training even when patience was
    never exhausted (here the loss diverges after epoch 0 under a huge learning rate)."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(keras.optimizers.SGD(learning_rate=5.0), "mse")
    x, y = _data()
    seen = []

    class Record(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            seen.append([w.copy() for w in self.model.get_weights()])

    es = keras.callbacks.EarlyStopping(monitor="loss", patience=10, restore_best_weights=True)
    history = model.fit(x, y, epochs=4, verbose=0, batch_size=16, shuffle=False, callbacks=[Record(), es])
    losses = history.history["loss"]
    assert losses[1] > losses[0] and losses[3] > losses[2]
    assert es.stopped_epoch == 0 and es.best_epoch == 0
    for restored, best in zip(model.get_weights(), seen[0]):
        np.testing.assert_array_equal(restored, best)


def test_checkpoint_saves_when_monitor_missing(tmp_path):
    """Keras 3.15: save_best_only with a monitor absent from the logs warns and saves anyway."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = _data()
    path = tmp_path / "best.keras"
    cb = keras.callbacks.ModelCheckpoint(str(path), monitor="val_loss", save_best_only=True)
    with pytest.warns(UserWarning, match="Can save best model only with val_loss available."):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[cb])
    assert path.exists()
