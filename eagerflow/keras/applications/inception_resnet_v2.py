"""InceptionResNetV2 (Szegedy et al. 2016): Inception branches whose concatenation is projected and
added, scaled, to the block's input (CustomScaleLayer), in three block families (35x35, 17x17, 8x8).
Layer names follow Keras 3's (stem and branch convolutions unnamed there too)."""
from __future__ import annotations

from .. import layers
from . import builder, imagenet_utils
from .custom_scale_layer import CustomScaleLayer

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/inception_resnet_v2/"


def conv2d_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu", use_bias=False, name=None):
    """Convolution, batch norm without scale (unless the convolution has a bias), activation."""
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias, name=name)(x)
    if not use_bias:
        x = layers.BatchNormalization(axis=3, scale=False, name=None if name is None else f"{name}_bn")(x)
    if activation is not None:
        x = layers.Activation(activation, name=None if name is None else f"{name}_ac")(x)
    return x


def _chain(x, specs):
    for filters, kernel_size in specs:
        x = conv2d_bn(x, filters, kernel_size)
    return x


_BRANCHES = {  # block type -> its branches as chains of (filters, kernel size)
    "block35": (((32, 1),), ((32, 1), (32, 3)), ((32, 1), (48, 3), (64, 3))),
    "block17": (((192, 1),), ((128, 1), (160, [1, 7]), (192, [7, 1]))),
    "block8": (((192, 1),), ((192, 1), (224, [1, 3]), (256, [3, 1]))),
}


def inception_resnet_block(x, scale, block_type, block_idx, activation="relu"):
    if block_type not in _BRANCHES:
        raise ValueError("Unknown Inception-ResNet block type. Expects 'block35', 'block17' or 'block8', but got: "
                         f"{block_type}")
    name = f"{block_type}_{block_idx}"
    mixed = layers.Concatenate(axis=3, name=f"{name}_mixed")([_chain(x, chain) for chain in _BRANCHES[block_type]])
    up = conv2d_bn(mixed, x.shape[3], 1, activation=None, use_bias=True, name=f"{name}_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = layers.Activation(activation, name=f"{name}_ac")(x)
    return x


def InceptionResNetV2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                      classes=1000, classifier_activation="softmax", name="inception_resnet_v2"):
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, 299, 75, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    x = conv2d_bn(img_input, 32, 3, strides=2, padding="valid")
    x = conv2d_bn(x, 32, 3, padding="valid")
    x = conv2d_bn(x, 64, 3)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = conv2d_bn(x, 80, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, padding="valid")
    x = layers.MaxPooling2D(3, strides=2)(x)
    branches = [_chain(x, ((96, 1),)), _chain(x, ((48, 1), (64, 5))), _chain(x, ((64, 1), (96, 3), (96, 3)))]
    branches.append(conv2d_bn(layers.AveragePooling2D(3, strides=1, padding="same")(x), 64, 1))  # made last
    x = layers.Concatenate(axis=3, name="mixed_5b")(branches)
    for block_idx in range(1, 11):
        x = inception_resnet_block(x, 0.17, "block35", block_idx)
    branches = [conv2d_bn(x, 384, 3, strides=2, padding="valid"),
                conv2d_bn(_chain(x, ((256, 1), (256, 3))), 384, 3, strides=2, padding="valid"),
                layers.MaxPooling2D(3, strides=2, padding="valid")(x)]
    x = layers.Concatenate(axis=3, name="mixed_6a")(branches)
    for block_idx in range(1, 21):
        x = inception_resnet_block(x, 0.1, "block17", block_idx)
    branches = [conv2d_bn(_chain(x, ((256, 1),)), 384, 3, strides=2, padding="valid"),
                conv2d_bn(_chain(x, ((256, 1),)), 288, 3, strides=2, padding="valid"),
                conv2d_bn(_chain(x, ((256, 1), (288, 3))), 320, 3, strides=2, padding="valid"),
                layers.MaxPooling2D(3, strides=2, padding="valid")(x)]
    x = layers.Concatenate(axis=3, name="mixed_7a")(branches)
    for block_idx in range(1, 10):
        x = inception_resnet_block(x, 0.2, "block8", block_idx)
    x = inception_resnet_block(x, 1.0, "block8", 10, activation=None)
    x = conv2d_bn(x, 1536, 1, name="conv_7b")
    if include_top:
        x = builder.classifier_or_pooling(x, True, None, classes, classifier_activation, weights, avg_name="avg_pool")
    else:
        x = builder.pool(x, pooling)
    file_name = f"inception_resnet_v2_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, _WEIGHTS_ORIGIN + file_name))


def preprocess_input(x, data_format=None):
    """Pixels 0-255 scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
