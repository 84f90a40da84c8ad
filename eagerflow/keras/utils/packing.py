"""`keras.utils` helpers about data tuples, Keras tensors and configs: pack/unpack_x_y_sample_weight,
is_keras_tensor, get_source_inputs, serialize/deserialize_keras_object."""
from __future__ import annotations


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """`x`, `(x, y)` or `(x, y, sample_weight)`: what a step receives (a tuple x is wrapped: `(x,)`)."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """(x, y, sample_weight) from `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)` (lists too)."""
    from ..models.training import unpack_data
    return unpack_data(tuple(data) if isinstance(data, list) else data)


def is_keras_tensor(x) -> bool:
    """Whether `x` is a symbolic Keras tensor (what keras.Input and layer calls on it give)."""
    from ..layers.keras_tensor import KerasTensor
    return isinstance(x, KerasTensor)


def get_source_inputs(tensor):
    """The keras.Input tensors `tensor` was computed from, in the order first reached."""
    from ..layers.core.input_layer import InputLayer
    found, seen, stack = [], set(), [tensor]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        node = getattr(t, "_keras_history", None)
        if node is None or isinstance(node.layer, InputLayer):
            found.append(t)
            continue
        stack.extend(reversed(_node_inputs(node)))
    return found


def _node_inputs(node):
    from ..._src.core import nest
    from ..layers.keras_tensor import KerasTensor
    args = list(getattr(node, "args", ())) + list(getattr(node, "kwargs", {}).values())
    return [t for t in nest.flatten(args, expand_composites=True) if isinstance(t, KerasTensor)]


def serialize_keras_object(obj):
    from ..saving.object_config import serialize_keras_object as serialize
    return serialize(obj)


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    from ..saving.object_config import deserialize_keras_object as deserialize
    return deserialize(config, custom_objects, safe_mode, **kwargs)
