"""ZeroPadding1D/3D, Cropping1D/3D, UpSampling1D/3D, UpSampling2D(bilinear), Conv3D, Conv1DTranspose, 3-D
pooling and the functional merge forms (keras.layers.add, ...) against TensorFlow 2.21's Keras 3.15: values
with identical weights, weight paths, configs, errors; Conv3D/pooling against a NumPy reference too, gradients
by finite differences, graph mode and the .keras round trip."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layers2_oracle import (ORACLE, arr, assert_gradients_match_finite_differences, config_matches,
                                        error, paths, weights)

L = keras.layers
TOL = dict(rtol=1e-5, atol=1e-5)
SHAPE_LAYERS = [("zp1", lambda: L.ZeroPadding1D((1, 2)), "s3"),
                ("zp3", lambda: L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), "s5"),
                ("cr1", lambda: L.Cropping1D((1, 2)), "s3"), ("cr3", lambda: L.Cropping3D(((1, 0), (0, 2), (1, 1))), "s5"),
                ("up1", lambda: L.UpSampling1D(3), "s3"), ("up3", lambda: L.UpSampling3D((2, 1, 2)), "s5"),
                ("up2b", lambda: L.UpSampling2D((2, 3), interpolation="bilinear"), "img"),
                ("gap3", lambda: L.GlobalAveragePooling3D(), "s5"), ("gmp3", lambda: L.GlobalMaxPooling3D(keepdims=True), "s5"),
                ("mp3", lambda: L.MaxPooling3D((2, 2, 2)), "s5"),
                ("ap3", lambda: L.AveragePooling3D((2, 2, 3), strides=1), "s5")]


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


@pytest.mark.parametrize("key,make,x", SHAPE_LAYERS)
def test_shape_layers_match_keras(key, make, x):
    layer = make()
    np.testing.assert_allclose(layer(arr(x)).numpy(), arr(key), **TOL)
    got, want = layer.get_config(), ORACLE[key + "_cfg"]
    assert list(got) == list(want)
    assert {k: v for k, v in got.items() if k != "name"} == {k: v for k, v in want.items() if k != "name"}
    assert got["name"] == want["name"]  # the first of its class in the session


def test_shape_layer_errors_match_keras():
    with pytest.raises(ValueError, match=re.escape(error("cr1_big")[1].split("\n\n")[1].strip("\x1b[1m").split("\x1b")[0])):
        L.Cropping1D((3, 2))(arr("s3"))
    L.ZeroPadding1D(1)
    with pytest.raises(ValueError, match=re.escape(error("zp1_rank")[1])):
        L.ZeroPadding1D(1)(arr("img"))


@pytest.mark.parametrize("key,make,x", [("c3", lambda: L.Conv3D(3, (2, 3, 2), padding="same", strides=(2, 1, 1)), "s5"),
                                        ("c3v", lambda: L.Conv3D(2, 2, dilation_rate=(1, 2, 1)), "s5"),
                                        ("c1t", lambda: L.Conv1DTranspose(4, 3, strides=2), "s3"),
                                        ("c1ts", lambda: L.Conv1DTranspose(4, 3, strides=2, padding="same"), "s3")])
def test_convolutions_match_keras(key, make, x):
    keras.backend.clear_session()
    if key in ("c3v", "c1ts"):  # the second of its class in Keras' session
        make()
    layer = make()
    layer.build(arr(x).shape)
    assert paths(layer) == ORACLE[key + "_paths"]
    layer.set_weights(weights(key))
    np.testing.assert_allclose(layer(arr(x)).numpy(), arr(key), **TOL)
    config_matches(layer, key + "_cfg")


def _conv3d_numpy(x, k, stride):
    """Valid 3-D cross-correlation, written out."""
    kd, kh, kw, _, f = k.shape
    n, d, h, w, _ = x.shape
    od, oh, ow = (d - kd) // stride + 1, (h - kh) // stride + 1, (w - kw) // stride + 1
    out = np.zeros((n, od, oh, ow, f))
    for i in range(od):
        for j in range(oh):
            for m in range(ow):
                patch = x[:, i * stride:i * stride + kd, j * stride:j * stride + kh, m * stride:m * stride + kw]
                out[:, i, j, m] = np.tensordot(patch, k, axes=([1, 2, 3, 4], [0, 1, 2, 3]))
    return out


def test_conv3d_and_pooling3d_against_numpy_and_finite_differences():
    rng = np.random.default_rng(6)
    x = rng.normal(size=(2, 5, 4, 5, 2))
    conv = L.Conv3D(3, (2, 2, 3), strides=2, use_bias=False, dtype="float64")
    np.testing.assert_allclose(conv(x).numpy(), _conv3d_numpy(x, conv.kernel.numpy(), 2), rtol=1e-10)
    pooled = L.MaxPooling3D((2, 2, 2))(x).numpy()
    want = x[:, :4, :4, :4].reshape(2, 2, 2, 2, 2, 2, 2, 2).max(axis=(2, 4, 6))
    np.testing.assert_allclose(pooled, want)
    avg = L.AveragePooling3D(3, strides=2, padding="same", dtype="float64")(x).numpy()
    # TensorFlow's SAME: depth 5 and width 5 pad one before, height 4 none; padding is not counted
    np.testing.assert_allclose(avg[0, 0, 0, 0], x[0, :2, :3, :2].mean(axis=(0, 1, 2)), rtol=1e-10)
    np.testing.assert_allclose(avg[1, 1, 1, 1], x[1, 1:4, 2:4, 1:4].mean(axis=(0, 1, 2)), rtol=1e-10)
    xv = tf.Variable(x[:1, :3, :3, :3])
    same = L.Conv3D(2, 2, padding="same", dtype="float64")
    w = rng.normal(size=(1, 3, 3, 3, 2))
    same(xv)
    assert_gradients_match_finite_differences(
        lambda: tf.reduce_sum(L.AveragePooling3D(2, padding="same", dtype="float64")(same(xv)) ** 2 * w[:, :2, :2, :2]),
        [xv, same.kernel])


def test_convolution_3d_model_in_graph_mode_and_round_trip(tmp_path):
    inp = keras.Input((4, 5, 6, 2))
    x = L.Conv3D(3, 2, padding="same", activation="relu")(inp)
    x = L.ZeroPadding3D(1)(L.MaxPooling3D(2)(x))
    x = L.Cropping3D(1)(L.UpSampling3D(2)(x))
    out = L.GlobalAveragePooling3D()(L.AveragePooling3D(2, padding="same")(x))
    model = keras.Model(inp, out)
    data = arr("s5")
    eager = model(data).numpy()
    traced = tf.function(model, input_signature=[tf.TensorSpec([None, 4, 5, 6, 2], tf.float32)])
    np.testing.assert_allclose(traced(data).numpy(), eager, rtol=1e-6, atol=1e-7)
    model.save(tmp_path / "v.keras")
    np.testing.assert_allclose(keras.models.load_model(tmp_path / "v.keras")(data).numpy(), eager, rtol=1e-6)
    seq_in = keras.Input((5, 3))
    s = L.Conv1DTranspose(4, 3, strides=2)(L.UpSampling1D(2)(L.Cropping1D(1)(L.ZeroPadding1D(2)(seq_in))))
    seq_model = keras.Model(seq_in, s)
    seq_model.save(tmp_path / "s.keras")
    np.testing.assert_allclose(keras.models.load_model(tmp_path / "s.keras")(arr("s3")).numpy(),
                               seq_model(arr("s3")).numpy(), rtol=1e-6)


def test_functional_merge_forms_match_keras():
    a, b = arr("fa"), arr("fb")
    for name in ["add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate"]:
        np.testing.assert_allclose(getattr(L, name)([a, b]).numpy(), arr("fn_" + name), **TOL)
    np.testing.assert_allclose(L.dot([a, b], axes=1).numpy(), arr("fn_dot"), **TOL)
    x, y = keras.Input((3,)), keras.Input((3,))
    model = keras.Model([x, y], L.concatenate([L.add([x, y]), L.multiply([x, y])]))
    np.testing.assert_allclose(model([a, b]).numpy(), np.concatenate([a + b, a * b], -1), rtol=1e-6)
