"""InceptionV3 (Szegedy et al. 2015): a convolution stem, then eleven "mixed" blocks of parallel
branches (1x1, factorised 3x3/5x5/7x7 stacks, pooling) concatenated on channels. Every convolution
is conv -> batch norm (no scale) -> ReLU, left unnamed as in Keras 3 (conv2d_N, batch_normalization_N,
activation_N); the concatenations are named mixed0 ... mixed10."""
from __future__ import annotations

from .. import layers
from . import builder, imagenet_utils

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/"


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
    x = layers.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False,
                      name=None if name is None else f"{name}_conv")(x)
    x = layers.BatchNormalization(axis=3, scale=False, name=None if name is None else f"{name}_bn")(x)
    return layers.Activation("relu", name=name)(x)


def _chain(x, specs):
    """conv2d_bn applied in turn for each (filters, rows, cols[, strides, padding])."""
    for spec in specs:
        filters, rows, cols = spec[:3]
        strides, padding = (spec[3], spec[4]) if len(spec) > 3 else ((1, 1), "same")
        x = conv2d_bn(x, filters, rows, cols, padding=padding, strides=strides)
    return x


def _pooled(x, filters):
    pooled = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
    return conv2d_bn(pooled, filters, 1, 1)


def _block_35(x, pool_filters, name):
    branches = [_chain(x, [(64, 1, 1)]), _chain(x, [(48, 1, 1), (64, 5, 5)]),
                _chain(x, [(64, 1, 1), (96, 3, 3), (96, 3, 3)]), _pooled(x, pool_filters)]
    return layers.concatenate(branches, axis=3, name=name)


def _block_17(x, width, name):
    branches = [_chain(x, [(192, 1, 1)]), _chain(x, [(width, 1, 1), (width, 1, 7), (192, 7, 1)]),
                _chain(x, [(width, 1, 1), (width, 7, 1), (width, 1, 7), (width, 7, 1), (192, 1, 7)]),
                _pooled(x, 192)]
    return layers.concatenate(branches, axis=3, name=name)


def _block_8(x, index):
    branch1x1 = conv2d_bn(x, 320, 1, 1)
    branch3x3 = conv2d_bn(x, 384, 1, 1)
    branch3x3 = layers.concatenate([conv2d_bn(branch3x3, 384, 1, 3), conv2d_bn(branch3x3, 384, 3, 1)], axis=3,
                                   name=f"mixed9_{index}")
    double = _chain(x, [(448, 1, 1), (384, 3, 3)])
    double = layers.concatenate([conv2d_bn(double, 384, 1, 3), conv2d_bn(double, 384, 3, 1)], axis=3)
    return layers.concatenate([branch1x1, branch3x3, double, _pooled(x, 192)], axis=3, name=f"mixed{9 + index}")


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="inception_v3"):
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, 299, 75, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    valid = "valid"
    x = _chain(img_input, [(32, 3, 3, (2, 2), valid), (32, 3, 3, (1, 1), valid), (64, 3, 3)])
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _chain(x, [(80, 1, 1, (1, 1), valid), (192, 3, 3, (1, 1), valid)])
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _block_35(x, 32, "mixed0")
    x = _block_35(x, 64, "mixed1")
    x = _block_35(x, 64, "mixed2")
    branches = [_chain(x, [(384, 3, 3, (2, 2), valid)]),
                _chain(x, [(64, 1, 1), (96, 3, 3), (96, 3, 3, (2, 2), valid)]),
                layers.MaxPooling2D((3, 3), strides=(2, 2))(x)]
    x = layers.concatenate(branches, axis=3, name="mixed3")
    x = _block_17(x, 128, "mixed4")
    x = _block_17(x, 160, "mixed5")
    x = _block_17(x, 160, "mixed6")
    x = _block_17(x, 192, "mixed7")
    branches = [_chain(x, [(192, 1, 1), (320, 3, 3, (2, 2), valid)]),
                _chain(x, [(192, 1, 1), (192, 1, 7), (192, 7, 1), (192, 3, 3, (2, 2), valid)]),
                layers.MaxPooling2D((3, 3), strides=(2, 2))(x)]
    x = layers.concatenate(branches, axis=3, name="mixed8")
    x = _block_8(x, 0)
    x = _block_8(x, 1)
    if include_top:
        x = builder.classifier_or_pooling(x, True, None, classes, classifier_activation, weights, avg_name="avg_pool")
    else:
        x = builder.pool(x, pooling)
    file_name = f"inception_v3_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, _WEIGHTS_ORIGIN + file_name))


def preprocess_input(x, data_format=None):
    """Pixels 0-255 scaled to [-1, 1]."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
