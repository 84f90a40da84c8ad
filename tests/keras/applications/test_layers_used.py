"""The layer options the applications rely on: Conv2D(groups=...) (ConvNeXt's depthwise convolution),
Dropout's noise_shape with None (EfficientNet's drop connect), LayerScale and StochasticDepth."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras.applications.layer_scale import LayerScale
from eagerflow.keras.applications.stochastic_depth import StochasticDepth


def _conv_same_3x3(x, kernel):
    """Reference 'same' 3x3 convolution in NumPy."""
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros(x.shape[:3] + (kernel.shape[-1],), "float64")
    for i in range(x.shape[1]):
        for j in range(x.shape[2]):
            out[:, i, j, :] = np.tensordot(padded[:, i:i + 3, j:j + 3, :], kernel, axes=([1, 2, 3], [0, 1, 2]))
    return out


def test_grouped_conv2d_convolves_each_group_alone():
    layer = keras.layers.Conv2D(6, 3, groups=3, padding="same")
    x = np.random.RandomState(0).rand(2, 5, 5, 6).astype("float32")
    y = layer(x).numpy()
    assert tuple(layer.kernel.shape) == (3, 3, 2, 6)
    kernel, bias = layer.kernel.numpy(), layer.bias.numpy()
    expected = np.concatenate([_conv_same_3x3(x[..., 2 * g:2 * g + 2], kernel[..., 2 * g:2 * g + 2])
                               for g in range(3)], -1) + bias
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    assert layer.get_config()["groups"] == 3


def test_grouped_conv2d_errors_are_keras_messages():
    # Keras 3.15's messages
    with pytest.raises(ValueError, match=r"The number of filters must be evenly divisible by the number of groups. "
                                         r"Received: groups=4, filters=6."):
        keras.layers.Conv2D(6, 3, groups=4)
    with pytest.raises(ValueError, match=r"The number of input channels must be evenly divisible by the number of "
                                         r"groups. Received groups=2, but the input has 3 channels"):
        keras.layers.Conv2D(4, 3, groups=2)(np.zeros((1, 4, 4, 3), "float32"))


def test_dropout_noise_shape_none_means_the_input_size():
    layer = keras.layers.Dropout(0.5, noise_shape=(None, 1, 1), seed=1)
    y = layer(np.ones((64, 2, 3), "float32"), training=True).numpy().reshape(64, -1)
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert (y.min(1) == y.max(1)).all()  # one draw per sample
    assert 0 < (y[:, 0] == 0).sum() < 64
    traced = tf.function(lambda x: layer(x, training=True), input_signature=[tf.TensorSpec([None, 2, 3])])
    z = traced(np.ones((16, 2, 3), "float32")).numpy().reshape(16, -1)
    assert (z.min(1) == z.max(1)).all()


def test_stochastic_depth_drops_whole_samples_when_training_only():
    x = np.ones((64, 2, 2, 3), "float32")
    layer = StochasticDepth(0.5)
    np.testing.assert_array_equal(layer(x).numpy(), x)
    y = layer(x, training=True).numpy().reshape(64, -1)
    assert (y.min(1) == y.max(1)).all() and set(np.unique(y)) <= {0.0, 2.0}
    assert layer.get_config()["drop_path_rate"] == 0.5


def test_layer_scale_scales_channels():
    layer = LayerScale(1e-6, 3)
    y = layer(np.ones((2, 3), "float32")).numpy()
    np.testing.assert_allclose(y, np.full((2, 3), 1e-6, "float32"))
    assert [tuple(w.shape) for w in layer.trainable_weights] == [(3,)]
