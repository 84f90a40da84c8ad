"""Targets of shape (batch,) against a Dense(1) output (batch, 1): Keras pairs them by rank before a
loss or metric (without that they broadcast to (batch, batch): a wrong value and no error). Numbers
and messages from TensorFlow 2.21's Keras 3 on the same data and initial weights."""
import re

import numpy as np
import pytest

from eagerflow import keras

_RNG = np.random.default_rng(0)
X = _RNG.random((8, 3)).astype("float32")
Y = np.array([0, 1, 1, 0, 1, 1, 1, 0])
W0 = [(_RNG.standard_normal((3, 1)) * 0.5).astype("float32"), np.array([0.1], "float32")]
SW = np.array([1, 2, 1, 1, 0.5, 1, 1, 3], "float32")


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _model(**compile_kwargs):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    m.set_weights(W0)
    m.compile(**compile_kwargs)
    return m


def test_binary_classifier_with_flat_labels_matches_keras():
    m = _model(optimizer="sgd", loss="binary_crossentropy",
               metrics=[keras.metrics.Recall(), "accuracy", keras.metrics.AUC(name="zauc"),
                        keras.metrics.Precision(name="aprec")])
    # Keras 3: [0.72815, 0.8, 0.625, 0.26667, 0.66667] (loss, then the metrics in compile order)
    np.testing.assert_allclose(m.evaluate(X, Y, verbose=0), [0.72815, 0.8, 0.625, 0.26667, 0.66667], atol=1e-5)
    m.train_on_batch(X, Y)
    np.testing.assert_allclose(m.test_on_batch(X, Y), [0.7279, 0.8, 0.625, 0.26667, 0.66667], atol=1e-5)


def test_a_loss_function_is_wrapped_as_keras_wraps_it_and_loss_names_work_as_metrics():
    """compile(loss=keras.losses.binary_crossentropy) with sample weights: the function is called on
    paired ranks, and the weights go to the reduction (not into from_logits). Then, on the trained
    model: 'mae' as a metric (unweighted), and the loss classes and function on flat labels."""
    m = _model(optimizer=keras.optimizers.SGD(0.5), loss=keras.losses.binary_crossentropy, metrics=["accuracy"])
    h = m.fit(X, Y, sample_weight=SW, epochs=2, batch_size=4, verbose=0, shuffle=False)
    # Keras 3: {'accuracy': [0.5, 0.5], 'loss': [0.97575, 0.96579]}, bias [0.05474]
    np.testing.assert_allclose(h.history["loss"], [0.97575, 0.96579], atol=1e-5)
    assert h.history["accuracy"] == [0.5, 0.5]
    np.testing.assert_allclose(m.get_weights()[1], [0.05474], atol=1e-5)
    m.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse", metrics=["mae"])
    # Keras 3: [0.3421, 0.50616]; the metric ignores the sample weights
    np.testing.assert_allclose(m.evaluate(X, Y.astype("float32"), sample_weight=SW, verbose=0), [0.3421, 0.50616],
                               atol=1e-5)
    p = m.predict(X, verbose=0)
    assert float(keras.losses.BinaryCrossentropy()(Y, p)) == pytest.approx(0.71129, abs=1e-5)  # Keras 3
    assert float(keras.losses.MeanSquaredError()(Y, p, sample_weight=SW)) == pytest.approx(0.3421, abs=1e-5)
    with pytest.raises(ValueError, match=re.escape("Arguments `target` and `output` must have the same rank (ndim). "
                                                   "Received: target.shape=(8,), output.shape=(8, 1)")):
        keras.losses.binary_crossentropy(Y.astype("float32"), p)


def test_loss_names_as_metrics_are_named_as_given():
    for name in ("mse", "mean_squared_error", "MeanSquaredError", "mae", "mean_absolute_error"):
        m = _model(optimizer="sgd", loss="binary_crossentropy", metrics=[name])
        assert sorted(m.evaluate(X, Y, verbose=0, return_dict=True)) == sorted(["loss", name])
