"""ConvLSTM's `stateful`, `dropout` and `recurrent_dropout`, against Keras 3.15.1 on TensorFlow 2.21: a
stateful ConvLSTM2D's outputs over two calls and after reset_states (recorded values, same weights),
its state variables, Keras' errors; dropout only while training, one mask per gate."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras import layers

with open(os.path.join(os.path.dirname(__file__), "conv_lstm_stateful_keras3.json")) as _f:
    KERAS = json.load(_f)


def _data():
    rng = np.random.default_rng(0)  # drawn in this order for Keras' run
    x = rng.standard_normal((2, 3, 5, 5, 1)).astype("float32")
    weights = [rng.standard_normal(shape).astype("float32") * 0.3 for shape in [(3, 3, 1, 8), (3, 3, 2, 8), (8,)]]
    return x, weights


def _stateful_model():
    layer = layers.ConvLSTM2D(2, 3, padding="same", stateful=True)
    inp = keras.Input(batch_shape=(2, 3, 5, 5, 1))
    return keras.Model(inp, layer(inp)), layer


def test_stateful_continues_from_the_last_call_until_reset():
    x, weights = _data()
    model, layer = _stateful_model()
    layer.set_weights(weights)
    first, second = model(x).numpy(), model(x).numpy()
    np.testing.assert_allclose(first, KERAS["y1"], atol=2e-6)
    np.testing.assert_allclose(second, KERAS["y2"], atol=2e-6)
    layer.reset_states()
    np.testing.assert_array_equal(model(x).numpy(), first)
    layer.reset_state()
    np.testing.assert_array_equal(tf.function(model)(x).numpy(), first)  # traced: the states still carry
    np.testing.assert_allclose(tf.function(model)(x).numpy(), KERAS["y2"], atol=2e-6)


def test_stateful_states_are_variables_not_weights_and_config():
    model, layer = _stateful_model()
    assert [w.path for w in layer.weights] == [f"{layer.name}/conv_lstm_cell/kernel",
                                               f"{layer.name}/conv_lstm_cell/recurrent_kernel",
                                               f"{layer.name}/conv_lstm_cell/bias"]
    assert layer.non_trainable_weights == []
    assert [tuple(s.shape.as_list()) for s in layer.states] == [(2, 5, 5, 2), (2, 5, 5, 2)]
    assert layer.get_config()["stateful"] is True


def test_stateful_errors_as_keras():
    with pytest.raises(ValueError, match=r"When using `stateful=True` in a RNN, the batch size must be static. Found "
                                         r"dynamic batch size: sequence.shape=\(None, 3, 5, 5, 1\)"):
        layers.ConvLSTM2D(2, 3, stateful=True)(keras.Input((3, 5, 5, 1)))
    model, _ = _stateful_model()
    with pytest.raises(ValueError) as info:
        model(_data()[0][:1])
    assert str(info.value) == ("If an RNN is stateful, the batch size of the input sequences must be the same as the "
                               "batch size of the initial state. \n- Expected batch size: 2\n- Received batch size: 1")


def test_dropout_applies_only_while_training():
    x, weights = _data()
    dropped = layers.ConvLSTM2D(2, 3, padding="same", dropout=0.5, recurrent_dropout=0.3, seed=1)
    plain = layers.ConvLSTM2D(2, 3, padding="same")
    for layer in (dropped, plain):
        layer.build((2, 3, 5, 5, 1))
        layer.set_weights(weights)
    np.testing.assert_array_equal(dropped(x, training=False).numpy(), plain(x).numpy())
    assert np.abs(dropped(x, training=True).numpy() - plain(x).numpy()).max() > 1e-3
    config = dropped.get_config()
    assert (config["dropout"], config["recurrent_dropout"], config["seed"]) == (0.5, 0.3, 1)


def test_rates_of_one_do_nothing_as_in_keras():
    x, weights = _data()
    full = layers.ConvLSTM2D(2, 3, padding="same", dropout=1.0, recurrent_dropout=1.0)
    plain = layers.ConvLSTM2D(2, 3, padding="same")
    for layer in (full, plain):
        layer.build((2, 3, 5, 5, 1))
        layer.set_weights(weights)
    np.testing.assert_array_equal(full(x, training=True).numpy(), plain(x).numpy())  # Keras: 0 < rate < 1 only
    one_d = layers.ConvLSTM1D(2, 3, dropout=0.99, seed=1)
    assert one_d(x[:, :, :, 0, :], training=True).shape == (2, 3, 2)
