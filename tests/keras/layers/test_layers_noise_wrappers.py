"""Noise layers (SpatialDropout1D, GaussianNoise, GaussianDropout) and wrappers (TimeDistributed,
Bidirectional) against TensorFlow 2.21's Keras 3.15; the .keras round trip of a model using the new layers."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layer_oracle import ORACLE, arr, config_without_name, error

L = keras.layers


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def test_noise_layers_pass_inputs_through_at_inference():
    x = arr("seq")
    for layer in (L.SpatialDropout1D(0.5), L.GaussianNoise(0.3), L.GaussianDropout(0.3)):
        np.testing.assert_array_equal(layer(x).numpy(), x)
        np.testing.assert_array_equal(layer(x, training=False).numpy(), x)


def test_spatial_dropout_drops_whole_channels_when_training():
    x = np.ones((64, 5, 8), np.float32)
    y = L.SpatialDropout1D(0.5)(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert (y == y[:, :1, :]).all()  # one draw per (sample, channel), shared by every step
    assert 0.3 < (y == 0).mean() < 0.7


def test_gaussian_noise_and_dropout_statistics_when_training():
    x = np.full((200, 100), 3.0, np.float32)
    noisy = L.GaussianNoise(0.5)(x, training=True).numpy() - 3.0
    assert abs(noisy.mean()) < 0.02 and abs(noisy.std() - 0.5) < 0.02
    scaled = L.GaussianDropout(0.2)(x, training=True).numpy() / 3.0  # N(1, sqrt(0.2 / 0.8) = 0.5)
    assert abs(scaled.mean() - 1.0) < 0.02 and abs(scaled.std() - 0.5) < 0.02


def test_noise_configs_and_errors_match_keras():
    assert L.SpatialDropout1D(0.5).get_config() == ORACLE["sd_cfg"]  # Keras 3 writes just these four keys
    assert L.GaussianNoise(0.1).get_config() == ORACLE["gn_cfg"]
    assert L.GaussianDropout(0.1).get_config() == ORACLE["gd_cfg"]
    for key, call in [("gd_rate", lambda: L.GaussianDropout(1.5)), ("gn_std", lambda: L.GaussianNoise(-1)),
                      ("sd_rate", lambda: L.SpatialDropout1D(1.5))]:
        with pytest.raises(ValueError, match=re.escape(error(key)[1])):
            call()
    keras.backend.clear_session()
    L.SpatialDropout1D(0.5)
    with pytest.raises(ValueError, match=re.escape(error("sd_bad")[1])):
        L.SpatialDropout1D(0.5)(np.ones((2, 3, 4, 2), np.float32), training=True)


def test_time_distributed_matches_keras():
    td = L.TimeDistributed(L.Dense(2))
    td(arr("seq"))
    assert td.name == ORACLE["td_name"]
    assert [[w.name, w.path, list(w.shape)] for w in td.weights] == ORACLE["td_w"]
    td.set_weights([arr("kk"), np.array([0.1, -0.2], np.float32)])
    np.testing.assert_allclose(td(arr("seq")).numpy(), arr("td_out"), rtol=1e-5, atol=1e-6)
    config = td.get_config()
    assert sorted(config) == sorted(ORACLE["td_cfg"])
    assert config["layer"]["class_name"] == "Dense" and config["layer"]["config"]["name"] == "dense"
    with pytest.raises(ValueError, match=re.escape(error("td_bad")[1])):
        L.TimeDistributed(L.Dense(2))(arr("a"))
    with pytest.raises(ValueError, match=re.escape(error("td_notlayer")[1])):
        L.TimeDistributed(3)


def test_time_distributed_gradient_matches_numpy():
    td = L.TimeDistributed(L.Dense(2))
    seq = arr("seq")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(td(seq))
    kernel_grad = tape.gradient(loss, td.layer.kernel).numpy()
    np.testing.assert_allclose(kernel_grad, np.repeat(seq.sum(axis=(0, 1))[:, None], 2, axis=1), rtol=1e-5)


@pytest.mark.parametrize("rnn", ["LSTM", "GRU", "SimpleRNN"])
def test_bidirectional_matches_keras(rnn):
    bi = L.Bidirectional(getattr(L, rnn)(2, return_sequences=True))
    bi.build((None, 7, 3))
    assert [[w.name, w.path, list(w.shape)] for w in bi.weights] == ORACLE[f"bi_{rnn}_w"]
    assert [bi.name, bi.forward_layer.name, bi.backward_layer.name] == ORACLE[f"bi_{rnn}_names"]
    weights = [np.asarray(w, np.float32) for w in ORACLE[f"bi_{rnn}_ws"]]
    seq = arr("seq")
    for mode in ["concat", "sum", "ave", "mul", None]:
        layer = L.Bidirectional(getattr(L, rnn)(2, return_sequences=True), merge_mode=mode)
        layer.build((None, 7, 3))
        layer.set_weights(weights)
        out = layer(seq)
        expected = ORACLE[f"bi_{rnn}_{mode}"]
        if mode is None:
            assert len(out) == 2
            for got, want in zip(out, expected):
                np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_allclose(out.numpy(), np.asarray(expected), rtol=1e-5, atol=1e-6)
    last = L.Bidirectional(getattr(L, rnn)(2))
    last.build((None, 7, 3))
    last.set_weights(weights)
    np.testing.assert_allclose(last(seq).numpy(), arr(f"bi_{rnn}_last"), rtol=1e-5, atol=1e-6)
    assert bi.get_config() == ORACLE[f"bi_{rnn}_cfg"]  # initializers with Keras 3.15's input_axes/output_axes


def test_bidirectional_return_state_and_errors_match_keras():
    out = L.Bidirectional(L.LSTM(2, return_state=True))(arr("seq"))
    assert len(out) == ORACLE["bi_state_len"]
    assert [list(t.shape) for t in out] == ORACLE["bi_state_shapes"]
    with pytest.raises(ValueError, match=re.escape(error("bi_mode")[1])):
        L.Bidirectional(L.LSTM(2), merge_mode="x")
    assert error("bi_notlayer")[0] == "TypeError"
    with pytest.raises(TypeError, match="Dense"):
        L.Bidirectional(L.Dense(2))


def test_bidirectional_gradient_matches_finite_differences():
    bi = L.Bidirectional(L.SimpleRNN(2, return_sequences=True, dtype="float64"), merge_mode="sum", dtype="float64")
    seq = arr("seq").astype(np.float64)
    bi.build((None, 7, 3))
    kernel = bi.backward_layer.kernel
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(bi(seq)))
    grad = tape.gradient(loss, kernel).numpy()
    k0, eps = kernel.numpy(), 1e-6
    numeric = np.zeros_like(k0)
    for idx in np.ndindex(*k0.shape):
        values = []
        for sign in (1, -1):
            k = k0.copy()
            k[idx] += sign * eps
            kernel.assign(k)
            values.append(float(tf.reduce_sum(tf.square(bi(seq)))))
        numeric[idx] = (values[0] - values[1]) / (2 * eps)
    kernel.assign(k0)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-8)


def test_model_with_new_layers_round_trips_through_a_keras_file(tmp_path):
    inputs = keras.Input((7, 3))
    x = L.Conv1D(4, 3, padding="causal")(inputs)
    x = L.LeakyReLU(0.1)(x)
    x = L.PReLU(shared_axes=[1])(x)
    x = L.SpatialDropout1D(0.2)(x)
    x = L.Bidirectional(L.GRU(3, return_sequences=True), merge_mode="ave")(x)
    x = L.TimeDistributed(L.Dense(2))(x)
    y = L.MaxPooling1D(2, padding="same")(x)
    z = L.GlobalAveragePooling1D()(x)
    m = L.Multiply()([L.RepeatVector(4)(z), y])
    out = L.Dot(axes=(1, 1), normalize=True)([m, L.GaussianNoise(0.1)(y)])
    model = keras.Model(inputs, L.Flatten()(L.Permute((2, 1))(out)))
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    seq = arr("seq")
    np.testing.assert_allclose(loaded.predict(seq, verbose=0), model.predict(seq, verbose=0), rtol=1e-6)
    assert [w.path for w in loaded.weights] == [w.path for w in model.weights]
    assert [type(layer).__name__ for layer in loaded.layers] == [type(layer).__name__ for layer in model.layers]


def test_image_model_with_new_layers_round_trips(tmp_path):
    inputs = keras.Input((6, 6, 2))
    x = L.Rescaling(1 / 255.0, offset=-0.5)(inputs)
    x = L.ZeroPadding2D(((1, 0), (0, 1)))(x)
    x = L.UpSampling2D(2)(x)
    x = L.Cropping2D(((1, 1), (2, 0)))(x)
    x = L.ELU(0.5)(x)
    model = keras.Model(inputs, L.Average()([L.GlobalMaxPooling2D()(x), L.GlobalMaxPooling2D()(L.Identity()(x))]))
    model.save(tmp_path / "i.keras")
    loaded = keras.models.load_model(tmp_path / "i.keras")
    img = np.arange(2 * 6 * 6 * 2, dtype=np.float32).reshape(2, 6, 6, 2)
    np.testing.assert_allclose(loaded.predict(img, verbose=0), model.predict(img, verbose=0), rtol=1e-6)


def test_new_layers_give_the_same_values_under_tf_function_with_an_unknown_batch():
    layers = [L.Conv1D(4, 3, padding="causal"), L.PReLU(shared_axes=[1]), L.SpatialDropout1D(0.5),
              L.Bidirectional(L.GRU(3, return_sequences=True)), L.TimeDistributed(L.Dense(2)),
              L.MaxPooling1D(2, padding="same"), L.Permute((2, 1)), L.GlobalMaxPooling1D(keepdims=True)]

    def run(x):
        for layer in layers:
            x = layer(x)
        return x
    seq = arr("seq")
    eager = run(seq).numpy()
    graph = tf.function(run, input_signature=[tf.TensorSpec([None, 7, 3], tf.float32)])
    np.testing.assert_allclose(graph(seq).numpy(), eager, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(graph(seq[:1]).numpy(), eager[:1], rtol=1e-5, atol=1e-6)


def test_symbolic_shapes_keep_the_step_count_as_keras_shows_it():
    # Keras 3.15: LSTM(4, return_sequences=True) on Input((7, 3)) is (None, 7, 4); the wrappers keep it too
    x = keras.Input((7, 3))
    assert tuple(L.LSTM(4, return_sequences=True)(x).shape) == (None, 7, 4)
    b = L.Bidirectional(L.GRU(4, return_sequences=True))(x)
    assert tuple(b.shape) == (None, 7, 8)
    assert tuple(L.TimeDistributed(L.Dense(2))(b).shape) == (None, 7, 2)
    states = L.Bidirectional(L.LSTM(2, return_state=True))(x)
    assert [tuple(s.shape) for s in states] == [(None, 4), (None, 2), (None, 2), (None, 2), (None, 2)]
    video = keras.Input((None, 6, 6, 3))
    assert tuple(L.TimeDistributed(L.Conv2D(2, 3))(video).shape) == (None, None, 4, 4, 2)


def test_fit_trains_a_model_of_the_new_layers():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 7, 3)).astype(np.float32)
    y = (x.sum(axis=(1, 2)) > 0).astype(np.float32)
    inp = keras.Input((7, 3))
    h = L.GaussianNoise(0.05)(inp)
    h = L.Conv1D(8, 3, padding="causal", activation="relu")(h)
    h = L.SpatialDropout1D(0.1)(h)
    h = L.Bidirectional(L.GRU(4, return_sequences=True))(h)
    h = L.TimeDistributed(L.Dense(4))(h)
    h = L.GaussianDropout(0.1)(h)
    model = keras.Model(inp, L.Dense(1, activation="sigmoid")(L.GlobalMaxPooling1D()(h)))
    model.compile(keras.optimizers.Adam(0.03), "binary_crossentropy")
    losses = model.fit(x, y, epochs=20, batch_size=16, verbose=0).history["loss"]
    assert losses[-1] < 0.6 * losses[0]  # the sum's sign is easy to learn: the loss falls far from log(2)
