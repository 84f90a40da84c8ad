"""The layers of issue 24 point 6 inside models, as tutorials use them: a ConvLSTM2D next-frame model on
an Input with an unknown number of frames, Keras-reported output shapes and parameter counts for symbolic
calls, and gradients of the composite layers (Conv3DTranspose, ConvLSTM) against finite differences."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layers2_oracle import assert_gradients_match_finite_differences

L = keras.layers


def test_conv_lstm_next_frame_model_with_unknown_time():
    # Keras 3.15: the next-frame tutorial's stack on Input((None, 8, 8, 1)); output (None, None, 8, 8, 1),
    # and ConvLSTM2D(4, 3, padding="same") on one channel has 736 weights
    inputs = keras.Input(shape=(None, 8, 8, 1))
    x = L.ConvLSTM2D(4, 3, padding="same", return_sequences=True)(inputs)
    outputs = L.Conv3D(1, 3, padding="same", activation="sigmoid")(x)
    model = keras.Model(inputs, outputs)
    assert tuple(outputs.shape) == (None, None, 8, 8, 1)
    assert model.layers[1].count_params() == 736
    frames = np.random.default_rng(0).random((2, 5, 8, 8, 1)).astype(np.float32)
    predicted = model.predict(frames, verbose=0)
    assert predicted.shape == (2, 5, 8, 8, 1)
    np.testing.assert_allclose(predicted, np.asarray(model(frames)), rtol=1e-5, atol=1e-6)
    model.compile(optimizer="adam", loss="binary_crossentropy")
    history = model.fit(frames, frames, epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()


@pytest.mark.parametrize("layer, in_shape, out_shape, params", [
    # shapes and parameter counts as Keras 3.15 reports them for a symbolic call
    (lambda: L.ConvLSTM1D(3, 2), (4, 6, 2), (None, 5, 3), 132),
    (lambda: L.ConvLSTM3D(2, 2, return_sequences=True), (3, 4, 4, 4, 1), (None, 3, 3, 3, 3, 2), 200),
    (lambda: L.Conv3DTranspose(4, 3, strides=2, padding="same"), (3, 4, 5, 2), (None, 6, 8, 10, 4), 220),
    (lambda: L.DepthwiseConv1D(3, depth_multiplier=2), (7, 3), (None, 5, 6), 24),
    (lambda: L.SeparableConv1D(4, 3, depth_multiplier=2), (7, 3), (None, 5, 4), 46),
    (lambda: L.AdaptiveAveragePooling2D((2, 3)), (7, 8, 3), (None, 2, 3, 3), 0),
    (lambda: L.AdaptiveMaxPooling3D(2), (5, 4, 3, 2), (None, 2, 2, 2, 2), 0),
])
def test_symbolic_shapes_and_parameter_counts(layer, in_shape, out_shape, params):
    instance = layer()
    y = instance(keras.Input(shape=in_shape))
    assert tuple(y.shape) == out_shape
    assert instance.count_params() == params


def test_conv3d_transpose_gradients_match_finite_differences():
    layer = L.Conv3DTranspose(2, (3, 2, 2), strides=(2, 1, 2), padding="same", dtype="float64")
    x = tf.constant(np.random.default_rng(1).standard_normal((1, 2, 3, 2, 2)))
    layer(x)
    assert_gradients_match_finite_differences(lambda: tf.reduce_sum(tf.sin(layer(x))), layer.trainable_weights)


def test_conv_lstm_gradients_match_finite_differences():
    layer = L.ConvLSTM1D(2, 2, padding="same", dtype="float64")
    x = tf.constant(np.random.default_rng(2).standard_normal((1, 3, 4, 1)))
    layer(x)
    assert_gradients_match_finite_differences(lambda: tf.reduce_sum(layer(x) ** 2), layer.trainable_weights)


def test_group_query_attention_symbolic_call_errors_and_fully_masked_rows():
    # Keras 3.15: output (None, 3, 6) and 326 weights; 5 query heads over 2 key/value heads is a ValueError;
    # a query that may see no value gets all-zero scores (the softmax path, not a uniform row)
    layer = L.GroupQueryAttention(4, 4, 2)
    y = layer(keras.Input((3, 6)), keras.Input((5, 6)))
    assert tuple(y.shape) == (None, 3, 6) and layer.count_params() == 326
    with pytest.raises(ValueError, match="`num_query_heads` must be divisible by `num_key_value_heads`."):
        L.GroupQueryAttention(2, 5, 2)
    x = np.random.default_rng(0).standard_normal((1, 2, 3)).astype(np.float32)
    mask = np.array([[[False, False], [True, True]]])
    _, scores = L.GroupQueryAttention(2, 2, 1)(x, x, attention_mask=mask, return_attention_scores=True)
    np.testing.assert_array_equal(np.asarray(scores)[0, :, 0], 0.0)
    np.testing.assert_allclose(np.asarray(scores)[0, :, 1].sum(-1), 1.0, rtol=1e-6)


def test_reversible_embedding_ties_input_and_output_of_a_language_model():
    """The table looks ids up forwards and scores hidden vectors against every row backwards (Keras 3.15:
    a tied layer has the one (vocab, dim) weight)."""
    layer = L.ReversibleEmbedding(6, 3)
    ids = keras.Input((4,), dtype="int32")
    hidden = layer(ids)
    logits = layer(L.Activation("tanh")(hidden), reverse=True)
    model = keras.Model(ids, logits)
    assert tuple(logits.shape) == (None, 4, 6) and len(layer.weights) == 1
    table = np.asarray(layer.embeddings)
    np.testing.assert_allclose(np.asarray(layer(np.array([[5, 0]]))), table[[[5, 0]]])
    out = model.predict(np.array([[1, 2, 3, 4]]), verbose=0)
    assert out.shape == (1, 4, 6)


def test_spectral_normalization_keeps_the_largest_singular_value_near_one_in_training():
    layer = L.SpectralNormalization(L.Dense(4), power_iterations=1)
    x = np.random.default_rng(3).standard_normal((2, 5)).astype(np.float32)
    layer(x)
    for _ in range(30):
        layer(x, training=True)
    assert abs(np.linalg.svd(np.asarray(layer.layer.kernel), compute_uv=False)[0] - 1.0) < 1e-3
    with pytest.raises(ValueError, match="`power_iterations` should be greater than zero"):
        L.SpectralNormalization(L.Dense(2), power_iterations=0)


def test_mel_spectrogram_on_a_symbolic_waveform():
    # Keras 3.15: MelSpectrogram(num_mel_bins=40) on Input((16000,)) gives (None, 40, 32)
    y = L.MelSpectrogram(num_mel_bins=40)(keras.Input((16000,)))
    assert tuple(y.shape) == (None, 40, 32)
    with pytest.raises(ValueError, match="`fft_length` must be greater than or equal to"):
        L.MelSpectrogram(fft_length=16, sequence_length=32)


@pytest.mark.parametrize("window, periodic, scaling", [("hann", False, "density"), ("hann", True, "spectrum"),
                                                       ("hamming", False, None)])
def test_stft_spectrogram_kernels_are_windowed_dft_rows(window, periodic, scaling):
    """The default kernels: cos/sin(-2 pi t f / fft_length) times the window (NumPy's symmetric windows; a
    periodic window is the symmetric one of length + 1 without its last point), over the window's L2 norm
    ("density") or sum ("spectrum")."""
    layer = L.STFTSpectrogram(mode="stft", frame_length=8, fft_length=8, window=window, periodic=periodic,
                              scaling=scaling)
    layer.build((None, 32, 1))
    make = np.hanning if window == "hann" else np.hamming
    win = make(9)[:-1] if periodic else make(8)
    scale = {"density": np.sqrt((win ** 2).sum()), "spectrum": np.abs(win).sum(), None: 1.0}[scaling]
    t, f = np.arange(8)[:, None], np.arange(5)[None, :]
    np.testing.assert_allclose(np.asarray(layer.real_kernel)[:, 0], np.cos(-2 * np.pi * t * f / 8) * win[:, None]
                               / scale, atol=1e-6)
    np.testing.assert_allclose(np.asarray(layer.imag_kernel)[:, 0], np.sin(-2 * np.pi * t * f / 8) * win[:, None]
                               / scale, atol=1e-6)
    signal = np.random.default_rng(4).standard_normal((1, 32, 1)).astype(np.float32)
    out = np.asarray(layer(signal))  # (1, frames, 10): real then imaginary parts of each frame's rfft
    frames = np.stack([signal[0, i:i + 8, 0] * win / scale for i in range(0, 25, 4)])
    expected = np.fft.rfft(frames, axis=-1)
    np.testing.assert_allclose(out[0], np.concatenate([expected.real, expected.imag], -1), atol=1e-4)


def test_stft_spectrogram_symbolic_shapes():
    # Keras 3.15: (None, 13, 18) for frame_length 16, step 4 on (64, 2)
    assert tuple(L.STFTSpectrogram(frame_length=16, frame_step=4)(keras.Input((64, 2))).shape) == (None, 13, 18)
