"""SimpleRNN / GRU / LSTM against TensorFlow 2.21's Keras (same weights, same input), eagerly and
under tf.function (where the time loop is a While op), with gradients against finite differences."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

X = np.round(np.cos(np.arange(24) * 0.7).reshape(2, 3, 4), 3).astype(np.float32)

# TF 2.21: output[1, 1] of the sequence, then the final states of sample 0.
EXPECTED = {
    ("SimpleRNN", False): ([0.21647199988365173, 0.12653200328350067, 0.016892999410629272, -0.0962430015206337,
                            -0.19261500239372253],
                           [[0.38522401452064514, 0.31930699944496155, 0.20755399763584137, 0.061921000480651855,
                             -0.09415300190448761]]),
    ("SimpleRNN", True): ([0.255964994430542, 0.16584700345993042, 0.04972900077700615, -0.07564699649810791,
                           -0.1865530014038086],
                          [[0.5061879754066467, 0.4651010036468506, 0.3643679916858673, 0.20611299574375153,
                            0.007404999807476997]]),
    ("GRU", False): ([0.0854329988360405, 0.06207999959588051, 0.05032699927687645, 0.06520900130271912,
                      0.1006150022149086],
                     [[-0.10944300144910812, -0.12002000212669373, -0.07474800199270248, 0.008988999761641026,
                       0.09981799870729446]]),
    ("GRU", True): ([0.0499190017580986, 0.027806999161839485, 0.00559999980032444, 0.007259000092744827,
                     0.038307998329401016],
                    [[-0.25181299448013306, -0.20792099833488464, -0.10545799881219864, 0.021856000646948814,
                      0.1415410041809082]]),
    ("LSTM", False): ([-0.14333400130271912, -0.031049000099301338, 0.0766180008649826, 0.13160200417041779,
                       0.13297699391841888],
                      [[-0.2174459993839264, -0.1803629994392395, -0.09654200077056885, 0.013659999705851078,
                        0.10336899757385254],
                       [-0.3675059974193573, -0.28338098526000977, -0.14541499316692352, 0.0206339992582798,
                        0.1642950028181076]]),
    ("LSTM", True): ([-0.18587900698184967, -0.0841120034456253, 0.025019999593496323, 0.08978799730539322,
                      0.10329999774694443],
                     [[-0.17651599645614624, -0.18824400007724762, -0.16307899355888367, -0.09383899718523026,
                       0.0026680000592023134],
                      [-0.3440279960632324, -0.33195799589157104, -0.2651340067386627, -0.14473900198936462,
                       0.004062999971210957]]),
}


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _weights(layer):
    return [np.round(np.sin(np.arange(int(np.prod(w.shape.as_list()))) * 0.37 + k) * 0.3, 3)
            .reshape(w.shape.as_list()).astype(np.float32) for k, w in enumerate(layer.weights)]


@pytest.mark.parametrize("in_function", [False, True])
@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_outputs_match_keras(key, in_function):
    name, backwards = key
    layer = getattr(keras.layers, name)(5, return_sequences=True, return_state=True, go_backwards=backwards)
    layer(X)
    layer.set_weights(_weights(layer))
    call = tf.function(lambda x: layer(x)) if in_function else layer
    out = call(tf.constant(X))
    seq_row, states = EXPECTED[key]
    assert out[0].shape == (2, 3, 5) and len(out) == 1 + len(states)
    np.testing.assert_allclose(out[0].numpy()[1, 1], seq_row, rtol=1e-5, atol=1e-6)
    for got, want in zip(out[1:], states):
        np.testing.assert_allclose(got.numpy()[0], want, rtol=1e-5, atol=1e-6)


def test_weight_paths_shapes_and_initialisers():
    for cls, shapes, path in ((keras.layers.SimpleRNN, [(4, 5), (5, 5), (5,)], "simple_rnn/simple_rnn_cell/"),
                              (keras.layers.GRU, [(4, 15), (5, 15), (2, 15)], "gru/gru_cell/"),
                              (keras.layers.LSTM, [(4, 20), (5, 20), (20,)], "lstm/lstm_cell/")):
        layer = cls(5)
        assert layer(X).shape == (2, 5)
        assert [w.path for w in layer.weights] == [path + n for n in ("kernel", "recurrent_kernel", "bias")]
        assert [tuple(w.shape.as_list()) for w in layer.weights] == shapes
        rk = layer.recurrent_kernel.numpy()
        np.testing.assert_allclose(rk @ rk.T, np.eye(5), atol=1e-5)  # orthogonal (orthonormal rows)
    lstm_bias = keras.layers.LSTM(3)
    lstm_bias(X)
    np.testing.assert_array_equal(lstm_bias.bias.numpy(), [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0])  # unit_forget_bias


def test_lstm_gradients_match_finite_differences_in_a_traced_step():
    layer = keras.layers.LSTM(3)
    layer(X)
    layer.set_weights(_weights(layer))

    @tf.function
    def loss_and_grads():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(layer(tf.constant(X))))
        return loss, tape.gradient(loss, layer.trainable_variables)

    _, grads = loss_and_grads()
    assert layer.__class__.__name__ == "LSTM"
    base = layer.get_weights()
    for wi, index in ((0, (1, 2)), (1, (2, 7)), (2, (4,))):
        def loss_at(delta):
            ws = [w.copy() for w in base]
            ws[wi] = ws[wi].astype(np.float64)
            ws[wi][index] += delta
            layer.set_weights([w.astype(np.float32) for w in ws])
            return float(tf.reduce_sum(tf.square(layer(X))))
        eps = 1e-2
        numeric = (loss_at(eps) - loss_at(-eps)) / (2 * eps)
        layer.set_weights(base)
        assert grads[wi].numpy()[index] == pytest.approx(numeric, rel=2e-2, abs=2e-4)


def test_rnn_model_trains_with_fit():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 5, 2)).astype(np.float32)
    y = (x[:, :, 0].sum(axis=1) > 0).astype(np.int32)
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((5, 2)), keras.layers.GRU(8), keras.layers.Dense(2)])
    m.compile(keras.optimizers.Adam(0.05), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    h = m.fit(x, y, batch_size=16, epochs=8, verbose=0)
    assert h.history["loss"][-1] < 0.7 * h.history["loss"][0] and h.history["accuracy"][-1] > 0.8
