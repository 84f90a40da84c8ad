"""Keras losses and metrics against TensorFlow 2.21's values and NumPy."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

Y = np.array([0, 2, 1])
LOGITS = np.array([[1., 2., 3.], [0.5, 0.1, -1.], [2., 2., 0.]], np.float32)
ONE_HOT = np.eye(3)[Y]


def _probs():
    e = np.exp(LOGITS - LOGITS.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def test_sparse_categorical_crossentropy_logits_and_probs():
    assert float(keras.losses.SparseCategoricalCrossentropy(from_logits=True)(Y, LOGITS)) == pytest.approx(
        1.7682099342346191, rel=1e-6)  # TF 2.21
    assert float(keras.losses.SparseCategoricalCrossentropy()(Y, _probs())) == pytest.approx(1.7682099342346191,
                                                                                             rel=1e-6)
    assert keras.losses.SparseCategoricalCrossentropy().name == "sparse_categorical_crossentropy"


def test_reductions_and_sample_weight():
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    # sum_over_batch_size divides by the number of samples, not by the sum of the weights
    assert float(loss(Y, LOGITS, sample_weight=np.array([1., 0., 2.]))) == pytest.approx(1.3082844018936157, rel=1e-6)
    assert float(keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="sum")(Y, LOGITS)) == \
        pytest.approx(5.304629802703857, rel=1e-6)
    per = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)(Y, LOGITS).numpy()
    logp = LOGITS - np.log(np.exp(LOGITS).sum(-1, keepdims=True))
    np.testing.assert_allclose(per, -logp[np.arange(3), Y], rtol=1e-6)


def test_categorical_binary_mse_mae():
    assert float(keras.losses.CategoricalCrossentropy()(ONE_HOT, _probs())) == pytest.approx(1.7682100534439087,
                                                                                           rel=1e-6)
    assert float(keras.losses.CategoricalCrossentropy(from_logits=True)(ONE_HOT, LOGITS)) == pytest.approx(
        1.7682099342346191, rel=1e-6)
    yb, pb = np.array([[0.], [1.], [1.]]), np.array([[0.1], [0.8], [0.4]], np.float32)
    assert float(keras.losses.BinaryCrossentropy()(yb, pb)) == pytest.approx(0.41493162512779236, rel=1e-6)
    assert float(keras.losses.BinaryCrossentropy(from_logits=True)(yb, pb)) == pytest.approx(0.5428375601768494,
                                                                                           rel=1e-6)
    assert float(keras.losses.MeanSquaredError()(LOGITS, LOGITS * 2)) == pytest.approx(2.584444284439087, rel=1e-6)
    assert float(keras.losses.MeanAbsoluteError()(LOGITS, LOGITS * 2)) == pytest.approx(1.288888931274414, rel=1e-6)


def test_string_shortcuts_and_bad_names():
    # Keras 3.15: a function name gives the function, a class name a default instance
    assert keras.losses.get("sparse_categorical_crossentropy") is keras.losses.sparse_categorical_crossentropy
    assert isinstance(keras.losses.get("SparseCategoricalCrossentropy"), keras.losses.SparseCategoricalCrossentropy)
    assert isinstance(keras.optimizers.get("adam"), keras.optimizers.Adam)
    with pytest.raises(ValueError, match="Could not interpret loss identifier: nope"):
        keras.losses.get("nope")
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: nope"):
        keras.optimizers.get("nope")


def test_metrics_update_result_reset():
    m = keras.metrics.SparseCategoricalAccuracy()
    m.update_state(Y, LOGITS)
    assert float(m.result()) == 0.0 and m.name == "sparse_categorical_accuracy"
    m.update_state([2, 0, 0], LOGITS)
    assert float(m.result()) == pytest.approx(0.5)
    m.reset_state()
    assert float(m.result()) == 0.0
    mean = keras.metrics.Mean()
    mean.update_state([1., 2., 3.])
    mean.update_state(5.)
    assert float(mean.result()) == 2.75
    acc = keras.metrics.Accuracy()
    acc.update_state([1, 2, 3], [1, 2, 4])
    assert float(acc.result()) == pytest.approx(0.6666666865348816)
    cat = keras.metrics.CategoricalAccuracy()
    cat.update_state(ONE_HOT, LOGITS)
    assert float(cat.result()) == 0.0
    cat.update_state(np.eye(3)[[2, 0, 0]], LOGITS)
    assert float(cat.result()) == pytest.approx(0.5)


def test_metric_updates_inside_tf_function():
    m = keras.metrics.Mean()

    @tf.function
    def f(x):
        m.update_state(x)
        return m.result()

    f(tf.constant([1.0, 3.0]))
    assert float(f(tf.constant([5.0, 7.0]))) == 4.0


def test_sparse_labels_of_any_integer_or_float_dtype():
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for labels in (Y.astype(np.uint8), Y.astype(np.float32), Y.reshape(3, 1)):
        assert float(loss(labels, LOGITS)) == pytest.approx(1.7682099342346191, rel=1e-6)
