"""ConvNeXt Tiny/Small/Base/Large/XLarge (Liu et al. 2022): a patchify stem, four stages of blocks
(7x7 depthwise convolution, layer norm, an inverted MLP with GELU, layer scale, drop path) joined by
downsampling layers, ImageNet normalisation built in. Layer names follow Keras 3's, including its
nested Sequential stem and downsampling blocks."""
from __future__ import annotations

import numpy as np

from .. import layers
from ..models import Sequential
from . import builder, imagenet_utils
from .layer_scale import LayerScale
from .stochastic_depth import StochasticDepth

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/convnext/"
# variant -> (blocks per stage, channels per stage)
MODEL_CONFIGS = {"tiny": ((3, 3, 9, 3), (96, 192, 384, 768)), "small": ((3, 3, 27, 3), (96, 192, 384, 768)),
                 "base": ((3, 3, 27, 3), (128, 256, 512, 1024)), "large": ((3, 3, 27, 3), (192, 384, 768, 1536)),
                 "xlarge": ((3, 3, 27, 3), (256, 512, 1024, 2048))}
_IMAGENET_MEAN = (0.485 * 255, 0.456 * 255, 0.406 * 255)
_IMAGENET_VARIANCE = ((0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2)


def ConvNeXtBlock(projection_dim, drop_path_rate=0.0, layer_scale_init_value=1e-6, name=None):
    """A function adding one block (with its residual) to a tensor."""
    def apply(inputs):
        x = layers.Conv2D(projection_dim, 7, padding="same", groups=projection_dim,
                          name=f"{name}_depthwise_conv")(inputs)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_layernorm")(x)
        x = layers.Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(x)
        x = layers.Activation("gelu", name=f"{name}_gelu")(x)
        x = layers.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            x = LayerScale(layer_scale_init_value, projection_dim, name=f"{name}_layer_scale")(x)
        if drop_path_rate:
            x = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")(x)
        else:
            x = layers.Activation("linear", name=f"{name}_identity")(x)
        return builder.add(inputs, x)
    return apply


def ConvNeXt(depths, projection_dims, drop_path_rate=0.0, layer_scale_init_value=1e-6, default_size=224,
             name="convnext", include_preprocessing=True, include_top=True, weights=None, input_tensor=None,
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax", weights_name=None):
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size, 32, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    x = img_input
    if include_preprocessing and input_shape[-1] == 3:
        x = layers.Normalization(mean=list(_IMAGENET_MEAN), variance=list(_IMAGENET_VARIANCE),
                                 name=f"{name}_prestem_normalization")(x)
    downsampling = [Sequential([layers.Conv2D(projection_dims[0], kernel_size=4, strides=4, name=f"{name}_stem_conv"),
                                layers.LayerNormalization(epsilon=1e-6, name=f"{name}_stem_layernorm")],
                               name=f"{name}_stem")]
    for i in range(3):
        downsampling.append(Sequential(
            [layers.LayerNormalization(epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
             layers.Conv2D(projection_dims[i + 1], kernel_size=2, strides=2, name=f"{name}_downsampling_conv_{i}")],
            name=f"{name}_downsampling_block_{i}"))
    drop_rates = [float(r) for r in np.linspace(0.0, drop_path_rate, sum(depths))]
    done = 0
    for i in range(4):
        x = downsampling[i](x)
        for j in range(depths[i]):
            x = ConvNeXtBlock(projection_dims[i], drop_rates[done + j], layer_scale_init_value,
                              name=f"{name}_stage_{i}_block_{j}")(x)
        done += depths[i]
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_head_layernorm")(x)
        x = layers.Dense(classes, activation=classifier_activation, name=f"{name}_head_dense")(x)
    else:
        x = builder.pool(x, pooling)
        x = layers.LayerNormalization(epsilon=1e-6)(x)
    if weights == "imagenet":
        variant = weights_name.split("convnext_")[-1]
        expected_depths, expected_dims = MODEL_CONFIGS[variant]
        if tuple(depths) != expected_depths or tuple(projection_dims) != expected_dims:
            raise ValueError(f"Architecture configuration does not match {weights_name} variant. When using "
                             "pre-trained weights, the model architecture must match the pre-trained configuration "
                             f"exactly. Expected depths: {list(expected_depths)}, got: {depths}. Expected "
                             f"projection_dims: {list(expected_dims)}, got: {projection_dims}.")
        if weights_name not in name:
            raise ValueError(f'Model name "{name}" does not match weights variant "{weights_name}". When using '
                             f'imagenet weights, model name must contain the weights variant (e.g., '
                             f'"convnext_{variant}").')
    file_name = name + (".h5" if include_top else "_notop.h5")
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, _WEIGHTS_ORIGIN + file_name))


def _variant(key):
    depths, dims = MODEL_CONFIGS[key]
    title = "XLarge" if key == "xlarge" else key.capitalize()

    def constructor(include_top=True, include_preprocessing=True, weights="imagenet", input_tensor=None,
                    input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                    name=f"convnext_{key}"):
        return ConvNeXt(list(depths), list(dims), name=name, include_preprocessing=include_preprocessing,
                        include_top=include_top, weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                        pooling=pooling, classes=classes, classifier_activation=classifier_activation,
                        weights_name=f"convnext_{key}")

    constructor.__name__ = constructor.__qualname__ = f"ConvNeXt{title}"
    constructor.__doc__ = f"ConvNeXt{title}: blocks per stage {depths}, channels {dims}."
    return constructor


ConvNeXtTiny = _variant("tiny")
ConvNeXtSmall = _variant("small")
ConvNeXtBase = _variant("base")
ConvNeXtLarge = _variant("large")
ConvNeXtXLarge = _variant("xlarge")


def preprocess_input(x, data_format=None):
    """The identity: ConvNeXt normalises its input itself (include_preprocessing=True)."""
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
