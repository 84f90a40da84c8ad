"""evaluate / test_on_batch / train_on_batch without return_dict return the logs as a list by
Keras 3.15's rule: each metric's value in the order of the model's metrics, a weighted metric
looked up by its name before "weighted_" (so a name in both `metrics` and `weighted_metrics` gives
the unweighted value twice), then the keys not met so far in sorted order. Expected values are
Keras 3.15's for the same model (Dense(1) with ones/zeros initializers, so no randomness)."""
import numpy as np
import pytest

from eagerflow import keras

X = np.random.RandomState(0).rand(16, 3).astype("float32")
Y = np.random.RandomState(1).rand(16, 1).astype("float32")
SW = np.linspace(0.5, 2, 16).astype("float32")


def _model(metrics, weighted_metrics):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones",
                                                                    bias_initializer="zeros")])
    model.compile(optimizer="sgd", loss="mse", metrics=metrics, weighted_metrics=weighted_metrics)
    return model


def test_a_metric_in_both_lists_comes_twice_then_the_weighted_one():
    model = _model(["mse", "mae"], ["mae", "mse"])
    # Keras 3.15: loss, mse, mae, mae (by name: the unweighted), mse, then weighted_mae, weighted_mse
    expected = [2.21931, 1.96686, 1.26175, 1.26175, 1.96686, 1.17858, 1.77545]
    np.testing.assert_allclose(model.evaluate(X, Y, sample_weight=SW, verbose=0), expected, atol=2e-5)
    logs = model.evaluate(X, Y, sample_weight=SW, verbose=0, return_dict=True)
    assert logs == pytest.approx({"loss": 2.21931, "mae": 1.26175, "mse": 1.96686, "weighted_mae": 1.17858,
                                  "weighted_mse": 1.77545}, abs=2e-5)
    np.testing.assert_allclose(model.test_on_batch(X, Y, sample_weight=SW), expected, atol=2e-5)
    np.testing.assert_allclose(model.train_on_batch(X, Y, sample_weight=SW), expected, atol=2e-5)


def test_a_weighted_metric_alone_keeps_its_name():
    model = _model(["mse"], ["mae", "mse"])
    # Keras 3.15: loss, mse, mae (weighted: no unweighted mae), mse again, weighted_mse
    np.testing.assert_allclose(model.evaluate(X, Y, sample_weight=SW, verbose=0),
                               [2.21931, 1.96686, 1.17858, 1.96686, 1.77545], atol=2e-5)


def test_without_sample_weights_and_without_metrics():
    model = _model(["mae"], ["mae"])
    values = model.evaluate(X, Y, verbose=0)
    assert len(values) == 4 and values[1] == values[2] == values[3]  # Keras 3.15: 4 values for 2 metrics
    assert isinstance(_model([], None).evaluate(X, Y, verbose=0), float)  # one value: bare (1.96686...)
