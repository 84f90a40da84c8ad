"""SimpleRNNCell, LSTMCell, GRUCell, StackedRNNCells and keras.layers.RNN against TensorFlow 2.21's Keras 3.15:
one step and whole sequences with identical weights (forwards and backwards, return_sequences/return_state),
weight paths, state sizes, configs, names, errors; masks agree with the SimpleRNN/LSTM/GRU layers (the same
step math); graph mode, gradients by finite differences and the .keras round trip."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layers2_oracle import (ORACLE, arr, assert_gradients_match_finite_differences, config_matches,
                                        error, paths, weights)

L = keras.layers
TOL = dict(rtol=1e-5, atol=1e-6)
CELLS = [("src", lambda: L.SimpleRNNCell(3), 1), ("lstmc", lambda: L.LSTMCell(3), 2),
         ("gruc", lambda: L.GRUCell(3), 1)]


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


@pytest.mark.parametrize("key,make,n_states", CELLS)
def test_cell_step_matches_keras(key, make, n_states):
    cell = make()
    cell.build(arr("cx").shape)
    assert cell.name == ORACLE[key + "_name"]
    assert paths(cell) == ORACLE[key + "_paths"]
    cell.set_weights(weights(key))
    states = [arr("ch"), arr("cc")][:n_states]
    out, new = cell(arr("cx"), states)
    np.testing.assert_allclose(out.numpy(), arr(key + "_out"), **TOL)
    assert isinstance(new, list) and len(new) == n_states
    for got, want in zip(new, ORACLE[key + "_states"]):
        np.testing.assert_allclose(got.numpy(), np.asarray(want, np.float32), **TOL)
    assert cell.state_size == ORACLE[key + "_state_size"]
    config_matches(cell, key + "_cfg")


@pytest.mark.parametrize("key,make,n_states", CELLS)
def test_rnn_of_a_cell_matches_keras(key, make, n_states):
    cell = make()
    cell.build(arr("cx").shape)
    cell.set_weights(weights(key))
    keras.backend.clear_session()
    rnn = L.RNN(cell, return_sequences=True, return_state=True)
    outs = rnn(arr("seq"))
    assert rnn.name == ORACLE[key + "_rnn_name"]
    assert paths(rnn) == ORACLE[key + "_rnn_paths"]
    assert len(outs) == 1 + n_states
    for got, want in zip(outs, ORACLE[key + "_rnn"]):
        np.testing.assert_allclose(got.numpy(), np.asarray(want, np.float32), **TOL)
    np.testing.assert_allclose(L.RNN(cell, go_backwards=True)(arr("seq")).numpy(), arr(key + "_rnn_back"), **TOL)
    config = rnn.get_config()
    want = ORACLE[key + "_rnn_cfg"]
    assert list(config) == list(want)
    assert config["cell"]["build_config"] == want["cell"]["build_config"]
    assert {k: v for k, v in config.items() if k not in ("cell", "name")} == \
        {k: v for k, v in want.items() if k not in ("cell", "name")}


def test_stacked_cells_match_keras():
    stack = L.StackedRNNCells([L.SimpleRNNCell(3), L.LSTMCell(2)])
    rnn = L.RNN(stack, return_state=True)
    rnn.build(arr("seq").shape)
    assert paths(rnn) == ORACLE["stack_paths"]
    rnn.set_weights(weights("stack"))
    out, simple_states, lstm_states = rnn(arr("seq"))
    want = ORACLE["stack_rnn"]
    np.testing.assert_allclose(out.numpy(), np.asarray(want[0], np.float32), **TOL)
    np.testing.assert_allclose(np.stack([s.numpy() for s in simple_states]), np.asarray(want[1], np.float32), **TOL)
    np.testing.assert_allclose(np.stack([s.numpy() for s in lstm_states]), np.asarray(want[2], np.float32), **TOL)
    assert stack.state_size == ORACLE["stack_state_size"]
    assert [c["class_name"] for c in stack.get_config()["cells"]] == ["SimpleRNNCell", "LSTMCell"]
    assert list(stack.get_config()) == list(ORACLE["stack_cfg"])


def test_rnn_rejects_what_is_not_a_cell():
    with pytest.raises(ValueError, match=re.escape(error("rnn_notcell")[1])):
        L.RNN(L.Dense(3))


@pytest.mark.parametrize("layer_cls,cell_cls", [(L.SimpleRNN, L.SimpleRNNCell), (L.LSTM, L.LSTMCell),
                                                (L.GRU, L.GRUCell)])
@pytest.mark.parametrize("go_backwards", [False, True])
def test_rnn_of_a_cell_equals_the_layer_with_masks(layer_cls, cell_cls, go_backwards):
    """The layer and RNN(cell) share the step math: with the same weights and a mask they agree, the masked
    steps keeping the states and repeating the last output (Keras' default)."""
    x = np.random.default_rng(0).normal(size=(3, 5, 4)).astype(np.float32)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 1, 0]], bool)
    layer = layer_cls(3, return_sequences=True, return_state=True, go_backwards=go_backwards)
    rnn = L.RNN(cell_cls(3), return_sequences=True, return_state=True, go_backwards=go_backwards)
    want = layer(x, mask=mask)
    rnn(x)
    rnn.set_weights(layer.get_weights())
    got = rnn(x, mask=mask)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)


def test_rnn_in_graph_mode_with_unknown_batch_and_steps():
    rnn = L.RNN(L.LSTMCell(3), return_sequences=True)
    x = arr("seq")
    eager = rnn(x).numpy()
    traced = tf.function(rnn, input_signature=[tf.TensorSpec([None, None, 5], tf.float32)])
    np.testing.assert_allclose(traced(x).numpy(), eager, rtol=1e-6, atol=1e-7)
    initial = [np.ones((2, 3), np.float32), np.zeros((2, 3), np.float32)]
    assert not np.allclose(rnn(x, initial_state=initial).numpy(), eager)


def test_rnn_of_cells_gradients_match_finite_differences():
    rng = np.random.default_rng(4)
    cells = L.StackedRNNCells([L.GRUCell(2, dtype="float64"), L.SimpleRNNCell(2, dtype="float64")], dtype="float64")
    rnn = L.RNN(cells, dtype="float64")
    x = tf.Variable(rng.normal(size=(2, 3, 2)))
    rnn(x)
    assert_gradients_match_finite_differences(lambda: tf.reduce_sum(tf.square(rnn(x))),
                                              [x] + rnn.trainable_weights[:2])


def test_rnn_of_cells_round_trips(tmp_path):
    inp = keras.Input((4, 5))
    seq = L.RNN(L.LSTMCell(3), return_sequences=True)(inp)
    out = L.RNN(L.StackedRNNCells([L.GRUCell(2), L.SimpleRNNCell(2)]))(seq)
    model = keras.Model(inp, out)
    model.save(tmp_path / "r.keras")
    loaded = keras.models.load_model(tmp_path / "r.keras")
    np.testing.assert_allclose(loaded(arr("seq")).numpy(), model(arr("seq")).numpy(), rtol=1e-6)
    assert [w.path for w in loaded.weights] == [w.path for w in model.weights]
    assert [w.path for w in model.weights][0] == "rnn/lstm_cell/kernel"


@pytest.mark.parametrize("traced", [False, True])
def test_cell_dropout_masks_are_drawn_once_per_sequence_and_only_when_training(traced):
    """Keras' cells keep one input dropout mask (and one recurrent mask) for every step of a sequence. With an
    identity kernel, no recurrence and a linear activation, the output at step t is x_t * mask: the same zeros
    at every step."""
    cell = L.SimpleRNNCell(6, activation="linear", dropout=0.5, recurrent_dropout=0.3, use_bias=False)
    rnn = L.RNN(cell, return_sequences=True)
    x = np.ones((8, 5, 6), np.float32)
    rnn(x)
    cell.set_weights([np.eye(6, dtype=np.float32), np.zeros((6, 6), np.float32)])
    run = tf.function(lambda v: rnn(v, training=True)) if traced else (lambda v: rnn(v, training=True))
    out = run(x).numpy()
    assert set(np.unique(out)) <= {0.0, 2.0} and 0 < (out == 0).mean() < 1
    np.testing.assert_array_equal(out, np.broadcast_to(out[:, :1], out.shape))
    np.testing.assert_array_equal(rnn(x).numpy(), x)  # inference: no dropout
    assert not np.array_equal(run(x).numpy(), out)  # a new sequence draws new masks
    assert cell.get_config()["dropout"] == 0.5 and cell.get_config()["recurrent_dropout"] == 0.3


def test_recurrent_dropout_of_an_lstm_cell_applies_only_when_training():
    cell = L.LSTMCell(3, recurrent_dropout=0.5)
    rnn = L.RNN(cell, return_sequences=True)
    x = np.random.default_rng(0).normal(size=(4, 6, 2)).astype(np.float32)
    eager = rnn(x).numpy()
    assert np.array_equal(rnn(x, training=False).numpy(), eager)
    assert not np.allclose(rnn(x, training=True).numpy(), eager)
