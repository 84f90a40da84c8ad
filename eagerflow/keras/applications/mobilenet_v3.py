"""MobileNetV3Small and MobileNetV3Large (Howard et al. 2019): inverted residual blocks with optional
squeeze-and-excite and hard-swish, the input rescaling to [-1, 1] built in. Layer names follow
Keras 3's; the activations are unnamed layers there too (activation_N, re_lu_N), and hard sigmoid is
`ReLU(6)(x + 3) * (1/6)` with the addition and scaling as keras.ops operations (not layers)."""
from __future__ import annotations

import warnings

from .. import layers
from . import builder, imagenet_utils
from .mobilenet_v2 import make_divisible

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v3/"


def relu(x):
    return layers.ReLU()(x)


def hard_sigmoid(x):
    """ReLU6(x + 3) / 6. Where KerasTensors do not take Python operators, an Activation('hard_sigmoid')
    layer computes the same (Keras 3's hard_sigmoid), with one layer where Keras lists a ReLU."""
    if not builder.symbolic_operators():
        return layers.Activation("hard_sigmoid")(x)
    return layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def hard_swish(x):
    return layers.Activation("hard_swish")(x)


def _batch_norm(name):
    return layers.BatchNormalization(axis=-1, epsilon=1e-3, momentum=0.999, name=name)


def _squeeze_excite(inputs, filters, se_ratio, prefix):
    x = layers.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = layers.Conv2D(make_divisible(filters * se_ratio, 8), 1, padding="same", name=f"{prefix}squeeze_excite_conv")(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, 1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = hard_sigmoid(x)
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_residual(x, expansion, filters, kernel_size, stride, se_ratio, activation, block_id):
    shortcut = x
    in_channels = x.shape[-1]
    prefix = f"expanded_conv_{block_id}_" if block_id else "expanded_conv_"
    if block_id:
        x = layers.Conv2D(make_divisible(in_channels * expansion, 8), 1, padding="same", use_bias=False,
                          name=f"{prefix}expand")(x)
        x = _batch_norm(f"{prefix}expand_bn")(x)
        x = activation(x)
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size), name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(kernel_size, strides=stride, padding="same" if stride == 1 else "valid",
                               use_bias=False, name=f"{prefix}depthwise")(x)
    x = _batch_norm(f"{prefix}depthwise_bn")(x)
    x = activation(x)
    if se_ratio:
        x = _squeeze_excite(x, make_divisible(in_channels * expansion, 8), se_ratio, prefix)
    x = layers.Conv2D(filters, 1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = _batch_norm(f"{prefix}project_bn")(x)
    if stride == 1 and in_channels == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x


# (expansion, filters, kernel ("k": 5, or 3 when minimalistic), stride, squeeze-excite?, activation ("hs":
# hard swish, or ReLU when minimalistic)) of each block
_SMALL = ((1, 16, 3, 2, True, "relu"), (72 / 16, 24, 3, 2, False, "relu"), (88 / 24, 24, 3, 1, False, "relu"),
          (4, 40, "k", 2, True, "hs"), (6, 40, "k", 1, True, "hs"), (6, 40, "k", 1, True, "hs"),
          (3, 48, "k", 1, True, "hs"), (3, 48, "k", 1, True, "hs"), (6, 96, "k", 2, True, "hs"),
          (6, 96, "k", 1, True, "hs"), (6, 96, "k", 1, True, "hs"))
_LARGE = ((1, 16, 3, 1, False, "relu"), (4, 24, 3, 2, False, "relu"), (3, 24, 3, 1, False, "relu"),
          (3, 40, "k", 2, True, "relu"), (3, 40, "k", 1, True, "relu"), (3, 40, "k", 1, True, "relu"),
          (6, 80, 3, 2, False, "hs"), (2.5, 80, 3, 1, False, "hs"), (2.3, 80, 3, 1, False, "hs"),
          (2.3, 80, 3, 1, False, "hs"), (6, 112, 3, 1, True, "hs"), (6, 112, 3, 1, True, "hs"),
          (6, 160, "k", 2, True, "hs"), (6, 160, "k", 1, True, "hs"), (6, 160, "k", 1, True, "hs"))


def MobileNetV3(blocks, last_point_ch, model_type, input_shape=None, alpha=1.0, minimalistic=False,
                include_top=True, weights="imagenet", input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2,
                classifier_activation="softmax", include_preprocessing=True, name=None):
    builder.check_arguments(weights, include_top, classes)
    if input_shape is None and input_tensor is not None:
        input_shape = (input_tensor.shape[2], input_tensor.shape[1], 3)
    if input_shape is None:
        input_shape = (None, None, 3)
    rows, cols = input_shape[0], input_shape[1]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received `input_shape={input_shape}`")
    if weights == "imagenet":
        if (not minimalistic and alpha not in (0.75, 1.0)) or (minimalistic and alpha != 1.0):
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` for non "
                             "minimalistic or `1.0` for minimalistic only.")
        if rows != cols or rows != 224:
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not 224. Weights for input shape "
                          "(224, 224) will be loaded as the default.", stacklevel=3)
    img_input = builder.image_input(input_shape, input_tensor)
    kernel, activation, se_ratio = (3, relu, None) if minimalistic else (5, hard_swish, 0.25)
    x = img_input
    if include_preprocessing:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = layers.Conv2D(16, 3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = _batch_norm("conv_bn")(x)
    x = activation(x)
    for block_id, (expansion, filters, size, stride, squeeze, act) in enumerate(blocks):
        x = _inverted_residual(x, expansion, make_divisible(filters * alpha, 8), kernel if size == "k" else size,
                               stride, se_ratio if squeeze else None, activation if act == "hs" else relu, block_id)
    last_conv_ch = make_divisible(x.shape[-1] * 6, 8)
    if alpha > 1.0:
        last_point_ch = make_divisible(last_point_ch * alpha, 8)
    x = layers.Conv2D(last_conv_ch, 1, padding="same", use_bias=False, name="conv_1")(x)
    x = _batch_norm("conv_1_bn")(x)
    x = activation(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Conv2D(last_point_ch, 1, padding="same", use_bias=True, name="conv_2")(x)
        x = activation(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate)(x)
        x = layers.Conv2D(classes, 1, padding="same", name="logits")(x)
        x = layers.Flatten()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = builder.pool(x, pooling, "avg_pool", "max_pool")
    variant = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
    file_name = f"weights_mobilenet_v3_{variant}{'' if include_top else '_no_top_v2'}.h5"
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, _WEIGHTS_ORIGIN + file_name))


def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False, include_top=True, weights="imagenet",
                     input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Small"):
    return MobileNetV3(_SMALL, 1024, "small", input_shape, alpha, minimalistic, include_top, weights, input_tensor,
                       classes, pooling, dropout_rate, classifier_activation, include_preprocessing, name)


def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False, include_top=True, weights="imagenet",
                     input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Large"):
    return MobileNetV3(_LARGE, 1280, "large", input_shape, alpha, minimalistic, include_top, weights, input_tensor,
                       classes, pooling, dropout_rate, classifier_activation, include_preprocessing, name)


def preprocess_input(x, data_format=None):
    """The identity: MobileNetV3 rescales its input itself (include_preprocessing=True)."""
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
