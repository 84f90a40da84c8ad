"""VGG16 and VGG19 (Simonyan & Zisserman 2014): five stages of 3x3 ReLU convolutions, each closed by
2x2 max pooling, and two 4096-unit dense layers before the classifier. Layer names follow Keras 3's."""
from __future__ import annotations

from .. import layers
from . import builder, imagenet_utils

_WEIGHTS_ORIGIN = "https://storage.googleapis.com/tensorflow/keras-applications/{0}/"


def VGG(convs_per_stage, name, include_top=True, weights="imagenet", input_tensor=None, input_shape=None,
        pooling=None, classes=1000, classifier_activation="softmax"):
    builder.check_arguments(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, 224, 32, include_top, weights)
    img_input = builder.image_input(input_shape, input_tensor)
    x = img_input
    for stage, (filters, convs) in enumerate(zip((64, 128, 256, 512, 512), convs_per_stage), start=1):
        for conv in range(1, convs + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same", name=f"block{stage}_conv{conv}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{stage}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = builder.pool(x, pooling)
    family = "vgg16" if sum(convs_per_stage) == 13 else "vgg19"
    file_name = f"{family}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return builder.finish(img_input, input_tensor, x, name, weights,
                          (file_name, _WEIGHTS_ORIGIN.format(family) + file_name))


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg16"):
    return VGG((2, 2, 3, 3, 3), name, include_top, weights, input_tensor, input_shape, pooling, classes,
               classifier_activation)


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg19"):
    return VGG((2, 2, 4, 4, 4), name, include_top, weights, input_tensor, input_shape, pooling, classes,
               classifier_activation)


def preprocess_input(x, data_format=None):
    """RGB -> BGR and the ImageNet channel means subtracted (caffe mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)
