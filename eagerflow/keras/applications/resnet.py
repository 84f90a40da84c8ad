"""ResNet50/101/152 (He et al. 2015, bottleneck blocks with batch norm after each convolution) and the
stem, head and blocks ResNetV2 (resnet_v2.py, pre-activation) shares. Layer names follow Keras 3's."""
from __future__ import annotations

from .. import layers
from . import builder, imagenet_utils

WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
_EPSILON = 1.001e-5


def _batch_norm(name):
    return layers.BatchNormalization(axis=3, epsilon=_EPSILON, name=name)


def ResNet(stack_fn, preact, use_bias, name, weights_name, include_top=True, weights="imagenet", input_tensor=None,
           input_shape=None, pooling=None, classes=1000, classifier_activation="softmax"):
    """The 7x7 stem, `stack_fn`'s residual stages, (V2: a closing batch norm and ReLU) and the head."""
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, 224, 32, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=use_bias, name="conv1_conv")(x)
    if not preact:
        x = _batch_norm("conv1_bn")(x)
        x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    x = stack_fn(x)
    if preact:
        x = _batch_norm("post_bn")(x)
        x = layers.Activation("relu", name="post_relu")(x)
    x = builder.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights,
                                      avg_name="avg_pool", max_name="max_pool")
    suffix = "" if include_top else "_notop"
    file_name = f"{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
    return builder.finish(img_input, input_tensor, x, name, weights, (file_name, WEIGHTS_ORIGIN + file_name))


def residual_block_v1(x, filters, kernel_size=3, stride=1, conv_shortcut=True, name=None):
    """1x1 (strided) -> kxk -> 1x1 to 4*filters, each with batch norm, added to the (projected) input."""
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = _batch_norm(f"{name}_0_bn")(shortcut)
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=stride, name=f"{name}_1_conv")(x)
    x = _batch_norm(f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.Conv2D(filters, kernel_size, padding="same", name=f"{name}_2_conv")(x)
    x = _batch_norm(f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = _batch_norm(f"{name}_3_bn")(x)
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def stack_residual_blocks_v1(x, filters, blocks, stride1=2, name=None):
    x = residual_block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = residual_block_v1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def residual_block_v2(x, filters, kernel_size=3, stride=1, conv_shortcut=False, name=None):
    """Pre-activation: batch norm and ReLU first, then 1x1 -> kxk (strided) -> 1x1; the shortcut is a
    1x1 convolution of the activation, a strided 1x1 max pooling, or the input."""
    preact = _batch_norm(f"{name}_preact_bn")(x)
    preact = layers.Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = _batch_norm(f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, kernel_size, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = _batch_norm(f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def stack_residual_blocks_v2(x, filters, blocks, stride1=2, name=None):
    """The first block projects the shortcut; the last one strides."""
    x = residual_block_v2(x, filters, conv_shortcut=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = residual_block_v2(x, filters, name=f"{name}_block{i}")
    return residual_block_v2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def _v1_stages(stage_blocks):
    def stack_fn(x):
        x = stack_residual_blocks_v1(x, 64, stage_blocks[0], stride1=1, name="conv2")
        x = stack_residual_blocks_v1(x, 128, stage_blocks[1], name="conv3")
        x = stack_residual_blocks_v1(x, 256, stage_blocks[2], name="conv4")
        return stack_residual_blocks_v1(x, 512, stage_blocks[3], name="conv5")
    return stack_fn


def ResNet50(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="resnet50"):
    return ResNet(_v1_stages((3, 4, 6, 3)), False, True, name, "resnet50", include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation)


def ResNet101(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet101"):
    return ResNet(_v1_stages((3, 4, 23, 3)), False, True, name, "resnet101", include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation)


def ResNet152(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet152"):
    return ResNet(_v1_stages((3, 8, 36, 3)), False, True, name, "resnet152", include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation)


def preprocess_input(x, data_format=None):
    """RGB -> BGR and the ImageNet channel means subtracted (caffe mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
