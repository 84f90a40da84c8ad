"""DenseNet121/169/201 (Huang et al. 2016): dense blocks, each layer's 32 new channels concatenated
onto all before it, with halving transitions between blocks. Layer names follow Keras 3's."""
from __future__ import annotations

from .. import layers
from . import builder, imagenet_utils

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/densenet/"
_EPSILON = 1.001e-5
_GROWTH_RATE = 32


def _batch_norm(name):
    return layers.BatchNormalization(axis=3, epsilon=_EPSILON, name=name)


def conv_block(x, growth_rate, name):
    """BN-ReLU-1x1 (4*growth) -> BN-ReLU-3x3 (growth), concatenated onto the input."""
    y = _batch_norm(f"{name}_0_bn")(x)
    y = layers.Activation("relu", name=f"{name}_0_relu")(y)
    y = layers.Conv2D(4 * growth_rate, 1, use_bias=False, name=f"{name}_1_conv")(y)
    y = _batch_norm(f"{name}_1_bn")(y)
    y = layers.Activation("relu", name=f"{name}_1_relu")(y)
    y = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False, name=f"{name}_2_conv")(y)
    return layers.Concatenate(axis=3, name=f"{name}_concat")([x, y])


def dense_block(x, blocks, name):
    for i in range(blocks):
        x = conv_block(x, _GROWTH_RATE, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    """BN-ReLU-1x1 to `reduction` of the channels, then 2x2 average pooling."""
    x = _batch_norm(f"{name}_bn")(x)
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[3] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def DenseNet(blocks, include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
             classes=1000, classifier_activation="softmax", name="densenet"):
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, 224, 32, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = _batch_norm("conv1_bn")(x)
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks, start=2):
        x = dense_block(x, count, name=f"conv{stage}")
        if stage < 5:
            x = transition_block(x, 0.5, name=f"pool{stage}")
    x = _batch_norm("bn")(x)
    x = layers.Activation("relu", name="relu")(x)
    x = builder.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights,
                                      avg_name="avg_pool", max_name="max_pool")
    depth = {(6, 12, 24, 16): 121, (6, 12, 32, 32): 169, (6, 12, 48, 32): 201}.get(tuple(blocks))
    official = None
    if depth is not None:
        file_name = f"densenet{depth}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
        official = (file_name, _WEIGHTS_ORIGIN + file_name)
    return builder.finish(img_input, input_tensor, x, name, weights, official)


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet121"):
    return DenseNet([6, 12, 24, 16], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet169"):
    return DenseNet([6, 12, 32, 32], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet201"):
    return DenseNet([6, 12, 48, 32], include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def preprocess_input(x, data_format=None):
    """Pixels scaled to [0, 1], then each channel standardised by ImageNet's statistics (torch mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
