"""`keras.models.clone_model`, `model.to_json()` and `keras.models.model_from_json`.

A clone has the model's architecture and layer names but new weights (freshly initialised, as
Keras does): each layer is rebuilt from its config, or by `clone_function(layer)`. A Sequential
model is rebuilt as a stack; a functional one by replaying its recorded layer calls on new
inputs, a layer called twice (shared) being cloned once. A subclassed model is rebuilt from its
own get_config. The JSON form is the model's entry of a `.keras` config.json.
"""
from __future__ import annotations

import json

from ..._src.core import nest
from ..layers.base import Layer
from ..layers.core.input_layer import InputLayer
from ..layers.keras_tensor import KerasTensor


def _clone_layer(layer):
    return layer.__class__.from_config(layer.get_config())


def clone_model(model, input_tensors=None, clone_function=None, call_function=None, recursive=False, **kwargs):
    """A new model with `model`'s architecture and new weights."""
    from .model import Functional
    from .sequential import Sequential
    if kwargs:
        raise ValueError(f"Unexpected keyword argument(s) to clone_model: {sorted(kwargs)}")
    if call_function is not None or recursive:
        raise NotImplementedError("clone_model(call_function=..., recursive=True) is not supported yet.")
    clone = clone_function or _clone_layer
    if isinstance(model, Sequential):
        return _clone_sequential(model, input_tensors, clone)
    if isinstance(model, Functional):
        return _clone_functional(model, input_tensors, clone)
    if clone_function is not None or input_tensors is not None:
        raise ValueError(f"Arguments `clone_function` and `input_tensors` are only supported for Sequential models or "
                         f"Functional models. Received model of type '{type(model).__name__}', with "
                         f"clone_function={clone_function} and input_tensors={input_tensors}")
    return model.__class__.from_config(model.get_config())


def _new_input(reference):
    """A keras.Input like the InputLayer `reference`: its batch shape, dtype and name."""
    from ..layers.core.input_layer import Input
    return Input(batch_shape=reference.batch_shape, dtype=reference.dtype, name=reference.name)


def _clone_sequential(model, input_tensors, clone):
    from .sequential import Sequential
    layers = [clone(layer) for layer in model.layers]
    start = []
    if input_tensors is not None:
        start = [nest.flatten(input_tensors, expand_composites=True)[0]]
    elif model._input_layer is not None:
        start = [_new_input(model._input_layer)]
    return Sequential(start + layers, name=model.name, trainable=model.trainable)


def _clone_functional(model, input_tensors, clone):
    from .model import Functional
    old_inputs = nest.flatten(model.input, expand_composites=True)
    if input_tensors is not None:
        new_inputs = nest.flatten(input_tensors, expand_composites=True)
        if len(new_inputs) != len(old_inputs):
            raise ValueError(f"`input_tensors` must have the same structure as model.inputs: {len(old_inputs)} "
                             f"tensor(s) expected, received {len(new_inputs)}")
    else:
        new_inputs = [_new_input(t._keras_history.layer) for t in old_inputs]
    mapped = {id(old): new for old, new in zip(old_inputs, new_inputs)}
    clones = {}  # id(original layer) -> its clone: a shared layer stays shared
    for node in model._graph.nodes:
        layer = node.layer
        if isinstance(layer, InputLayer):
            continue
        if id(layer) not in clones:  # a keras.ops operation is reused: it holds no weights
            clones[id(layer)] = clone(layer) if isinstance(layer, Layer) else layer
        args, kwargs = nest.map_structure(lambda a: mapped[id(a)] if isinstance(a, KerasTensor) else a,
                                          (node.args, node.kwargs))
        result = clones[id(layer)](*args, **kwargs)
        for old, new in zip(node.outputs, nest.flatten(result, expand_composites=True)):
            mapped[id(old)] = new
    outputs = nest.map_structure(lambda kt: mapped[id(kt)], model.output, expand_composites=True)
    inputs = nest.pack_sequence_as(model.input, new_inputs, expand_composites=True)
    return Functional(inputs, outputs, name=model.name, trainable=model.trainable)


def model_to_json(model, **kwargs):
    """`model.to_json(**kwargs)`: Keras 3's serialized model (with its compile config) as JSON text;
    `kwargs` go to json.dumps (indent=2)."""
    from ..compile_config import compile_config
    from ..saving.model_saving import json_default
    from ..saving.serialization import serialize_layer
    config = serialize_layer(model)
    config["compile_config"] = compile_config(model) or None
    return json.dumps(config, default=json_default, **kwargs)


def model_from_json(json_string, custom_objects=None):
    """A model (not compiled, new weights) from `model.to_json()`'s text."""
    from ..saving.serialization import deserialize_keras_object, keras_classes
    config = json.loads(json_string)
    return deserialize_keras_object(config, keras_classes(), custom_objects, "model")
