"""EfficientNetB0-B7 (Tan & Le 2019): MBConv blocks (expansion, depthwise convolution, squeeze and
excite, projection, stochastic-depth dropout on the residual), widths and depths scaled per variant,
input scaling and ImageNet normalisation built in. Layer names follow Keras 3's."""
from __future__ import annotations

import math

from .. import initializers, layers
from . import builder, imagenet_utils

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/keras-applications/"
IMAGENET_STDDEV_RGB = (0.229, 0.224, 0.225)

# (kernel_size, repeats, filters_in, filters_out, expand_ratio, strides) of the seven stages; every
# block uses the identity skip when it can and squeeze-excite ratio 0.25
DEFAULT_BLOCKS = ((3, 1, 32, 16, 1, 1), (3, 2, 16, 24, 6, 2), (5, 2, 24, 40, 6, 2), (3, 3, 40, 80, 6, 2),
                  (5, 3, 80, 112, 6, 1), (5, 4, 112, 192, 6, 2), (3, 1, 192, 320, 6, 1))
_SE_RATIO = 0.25
# variant -> (width coefficient, depth coefficient, default size, dropout rate)
VARIANTS = {"b0": (1.0, 1.0, 224, 0.2), "b1": (1.0, 1.1, 240, 0.2), "b2": (1.1, 1.2, 260, 0.3),
            "b3": (1.2, 1.4, 300, 0.3), "b4": (1.4, 1.8, 380, 0.4), "b5": (1.6, 2.2, 456, 0.4),
            "b6": (1.8, 2.6, 528, 0.5), "b7": (2.0, 3.1, 600, 0.5)}


def conv_kernel_initializer():
    return initializers.VarianceScaling(scale=2.0, mode="fan_out", distribution="truncated_normal")


def dense_kernel_initializer():
    return initializers.VarianceScaling(scale=1.0 / 3.0, mode="fan_out", distribution="uniform")


def _conv(filters, name, kernel_size=1, **kwargs):
    return layers.Conv2D(filters, kernel_size, padding=kwargs.pop("padding", "same"),
                         kernel_initializer=conv_kernel_initializer(), name=name, **kwargs)


def block(inputs, activation, drop_rate, name, filters_in, filters_out, kernel_size, strides, expand_ratio, se_ratio,
          id_skip=True):
    """One MBConv block; names start with `name` (e.g. 'block2a_')."""
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = _conv(filters, f"{name}expand_conv", use_bias=False)(x)
        x = layers.BatchNormalization(axis=3, name=f"{name}expand_bn")(x)
        x = layers.Activation(activation, name=f"{name}expand_activation")(x)
    if strides == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size), name=f"{name}dwconv_pad")(x)
    x = layers.DepthwiseConv2D(kernel_size, strides=strides, padding="valid" if strides == 2 else "same",
                               use_bias=False, depthwise_initializer=conv_kernel_initializer(),
                               name=f"{name}dwconv")(x)
    x = layers.BatchNormalization(axis=3, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
        se = layers.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
        se = _conv(max(1, int(filters_in * se_ratio)), f"{name}se_reduce", activation=activation)(se)
        se = _conv(filters, f"{name}se_expand", activation="sigmoid")(se)
        x = layers.multiply([x, se], name=f"{name}se_excite")
    x = _conv(filters_out, f"{name}project_conv", use_bias=False)(x)
    x = layers.BatchNormalization(axis=3, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        if drop_rate > 0:
            x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def EfficientNet(width_coefficient, depth_coefficient, default_size, dropout_rate=0.2, drop_connect_rate=0.2,
                 depth_divisor=8, activation="swish", name="efficientnet", include_top=True, weights="imagenet",
                 input_tensor=None, input_shape=None, pooling=None, classes=1000, classifier_activation="softmax"):
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size, 32, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)

    def round_filters(filters):
        filters *= width_coefficient
        rounded = max(depth_divisor, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor)
        return int(rounded + depth_divisor if rounded < 0.9 * filters else rounded)

    def round_repeats(repeats):
        return int(math.ceil(depth_coefficient * repeats))

    x = layers.Rescaling(1.0 / 255.0)(img_input)
    x = layers.Normalization(axis=3)(x)
    if weights == "imagenet":
        # the official weights hold the ImageNet variance where a standard deviation was meant: divide
        # once more by its square root, as Keras does
        x = layers.Rescaling([1.0 / math.sqrt(std) for std in IMAGENET_STDDEV_RGB])(x)
    x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = _conv(round_filters(32), "stem_conv", 3, strides=2, padding="valid", use_bias=False)(x)
    x = layers.BatchNormalization(axis=3, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    total = float(sum(round_repeats(stage[1]) for stage in DEFAULT_BLOCKS))
    done = 0
    for i, (kernel_size, repeats, filters_in, filters_out, expand_ratio, strides) in enumerate(DEFAULT_BLOCKS):
        filters_in, filters_out = round_filters(filters_in), round_filters(filters_out)
        for j in range(round_repeats(repeats)):
            if j > 0:
                strides, filters_in = 1, filters_out
            x = block(x, activation, drop_connect_rate * done / total, f"block{i + 1}{chr(j + 97)}_", filters_in,
                      filters_out, kernel_size, strides, expand_ratio, _SE_RATIO)
            done += 1
    x = _conv(round_filters(1280), "top_conv", use_bias=False)(x)
    x = layers.BatchNormalization(axis=3, name="top_bn")(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, kernel_initializer=dense_kernel_initializer(),
                         name="predictions")(x)
    else:
        x = builder.pool(x, pooling, "avg_pool", "max_pool")
    file_name = name + (".h5" if include_top else "_notop.h5")
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, _WEIGHTS_ORIGIN + file_name))


def _variant(key):
    width, depth, size, dropout = VARIANTS[key]

    def constructor(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                    classes=1000, classifier_activation="softmax", name=f"efficientnet{key}"):
        return EfficientNet(width, depth, size, dropout, name=name, include_top=include_top, weights=weights,
                            input_tensor=input_tensor, input_shape=input_shape, pooling=pooling, classes=classes,
                            classifier_activation=classifier_activation)

    constructor.__name__ = constructor.__qualname__ = f"EfficientNet{key.upper()}"
    constructor.__doc__ = f"EfficientNet{key.upper()}: width x{width}, depth x{depth}, {size}x{size} input."
    return constructor


EfficientNetB0 = _variant("b0")
EfficientNetB1 = _variant("b1")
EfficientNetB2 = _variant("b2")
EfficientNetB3 = _variant("b3")
EfficientNetB4 = _variant("b4")
EfficientNetB5 = _variant("b5")
EfficientNetB6 = _variant("b6")
EfficientNetB7 = _variant("b7")


def preprocess_input(x, data_format=None):
    """The identity: EfficientNet rescales and normalises its input itself."""
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
