"""Conv2DTranspose, DepthwiseConv2D and SeparableConv2D against TensorFlow 2.21's Keras 3.15: outputs
with identical weights, weight paths and shapes, configs, rank errors; gradients by finite differences."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.layer_oracle import ORACLE, arr, error

L = keras.layers


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _weights(key):
    return [np.asarray(w, np.float32) for w in ORACLE[key]]


def _config_matches(layer, key):
    """Keras' config, name aside (initializers with Keras 3.15's input_axes/output_axes); key order too."""
    ours, theirs = layer.get_config(), dict(ORACLE[key])
    assert list(ours) == list(theirs)
    for k in list(theirs):
        if k == "name":
            continue
        assert ours[k] == theirs[k], k


@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("strides", [1, 2])
def test_conv2d_transpose_matches_keras(padding, strides):
    layer = L.Conv2DTranspose(2, 3, strides=strides, padding=padding)
    layer.build((None, 5, 5, 3))
    layer.set_weights(_weights(f"ct_{padding}_{strides}_w"))
    np.testing.assert_allclose(layer(arr("img")).numpy(), arr(f"ct_{padding}_{strides}"), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("strides", [1, 2])
def test_depthwise_conv2d_matches_keras(padding, strides):
    layer = L.DepthwiseConv2D(3, strides=strides, padding=padding, depth_multiplier=2)
    layer.build((None, 5, 5, 3))
    layer.set_weights(_weights(f"dw_{padding}_{strides}_w"))
    np.testing.assert_allclose(layer(arr("img")).numpy(), arr(f"dw_{padding}_{strides}"), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_separable_conv2d_matches_keras(padding):
    layer = L.SeparableConv2D(4, 3, padding=padding, depth_multiplier=2)
    layer.build((None, 5, 5, 3))
    layer.set_weights(_weights(f"sc_{padding}_w"))
    np.testing.assert_allclose(layer(arr("img")).numpy(), arr(f"sc_{padding}"), rtol=1e-5, atol=1e-4)


def test_weight_paths_configs_and_errors_match_keras():
    for key, layer, paths in [
            ("ct", L.Conv2DTranspose(2, 3, strides=2, padding="same"), "ct_paths"),
            ("dw", L.DepthwiseConv2D(3, strides=2, padding="same", depth_multiplier=2), "dw_paths"),
            ("sc", L.SeparableConv2D(4, 3, padding="same", depth_multiplier=2), "sc_paths")]:
        layer.build((None, 5, 5, 3))
        want = [[p.split("/", 1)[1], shape] for p, shape in ORACLE[paths]]
        assert [[w.path.split("/", 1)[1], list(w.shape)] for w in layer.weights] == want
        assert [w.path.split("/")[0] for w in layer.weights] == [layer.name] * len(want)
        _config_matches(layer, key + "_cfg")
    keras.backend.clear_session()
    for _ in range(4):
        L.DepthwiseConv2D(3)
    with pytest.raises(ValueError, match=re.escape(error("dw_bad")[1])):
        L.DepthwiseConv2D(3)(np.ones((2, 5, 3), np.float32))


@pytest.mark.parametrize("make", [lambda: L.Conv2DTranspose(2, 2, strides=2, dtype="float64"),
                                  lambda: L.DepthwiseConv2D(2, depth_multiplier=2, dtype="float64"),
                                  lambda: L.SeparableConv2D(2, 2, depth_multiplier=2, dtype="float64")])
def test_kernel_gradients_match_finite_differences(make):
    layer = make()
    x = np.random.default_rng(3).normal(size=(2, 3, 3, 2))
    layer.build((None, 3, 3, 2))
    kernel = layer.weights[0]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(layer(x)))
    grad = tape.gradient(loss, kernel).numpy()
    k0, eps = kernel.numpy(), 1e-6
    numeric = np.zeros_like(k0)
    for idx in np.ndindex(*k0.shape):
        values = []
        for sign in (1, -1):
            k = k0.copy()
            k[idx] += sign * eps
            kernel.assign(k)
            values.append(float(tf.reduce_sum(tf.square(layer(x)))))
        numeric[idx] = (values[0] - values[1]) / (2 * eps)
    kernel.assign(k0)
    np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-7)


def test_image_model_with_transposed_and_separable_convs_round_trips(tmp_path):
    inputs = keras.Input((6, 6, 3))
    x = L.SeparableConv2D(4, 3, padding="same", activation="relu")(inputs)
    x = L.DepthwiseConv2D(3, strides=2, padding="same", depth_multiplier=2)(x)
    out = L.Conv2DTranspose(2, 3, strides=2, padding="same")(x)
    model = keras.Model(inputs, out)
    assert tuple(out.shape) == (None, 6, 6, 2)
    model.save(tmp_path / "c.keras")
    loaded = keras.models.load_model(tmp_path / "c.keras")
    img = np.random.default_rng(0).normal(size=(2, 6, 6, 3)).astype(np.float32)
    np.testing.assert_allclose(loaded.predict(img, verbose=0), model.predict(img, verbose=0), rtol=1e-6)
    assert [w.path for w in loaded.weights] == [w.path for w in model.weights]
