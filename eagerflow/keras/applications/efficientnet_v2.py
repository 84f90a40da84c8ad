"""EfficientNetV2 B0-B3, S, M and L (Tan & Le 2021): fused MBConv blocks (one full convolution in
place of expansion + depthwise) in the early stages, MBConv with squeeze-excite later; input
rescaling (and, for B0-B3, ImageNet normalisation) built in. Layer names follow Keras 3's."""
from __future__ import annotations

import math

from .. import initializers, layers
from . import builder, imagenet_utils
from .efficientnet import conv_kernel_initializer, dense_kernel_initializer

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"
_B_STAGES = ((3, 1, 32, 16, 1, 0, 1, 1), (3, 2, 16, 32, 4, 0, 2, 1), (3, 2, 32, 48, 4, 0, 2, 1),
             (3, 3, 48, 96, 4, 0.25, 2, 0), (3, 5, 96, 112, 6, 0.25, 1, 0), (3, 8, 112, 192, 6, 0.25, 2, 0))
# variant -> stages of (kernel, repeats, filters in, filters out, expand ratio, squeeze-excite ratio, stride,
# fused?); the B variants share one table and scale it
STAGES = {
    "b0": _B_STAGES, "b1": _B_STAGES, "b2": _B_STAGES, "b3": _B_STAGES,
    "s": ((3, 2, 24, 24, 1, 0, 1, 1), (3, 4, 24, 48, 4, 0, 2, 1), (3, 4, 48, 64, 4, 0, 2, 1),
          (3, 6, 64, 128, 4, 0.25, 2, 0), (3, 9, 128, 160, 6, 0.25, 1, 0), (3, 15, 160, 256, 6, 0.25, 2, 0)),
    "m": ((3, 3, 24, 24, 1, 0, 1, 1), (3, 5, 24, 48, 4, 0, 2, 1), (3, 5, 48, 80, 4, 0, 2, 1),
          (3, 7, 80, 160, 4, 0.25, 2, 0), (3, 14, 160, 176, 6, 0.25, 1, 0), (3, 18, 176, 304, 6, 0.25, 2, 0),
          (3, 5, 304, 512, 6, 0.25, 1, 0)),
    "l": ((3, 4, 32, 32, 1, 0, 1, 1), (3, 7, 32, 64, 4, 0, 2, 1), (3, 7, 64, 96, 4, 0, 2, 1),
          (3, 10, 96, 192, 4, 0.25, 2, 0), (3, 19, 192, 224, 6, 0.25, 1, 0), (3, 25, 224, 384, 6, 0.25, 2, 0),
          (3, 7, 384, 640, 6, 0.25, 1, 0)),
}
# variant -> (width coefficient, depth coefficient, default size)
VARIANTS = {"b0": (1.0, 1.0, 224), "b1": (1.0, 1.1, 240), "b2": (1.1, 1.2, 260), "b3": (1.2, 1.4, 300),
            "s": (1.0, 1.0, 384), "m": (1.0, 1.0, 480), "l": (1.0, 1.0, 480)}


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    filters *= width_coefficient
    return int(max(min_depth or depth_divisor, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def _conv(filters, name, kernel_size=1, strides=1, **kwargs):
    return layers.Conv2D(filters, kernel_size, strides=strides, padding="same",
                         kernel_initializer=conv_kernel_initializer(), name=name, **kwargs)


def _squeeze_excite(x, filters_in, filters, se_ratio, activation, name):
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = layers.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
    se = _conv(max(1, int(filters_in * se_ratio)), f"{name}se_reduce", activation=activation)(se)
    se = _conv(filters, f"{name}se_expand", activation="sigmoid")(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def _block(x, fused, filters_in, filters_out, expand_ratio, kernel_size, strides, se_ratio, bn_momentum, activation,
           drop_rate, name):
    """An MBConv block (expand 1x1, depthwise, squeeze-excite, project) or a fused one (one kxk
    convolution that expands, squeeze-excite, 1x1 projection; no expansion: the kxk projects)."""
    inputs = x
    filters = filters_in * expand_ratio

    def batch_norm(suffix):
        return layers.BatchNormalization(axis=3, momentum=bn_momentum, name=f"{name}{suffix}")

    if expand_ratio != 1:
        x = _conv(filters, f"{name}expand_conv", kernel_size if fused else 1, strides if fused else 1,
                  use_bias=False)(x)
        x = batch_norm("expand_bn")(x)
        x = layers.Activation(activation, name=f"{name}expand_activation")(x)
    if not fused:
        x = layers.DepthwiseConv2D(kernel_size, strides=strides, depthwise_initializer=conv_kernel_initializer(),
                                   padding="same", use_bias=False, name=f"{name}dwconv2")(x)
        x = batch_norm("bn")(x)
        x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        x = _squeeze_excite(x, filters_in, filters, se_ratio, activation, name)
    project_whole = fused and expand_ratio == 1
    x = _conv(filters_out, f"{name}project_conv", kernel_size if project_whole else 1,
              strides if project_whole else 1, use_bias=False)(x)
    x = batch_norm("project_bn")(x)
    if project_whole:
        x = layers.Activation(activation, name=f"{name}project_activation")(x)
    if strides == 1 and filters_in == filters_out:
        if drop_rate:
            x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def EfficientNetV2(variant, name, include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000, classifier_activation="softmax", include_preprocessing=True,
                   dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8, min_depth=8, bn_momentum=0.9,
                   activation="swish"):
    width, depth, default_size = VARIANTS[variant]
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size, 32, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    x = img_input
    if include_preprocessing:
        if name.split("-")[-1].startswith("b") and input_shape[-1] == 3:
            x = layers.Rescaling(scale=1.0 / 255)(x)
            x = layers.Normalization(mean=[0.485, 0.456, 0.406], variance=[0.229 ** 2, 0.224 ** 2, 0.225 ** 2],
                                     axis=3)(x)
        else:
            x = layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)
    stages = STAGES[variant]
    x = _conv(round_filters(stages[0][2], width, min_depth, depth_divisor), "stem_conv", 3, 2, use_bias=False)(x)
    x = layers.BatchNormalization(axis=3, momentum=bn_momentum, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    total = float(sum(stage[1] for stage in stages))
    done = 0
    for i, (kernel_size, repeats, filters_in, filters_out, expand_ratio, se_ratio, strides, fused) in \
            enumerate(stages):
        filters_in = round_filters(filters_in, width, min_depth, depth_divisor)
        filters_out = round_filters(filters_out, width, min_depth, depth_divisor)
        for j in range(int(math.ceil(depth * repeats))):
            if j > 0:
                strides, filters_in = 1, filters_out
            x = _block(x, fused, filters_in, filters_out, expand_ratio, kernel_size, strides, se_ratio, bn_momentum,
                       activation, drop_connect_rate * done / total, f"block{i + 1}{chr(j + 97)}_")
            done += 1
    x = _conv(round_filters(1280, width, min_depth, depth_divisor), "top_conv", use_bias=False)(x)
    x = layers.BatchNormalization(axis=3, momentum=bn_momentum, name="top_bn")(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, kernel_initializer=dense_kernel_initializer(),
                         bias_initializer=initializers.Constant(0.0), name="predictions")(x)
    else:
        x = builder.pool(x, pooling, "avg_pool", "max_pool")
    file_name = name + (".h5" if include_top else "_notop.h5")
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, _WEIGHTS_ORIGIN + file_name))


def _variant(key):
    title = key.upper()

    def constructor(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                    classes=1000, classifier_activation="softmax", include_preprocessing=True,
                    name=f"efficientnetv2-{key}"):
        return EfficientNetV2(key, name, include_top, weights, input_tensor, input_shape, pooling, classes,
                              classifier_activation, include_preprocessing)

    constructor.__name__ = constructor.__qualname__ = f"EfficientNetV2{title}"
    constructor.__doc__ = f"EfficientNetV2{title} ({VARIANTS[key][2]}x{VARIANTS[key][2]} input by default)."
    return constructor


EfficientNetV2B0 = _variant("b0")
EfficientNetV2B1 = _variant("b1")
EfficientNetV2B2 = _variant("b2")
EfficientNetV2B3 = _variant("b3")
EfficientNetV2S = _variant("s")
EfficientNetV2M = _variant("m")
EfficientNetV2L = _variant("l")


def preprocess_input(x, data_format=None):
    """The identity: EfficientNetV2 rescales its input itself (include_preprocessing=True)."""
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
