"""MobileNetV2 (Sandler et al. 2018): inverted residual blocks (1x1 expansion, 3x3 depthwise, linear
1x1 projection) with ReLU6, its width scaled by `alpha`. Layer names follow Keras 3's."""
from __future__ import annotations

import warnings

from .. import layers
from . import builder, imagenet_utils

WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/"
_PRETRAINED_ALPHAS = (0.35, 0.50, 0.75, 1.0, 1.3, 1.4)
_PRETRAINED_SIZES = (96, 128, 160, 192, 224)
# (filters, stride, expansion) of blocks 0..16
_BLOCKS = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6), (64, 1, 6),
           (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6), (160, 1, 6), (160, 1, 6),
           (320, 1, 6))


def make_divisible(value, divisor, min_value=None):
    """`value` rounded to the nearest multiple of `divisor` (at least min_value), never more than 10%
    below it."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def _batch_norm(name):
    return layers.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name=name)


def _inverted_residual(inputs, expansion, stride, alpha, filters, block_id):
    in_channels = inputs.shape[-1]
    out_channels = make_divisible(int(filters * alpha), 8)
    x = inputs
    if block_id:
        prefix = f"block_{block_id}_"
        x = layers.Conv2D(expansion * in_channels, 1, padding="same", use_bias=False, name=f"{prefix}expand")(x)
        x = _batch_norm(f"{prefix}expand_BN")(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(3, strides=stride, use_bias=False, padding="same" if stride == 1 else "valid",
                               name=f"{prefix}depthwise")(x)
    x = _batch_norm(f"{prefix}depthwise_BN")(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(out_channels, 1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = _batch_norm(f"{prefix}project_BN")(x)
    if in_channels == out_channels and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def _square_size(shape):
    """The pretrained size a (rows, cols, ...) shape picks, 224 when it is none of them."""
    if shape is not None and shape[0] == shape[1] and shape[0] in _PRETRAINED_SIZES:
        return shape[0]
    return 224


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                classes=1000, classifier_activation="softmax", name=None):
    builder.check_arguments(weights, include_top, classes)
    if input_shape is None and input_tensor is not None:
        default_size = _square_size(tuple(input_tensor.shape[1:3]))
    else:
        default_size = _square_size(input_shape)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size, 32, include_top, weights)
    rows, cols = input_shape[0], input_shape[1]
    if weights == "imagenet":
        if alpha not in _PRETRAINED_ALPHAS:
            raise ValueError("If imagenet weights are being loaded, alpha must be one of `0.35`, `0.50`, `0.75`, "
                             f"`1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`")
        if rows != cols or rows not in _PRETRAINED_SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [96, 128, 160, 192, 224]. "
                          "Weights for input shape (224, 224) will be loaded as the default.", stacklevel=2)
    img_input = builder.image_input(input_shape, input_tensor)
    x = layers.Conv2D(make_divisible(32 * alpha, 8), 3, strides=(2, 2), padding="same", use_bias=False,
                      name="Conv1")(img_input)
    x = _batch_norm("bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_residual(x, expansion, stride, alpha, filters, block_id)
    last_filters = make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last_filters, 1, use_bias=False, name="Conv_1")(x)
    x = _batch_norm("Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    x = builder.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights)
    if name is None:
        name = f"mobilenetv2_{alpha:0.2f}_{rows}"
    suffix = "" if include_top else "_no_top"
    file_name = f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}{suffix}.h5"
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, WEIGHTS_ORIGIN + file_name))


def preprocess_input(x, data_format=None):
    """Pixels 0-255 scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
