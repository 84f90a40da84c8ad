"""Xception (Chollet 2017): depthwise-separable convolutions in residual blocks (entry flow with
strided 1x1 shortcuts, eight-block middle flow, exit flow). Layer names follow Keras 3's; the
shortcut convolutions, batch norms and additions are unnamed there too (conv2d, conv2d_1, ...)."""
from __future__ import annotations

from .. import layers
from . import builder, imagenet_utils

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/xception/"


def _separable(x, filters, name, relu_before=True):
    """(ReLU ->) 3x3 separable convolution -> batch norm, named `name`, `name`_bn, `name`_act."""
    if relu_before:
        x = layers.Activation("relu", name=f"{name}_act")(x)
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return layers.BatchNormalization(axis=-1, name=f"{name}_bn")(x)


def _downsampling_block(x, filters, block, first_relu=True):
    """Two separable convolutions and a strided 3x3 max pool, plus a strided 1x1 projection of the input."""
    residual = layers.Conv2D(filters[1], (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    residual = layers.BatchNormalization(axis=-1)(residual)
    x = _separable(x, filters[0], f"block{block}_sepconv1", relu_before=first_relu)
    x = _separable(x, filters[1], f"block{block}_sepconv2")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="xception"):
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, 299, 71, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(img_input)
    x = layers.BatchNormalization(axis=-1, name="block1_conv1_bn")(x)
    x = layers.Activation("relu", name="block1_conv1_act")(x)
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = layers.BatchNormalization(axis=-1, name="block1_conv2_bn")(x)
    x = layers.Activation("relu", name="block1_conv2_act")(x)
    # block 2's first separable convolution follows block 1's activation directly
    x = _downsampling_block(x, (128, 128), 2, first_relu=False)
    x = _downsampling_block(x, (256, 256), 3)
    x = _downsampling_block(x, (728, 728), 4)
    for block in range(5, 13):
        residual = x
        for conv in (1, 2, 3):
            x = _separable(x, 728, f"block{block}_sepconv{conv}")
        x = layers.add([x, residual])
    x = _downsampling_block(x, (728, 1024), 13)
    for conv, filters in ((1, 1536), (2, 2048)):
        x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=f"block14_sepconv{conv}")(x)
        x = layers.BatchNormalization(axis=-1, name=f"block14_sepconv{conv}_bn")(x)
        x = layers.Activation("relu", name=f"block14_sepconv{conv}_act")(x)
    if include_top:
        x = builder.classifier_or_pooling(x, True, None, classes, classifier_activation, weights, avg_name="avg_pool")
    else:
        x = builder.pool(x, pooling)
    file_name = f"xception_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, _WEIGHTS_ORIGIN + file_name))


def preprocess_input(x, data_format=None):
    """Pixels 0-255 scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
