"""Shape layers (Permute, RepeatVector, Rescaling, ZeroPadding2D, UpSampling2D, Cropping2D) and 1-D
convolution/pooling (Conv1D, MaxPooling1D, AveragePooling1D, global poolings) against TensorFlow 2.21's
Keras 3.15: outputs with identical weights, weight paths, configs, rank errors and gradients."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layer_oracle import ORACLE, arr, config_without_name, error

L = keras.layers
IMG = np.arange(2 * 3 * 4 * 2, dtype=np.float32).reshape(2, 3, 4, 2)


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _same_config(layer, key):
    """The config Keras wrote, name aside (initializers with Keras 3.15's input_axes/output_axes)."""
    ours, theirs = layer.get_config(), config_without_name(key)
    ours.pop("name")
    assert ours == theirs


def _raises_like(key, call):
    kind, message = error(key)
    with pytest.raises(ValueError, match=re.escape(message.split("\n\n")[1].strip("\x1b[1m").split("\x1b")[0])
                       if "\n\n" in message else re.escape(message)):
        call()


def test_permute_and_repeat_vector_match_keras():
    xp = arr("xp")
    np.testing.assert_array_equal(L.Permute((2, 1))(xp).numpy(), arr("permute"))
    _same_config(L.Permute((2, 1)), "permute_cfg")
    _raises_like("permute_bad", lambda: L.Permute((1, 3)))
    np.testing.assert_array_equal(L.RepeatVector(2)(arr("a")).numpy(), arr("repeat"))
    _same_config(L.RepeatVector(3), "repeat_cfg")
    keras.backend.clear_session()
    L.RepeatVector(2), L.RepeatVector(2)  # the oracle's third repeat_vector raised
    _raises_like("repeat_bad", lambda: L.RepeatVector(2)(xp))


def test_rescaling_matches_keras():
    out = L.Rescaling(1 / 255.0, offset=-1)(np.array([[0.0, 255.0, 127.0]], np.float32))
    np.testing.assert_allclose(out.numpy(), arr("rescale"), rtol=1e-6)
    _same_config(L.Rescaling(0.5, offset=1.0), "rescale_cfg")
    assert L.Rescaling(2.0)(np.array([3], np.int32)).dtype == tf.float32  # integer pixels become the layer dtype


def test_zero_padding_upsampling_cropping_match_keras():
    padded = L.ZeroPadding2D(((1, 0), (2, 1)))(IMG).numpy()
    assert padded.shape == tuple(ORACLE["zp"])
    np.testing.assert_array_equal(padded, np.pad(IMG, [(0, 0), (1, 0), (2, 1), (0, 0)]))
    _same_config(L.ZeroPadding2D(1), "zp_cfg")
    _same_config(L.ZeroPadding2D((1, 2)), "zp_cfg2")
    _raises_like("zp_bad", lambda: L.ZeroPadding2D((1, 2, 3)))
    assert L.UpSampling2D((2, 3))(IMG).shape == tuple(ORACLE["up"])
    np.testing.assert_array_equal(L.UpSampling2D(2)(IMG[:1, :2, :2, :1]).numpy(), arr("up_val"))
    _same_config(L.UpSampling2D(), "up_cfg")
    np.testing.assert_array_equal(L.Cropping2D(((1, 0), (1, 2)))(IMG).numpy(), arr("crop"))
    _same_config(L.Cropping2D(1), "crop_cfg")
    with pytest.raises(ValueError, match=re.escape("Values in `cropping` argument should be smaller than the "
                                                   "corresponding spatial dimension of the input. Received: "
                                                   "inputs.shape=(2, 3, 4, 2), cropping=((2, 1), (0, 0))")):
        L.Cropping2D(((2, 1), (0, 0)))(IMG)
    assert "Values in `cropping` argument should be smaller" in error("crop_bad")[1]


def test_upsampling_and_cropping_gradients_route_back():
    x = tf.Variable(IMG)
    with tf.GradientTape() as tape:
        y = L.UpSampling2D((2, 3))(x)
        z = L.Cropping2D(((1, 0), (1, 2)))(x)
        loss = tf.reduce_sum(y) + tf.reduce_sum(z)
    expected = np.full(IMG.shape, 6.0, np.float32)  # each pixel copied 2 * 3 times
    expected[:, 1:, 1:2, :] += 1  # the cropped window's pixels
    np.testing.assert_array_equal(tape.gradient(loss, x).numpy(), expected)


@pytest.mark.parametrize("padding", ["valid", "same", "causal"])
@pytest.mark.parametrize("strides,dilation", [(1, 1), (2, 1), (1, 2)])
def test_conv1d_matches_keras(padding, strides, dilation):
    conv = L.Conv1D(2, 3, strides=strides, padding=padding, dilation_rate=dilation)
    conv.build((None, 7, 3))
    conv.set_weights([arr("k1"), np.array([0.1, -0.2], np.float32)])
    np.testing.assert_allclose(conv(arr("seq")).numpy(), arr(f"conv1d_{padding}_{strides}_{dilation}"),
                               rtol=1e-5, atol=1e-5)


def test_conv1d_weights_config_and_errors_match_keras():
    conv = L.Conv1D(2, 3, padding="causal", dilation_rate=2)
    conv.build((None, 7, 3))
    assert [[w.path, list(w.shape)] for w in conv.weights] == [["conv1d/kernel", [3, 3, 2]], ["conv1d/bias", [2]]]
    assert ORACLE["conv1d_w"] == [["conv1d_8/kernel", [3, 3, 2]], ["conv1d_8/bias", [2]]]
    _same_config(conv, "conv1d_cfg")
    _raises_like("conv1d_causal_stride", lambda: L.Conv1D(2, 3, strides=2, dilation_rate=2))
    keras.backend.clear_session()
    for _ in range(10):
        L.Conv1D(2, 3)
    _raises_like("conv1d_bad", lambda: L.Conv1D(2, 3)(arr("a")))


def test_conv1d_kernel_gradient_matches_numpy():
    conv = L.Conv1D(2, 3, padding="causal")
    seq = arr("seq")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(conv(seq))
    grad = tape.gradient(loss, conv.kernel).numpy()
    padded = np.pad(seq, [(0, 0), (2, 0), (0, 0)])
    # d(sum y)/d kernel[j, c, o] = sum over batch and output steps t of padded[b, t + j, c]
    expected = np.stack([padded[:, j:j + 7, :].sum(axis=(0, 1)) for j in range(3)])[:, :, None].repeat(2, axis=2)
    np.testing.assert_allclose(grad, expected, rtol=1e-5)


def test_pooling_1d_matches_keras():
    seq = arr("seq")
    for name, cls in [("maxp", L.MaxPooling1D), ("avgp", L.AveragePooling1D)]:
        np.testing.assert_allclose(cls(2)(seq).numpy(), arr(name), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(cls(3, 2, padding="same")(seq).numpy(), arr(name + "_same"), rtol=1e-6, atol=1e-7)
        _same_config(cls(2), name + "_cfg")
    np.testing.assert_allclose(L.GlobalAveragePooling1D()(seq).numpy(), arr("gap1"), rtol=1e-5, atol=1e-7)
    _same_config(L.GlobalAveragePooling1D(), "gap1_cfg")
    np.testing.assert_array_equal(L.GlobalMaxPooling1D(keepdims=True)(seq).numpy(), arr("gmp1"))
    _same_config(L.GlobalMaxPooling1D(), "gmp1_cfg")
    np.testing.assert_array_equal(L.GlobalMaxPooling2D()(IMG).numpy(), arr("gmp2"))
    _same_config(L.GlobalMaxPooling2D(), "gmp2_cfg")


def test_pooling_names_and_rank_errors_match_keras():
    keras.backend.clear_session()
    L.GlobalMaxPooling2D(), L.GlobalMaxPooling1D(), L.MaxPooling1D(), L.MaxPooling1D(), L.MaxPooling1D(2)
    L.AveragePooling1D(2), L.AveragePooling1D(2), L.AveragePooling1D(2)
    names = [L.GlobalMaxPooling2D().name, L.GlobalMaxPool1D().name, L.MaxPool1D().name, L.AvgPool1D(2).name]
    assert names == ["global_max_pooling2d_1", "global_max_pooling1d_1", "max_pooling1d_3", "average_pooling1d_3"]
    assert ORACLE["gmp2_names"][2:] == names[2:]
    keras.backend.clear_session()
    L.GlobalAveragePooling1D(), L.GlobalAveragePooling1D()
    _raises_like("gap1_bad", lambda: L.GlobalAveragePooling1D()(IMG))
    keras.backend.clear_session()
    for _ in range(4):
        L.MaxPooling1D()
    _raises_like("maxp_bad", lambda: L.MaxPooling1D()(IMG))


def test_global_average_pooling_1d_averages_only_unmasked_steps():
    ids = np.array([[3, 1, 0, 0], [2, 2, 2, 1]], np.int32)
    emb = L.Embedding(4, 2, mask_zero=True)
    y = L.GlobalAveragePooling1D()(emb(ids)).numpy()
    table = emb.embeddings.numpy()
    np.testing.assert_allclose(y[0], table[[3, 1]].mean(0), rtol=1e-6)
    np.testing.assert_allclose(y[1], table[[2, 2, 2, 1]].mean(0), rtol=1e-6)


def test_rank_errors_are_the_same_eagerly_and_under_tf_function():
    layer = L.RepeatVector(2)
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3") as eager:
        layer(arr("xp"))
    graph = tf.function(lambda x: layer(x))
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3") as traced:
        graph(arr("xp"))
    assert str(eager.value) == str(traced.value)


def test_dropped_layers_are_collected():
    import gc
    import weakref
    refs = []
    for _ in range(200):
        layers = [L.PReLU(), L.Conv1D(2, 3), L.TimeDistributed(L.Dense(2)), L.Bidirectional(L.SimpleRNN(2))]
        x = arr("seq")
        layers[1](x), layers[2](x), layers[3](x), layers[0](x)
        refs.extend(weakref.ref(layer) for layer in layers)
        del layers
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
