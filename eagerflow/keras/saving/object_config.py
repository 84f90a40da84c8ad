"""`keras.saving.serialize_keras_object` / `deserialize_keras_object` (also in `keras.utils`) and
`keras.layers.serialize` / `deserialize`: any value to Keras 3's JSON-able form and back.

What Keras 3 writes: plain values as they are (NumPy scalars as Python numbers, tuples kept, a
TensorShape as a list, a DType as its name); NumPy arrays, tensors and bytes as
{'class_name': '__numpy__' | '__tensor__' | '__bytes__', 'config': {...}}; a function as
{'module': 'builtins', 'class_name': 'function', 'config': <its registered name>,
'registered_name': 'function'}; an object with get_config as {'module', 'class_name', 'config',
'registered_name'} (a layer with its build_config). Loading resolves names only (never imports what
a config names): the shipped Keras objects, `custom_objects`, custom_object_scope and the registry.
"""
from __future__ import annotations

import types

import numpy as np

from . import serialization as _reg

_PUBLIC_MODULES = ("layers", "initializers", "losses", "metrics", "optimizers", "regularizers", "constraints",
                   "activations", "callbacks")
# TensorFlow's own initializer classes (tf.zeros_initializer, ...) are not Keras objects; Keras 3
# writes their TensorFlow module and class name.
_TF_INITIALIZERS = "eagerflow._src.ops.array.initializers"


def _public_modules():
    import importlib
    return [(name, importlib.import_module(f"..{name}", __package__)) for name in _PUBLIC_MODULES]


def _module_of(obj):
    """Keras' `module` for a shipped object ('keras.layers', ...); None for a user's class."""
    cls = type(obj)
    if cls.__module__ == _TF_INITIALIZERS:
        return "tensorflow.python.ops.init_ops_v2"
    if not cls.__module__.startswith("eagerflow.keras"):
        return None
    for name, module in _public_modules():
        if getattr(module, cls.__name__, None) is cls:
            return f"keras.{name}"
    return None


def _is_function(obj):
    return isinstance(obj, (types.FunctionType, types.BuiltinFunctionType))


def serialize_keras_object(obj):
    """Keras 3's JSON-able form of `obj` (see the module docstring)."""
    from ..._src.core.dtypes import DType
    from ..._src.core.shape import TensorShape
    from ..._src.core.tensor import Tensor
    from ..layers.base import Layer
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, TensorShape):
        return obj.as_list() if obj.rank is not None else None
    if isinstance(obj, DType):
        return obj.name
    if isinstance(obj, np.ndarray):
        return {"class_name": "__numpy__", "config": {"value": obj.tolist(), "dtype": str(obj.dtype)}}
    if isinstance(obj, Tensor) and hasattr(obj, "_value"):
        value = np.asarray(obj._value)
        return {"class_name": "__tensor__", "config": {"value": value.tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, (list, tuple)):
        items = [serialize_keras_object(v) for v in obj]
        return tuple(items) if type(obj) is tuple else items  # Keras keeps a plain tuple a tuple
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    if _is_function(obj):
        return {"module": "builtins", "class_name": "function", "config": _reg.get_registered_name(obj),
                "registered_name": "function"}
    if isinstance(obj, Layer):
        return _reg.serialize_layer(obj)
    if not hasattr(obj, "get_config"):
        raise TypeError(f"Cannot serialize object {obj!r} of type {type(obj)}. To be serializable, a class must "
                        f"implement the `get_config()` method.")
    module = _module_of(obj)
    registered = type(obj).__dict__.get("_keras_registered_name")
    if registered is None and module is None or module == "tensorflow.python.ops.init_ops_v2":
        registered = type(obj).__name__
    return {"module": module, "class_name": type(obj).__name__,
            "config": serialize_keras_object(obj.get_config()), "registered_name": registered}


def shipped_objects():
    """Every name a config may use without custom_objects: the public classes and functions of the
    Keras modules, and the layers and models."""
    table = {}
    for _, module in _public_modules():
        table.update({k: v for k, v in vars(module).items()
                      if not k.startswith("_") and (isinstance(v, type) or _is_function(v))})
    table.update(_reg.keras_classes())
    return table


def locate_function(config, custom_objects=None):
    """The function a Keras function dict names: registered, in custom_objects or scope, or shipped."""
    name = config.get("config")
    found = _reg.get_registered_object(name, custom_objects)
    if found is None:
        from .. import activations
        try:
            found = activations.get(name)  # a shipped activation by name
        except ValueError:
            found = None
    if found is None:
        raise TypeError(f"Could not locate function '{name}'. Make sure custom classes and functions are decorated "
                        f"with `@keras.saving.register_keras_serializable()`. If they are already decorated, make "
                        f"sure they are all imported so that the decorator is run before trying to load them. Full "
                        f"object config: {config}")
    return found


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """The value `serialize_keras_object` wrote (see the module docstring). A string is looked up
    among registered and custom objects and otherwise returned as it is, as Keras does."""
    from ..._src.core.convert import convert_to_tensor
    from ..layers.core.lambda_layer import unsafe_deserialization
    module_objects = kwargs.get("module_objects")
    if config is None or isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, str):
        found = _reg.get_registered_object(config, custom_objects, module_objects)
        return config if found is None else found
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(v, custom_objects, safe_mode, **kwargs) for v in config]
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {k: deserialize_keras_object(v, custom_objects, safe_mode, **kwargs) for k, v in config.items()}
    class_name, inner = config["class_name"], config["config"]
    if class_name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "__tensor__":
        return convert_to_tensor(np.array(inner["value"], dtype=inner["dtype"]))
    if class_name == "__bytes__":
        return inner["value"].encode("utf-8")
    if class_name == "function":
        return locate_function(config, custom_objects)
    table = dict(shipped_objects())
    table.update(module_objects or {})
    with unsafe_deserialization(not safe_mode):
        return _reg.deserialize_keras_object(config, table, custom_objects, "object")


def serialize_layer(layer):
    """`keras.layers.serialize`."""
    return None if layer is None else serialize_keras_object(layer)


def deserialize_layer(config, custom_objects=None):
    """`keras.layers.deserialize`: a layer (or model) from its config dict."""
    from ..layers.base import Layer
    if not isinstance(config, dict):
        raise ValueError(f"`keras.layers.deserialize` was passed a `config` object that is not a "
                         f"`keras.layers.Layer`. Received: {config}")
    obj = _reg.deserialize_keras_object(config, _reg.keras_classes(), custom_objects, "layer")
    if not isinstance(obj, Layer):
        raise ValueError(f"`keras.layers.deserialize` was passed a `config` object that is not a "
                         f"`keras.layers.Layer`. Received: {config}")
    return obj
