"""What every application does around its own layers: check the arguments, make or adopt the input,
put the classifier head or the pooling on top, and load the weights asked for."""
from __future__ import annotations

import os

from .. import layers
from ..models import Model
from ..utils.packing import get_source_inputs, is_keras_tensor
from . import imagenet_utils, weights_file


def check_arguments(weights, include_top, classes):
    if not (weights in ("imagenet", None) or (isinstance(weights, (str, os.PathLike)) and os.path.exists(weights))):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.  Received: "
                         f"weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights='imagenet'` with `include_top=True`, `classes` should be 1000.  "
                         f"Received classes={classes}")


def image_input(input_shape, input_tensor):
    """The tensor the layers start from: `input_tensor` when it is a Keras tensor, else a new Input."""
    if input_tensor is None:
        return layers.Input(shape=input_shape)
    if is_keras_tensor(input_tensor):
        return input_tensor
    raise ValueError(f"`input_tensor` must be a Keras tensor (keras.Input or a layer's output). "
                     f"Received: input_tensor={input_tensor}")


def classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights, avg_name=None,
                          max_name=None):
    """include_top: global average pooling and the `predictions` Dense layer; otherwise `pooling`
    None, 'avg' or 'max' (the pooling layers named as the family names them)."""
    if include_top:
        x = layers.GlobalAveragePooling2D(name=avg_name)(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        return layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    return pool(x, pooling, avg_name, max_name)


def pool(x, pooling, avg_name=None, max_name=None):
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=avg_name)(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=max_name)(x)
    return x


def symbolic_operators():
    """Whether `keras_tensor + 3.0` records a keras.ops operation in the functional graph, as Keras 3
    does (an operation, not a layer: it is not listed in model.layers)."""
    from ..layers.keras_tensor import KerasTensor

    return hasattr(KerasTensor, "__add__")


def add(a, b):
    """`a + b` as Keras 3 writes it in ConvNeXt; an Add layer (same values, one more layer in
    model.layers) where KerasTensors take no operators."""
    return a + b if symbolic_operators() else layers.Add()([a, b])


def finish(img_input, input_tensor, outputs, name, weights, official=None):
    """The Model, with `weights` loaded: 'imagenet' reads official = (file name, origin) from Keras'
    cache folder; a path is read as it is."""
    inputs = get_source_inputs(input_tensor) if input_tensor is not None else img_input
    if isinstance(inputs, list) and len(inputs) == 1:
        inputs = inputs[0]
    model = Model(inputs, outputs, name=name)
    if weights == "imagenet":
        if official is None:
            raise ValueError(f"{name} has no ImageNet weights for these arguments.")
        file_name, origin = official
        weights_file.load_weights(model, weights_file.official_weights_path(file_name, origin, name))
    elif weights is not None:
        weights_file.load_weights(model, weights)
    return model
