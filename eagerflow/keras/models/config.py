"""get_config/from_config for Sequential and functional models, in Keras 3's layout.

A functional config lists every layer with its `inbound_nodes`: the arguments of each call, where a
KerasTensor is written as {"class_name": "__keras_tensor__", "config": {"shape", "dtype",
"keras_history": [layer name, call index, output index]}}. Loading recreates the layers from their
configs and replays those calls on symbolic inputs, in dependency order, to rebuild the graph.
Class names resolve only through the caller's table of known classes (see serialization.py).
"""
from __future__ import annotations

import numpy as np

from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.core.tensor import Tensor
from ..layers.core.input_layer import InputLayer
from ..layers.keras_tensor import KerasTensor
from ..ops.symbolic import SymbolicOp, op_from_config
from ..saving.serialization import deserialize_keras_object, serialize_layer


def _history(node_of, tensor):
    node = tensor._keras_history
    layer_nodes = node_of[id(node.layer)]
    return [node.layer.name, layer_nodes.index(node), next(i for i, t in enumerate(node.outputs) if t is tensor)]


def _serialize_operation(op):
    if isinstance(op, SymbolicOp):
        return {"module": op.module, "class_name": op.class_name, "config": op.get_config(),
                "registered_name": op.class_name}
    return serialize_layer(op)


def _encode_constant(value):
    """A non-tensor call argument as Keras writes it: slices, `...`, arrays and eager tensors by value."""
    if isinstance(value, slice):
        return {"class_name": "__slice__", "config": {"start": _encode_constant(value.start),
                                                       "stop": _encode_constant(value.stop),
                                                       "step": _encode_constant(value.step)}}
    if value is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(value, (np.ndarray, np.generic, Tensor)):
        array = np.asarray(value)
        if array.ndim == 0 and not isinstance(value, Tensor):
            return array.item()
        return {"class_name": "__tensor__", "config": {"value": array.tolist(), "dtype": array.dtype.name}}
    if isinstance(value, tuple):
        return [_encode_constant(v) for v in value]
    return value


def _as_lists(value):
    """Tuples as JSON writes them (lists), so a config compares equal before and after saving."""
    if isinstance(value, (list, tuple)):
        return [_as_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_lists(v) for k, v in value.items()}
    return value


def functional_config(model):
    graph = model._graph
    node_of = {}
    for node in graph.nodes:
        node_of.setdefault(id(node.layer), []).append(node)

    def arg(value):
        if isinstance(value, KerasTensor):
            return {"class_name": "__keras_tensor__", "config": {"shape": list(value.shape), "dtype": value.dtype.name,
                                                                   "keras_history": _history(node_of, value)}}
        return _encode_constant(value)

    layers = []
    for layer in graph.operations:
        entry = _serialize_operation(layer)
        entry["name"] = layer.name
        entry["inbound_nodes"] = [] if isinstance(layer, InputLayer) else [
            {"args": _as_lists(nest.map_structure(arg, list(node.args))),
             "kwargs": _as_lists(nest.map_structure(arg, dict(node.kwargs)))}
            for node in node_of[id(layer)]]
        layers.append(entry)

    def ends(tensors):
        if isinstance(tensors, dict):  # named inputs/outputs keep their keys (Keras 3)
            return {key: _history(node_of, t) for key, t in tensors.items()}
        flat = [_history(node_of, t) for t in nest.flatten(tensors, expand_composites=True)]
        return flat[0] if len(flat) == 1 and not isinstance(tensors, (list, tuple)) else flat

    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": ends(graph.inputs), "output_layers": ends(graph.outputs)}


def _decode_constant(value):
    if isinstance(value, dict):
        kind = value.get("class_name")
        if kind == "__slice__":
            c = value["config"]
            return slice(_decode_constant(c["start"]), _decode_constant(c["stop"]), _decode_constant(c["step"]))
        if kind == "__ellipsis__":
            return Ellipsis
        if kind == "__tensor__":
            return convert_to_tensor(np.asarray(value["config"]["value"], dtype=value["config"]["dtype"]))
    return value


def _deserialize_operation(entry, module_objects, custom_objects):
    module = entry.get("module") or ""
    if module.startswith(("keras.src.ops.", "keras.src.activations.")):
        op = op_from_config(module, entry["class_name"], entry.get("config"))
        if op is None:
            raise ValueError(f"Could not deserialize operation '{entry['class_name']}' of module {module}.")
        return op
    return deserialize_keras_object(entry, module_objects, custom_objects, "layer")


def _keras2_node(node):
    """A tf.keras 2 inbound node ([[layer, node index, tensor index, kwargs], ...]) in Keras 3's form: one
    input tensor as the argument, several as one list argument, the first entry's kwargs as keywords."""
    if not isinstance(node, list):
        return node
    tensors = [{"class_name": "__keras_tensor__", "config": {"keras_history": list(entry[:3])}} for entry in node]
    kwargs = node[0][3] if node and len(node[0]) > 3 and isinstance(node[0][3], dict) else {}
    return {"args": [tensors[0] if len(tensors) == 1 else tensors], "kwargs": kwargs}


def functional_from_config(cls, config, module_objects, custom_objects=None):
    layers, produced = {}, {}
    pending = []
    for entry in config["layers"]:
        layer = _deserialize_operation(entry, module_objects, custom_objects)
        layers[entry.get("name", layer.name)] = layer
        if isinstance(layer, InputLayer):
            produced[(layer.name, 0)] = [layer.output]
        else:
            pending.extend((layer, i, _keras2_node(node)) for i, node in enumerate(entry.get("inbound_nodes", [])))

    def resolve(value):
        if isinstance(value, dict) and value.get("class_name") == "__keras_tensor__":
            name, node_index, tensor_index = value["config"]["keras_history"]
            outputs = produced.get((name, node_index))
            if outputs is None:
                raise LookupError
            return outputs[tensor_index]
        if isinstance(value, dict) and value.get("class_name") in ("__slice__", "__ellipsis__", "__tensor__"):
            return _decode_constant(value)
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        return value

    while pending:  # replay calls whose inputs exist; Keras' order is not always topological
        progressed = False
        for item in list(pending):
            layer, index, node = item
            if index and (layer.name, index - 1) not in produced:
                continue
            try:
                args = resolve(node.get("args", []))
                kwargs = resolve(node.get("kwargs", {}))
            except LookupError:
                continue
            if isinstance(layer, SymbolicOp) and layer.function_name == "get_item" and isinstance(args[1], list):
                args = [args[0], tuple(args[1])]  # JSON wrote the index tuple as a list
            out = layer(*args, **kwargs)
            produced[(layer.name, index)] = nest.flatten(out, expand_composites=True)
            pending.remove(item)
            progressed = True
        if not progressed:
            raise ValueError(f"Functional model config is inconsistent: cannot rebuild the calls of layers "
                             f"{sorted({p[0].name for p in pending})}.")

    def ends(spec):
        if isinstance(spec, dict):
            return {key: produced[(name, i)][j] for key, (name, i, j) in spec.items()}
        if spec and not isinstance(spec[0], list):
            spec = [spec]
            single = True
        else:
            single = False
        tensors = [produced[(name, node_index)][tensor_index] for name, node_index, tensor_index in spec]
        return tensors[0] if single else tensors

    return cls(ends(config["input_layers"]), ends(config["output_layers"]), name=config.get("name"),
               trainable=config.get("trainable", True))


def sequential_config(model):
    layers = []
    if model._input_layer is not None:
        layers.append(serialize_layer(model._input_layer))
    layers.extend(serialize_layer(layer) for layer in model.layers)
    config = {"name": model.name, "trainable": model.trainable,
              "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": model.dtype},
                        "registered_name": None},
              "layers": layers}
    if model._input_layer is not None:
        config["build_input_shape"] = list(model._input_layer.batch_shape)
    return config


def sequential_from_config(cls, config, module_objects, custom_objects=None):
    model = cls(name=config.get("name"), trainable=config.get("trainable", True))
    for entry in config.get("layers", []):
        layer = deserialize_keras_object(entry, module_objects, custom_objects, "layer")
        model.add(layer)
    shape = config.get("build_input_shape")
    if model._input_layer is None and shape is not None:
        model.build(tuple(shape))
    return model
