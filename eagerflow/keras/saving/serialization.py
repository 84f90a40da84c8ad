"""Keras 3's object config format ({'module', 'class_name', 'config', 'registered_name'}) and the
registry that turns a class name back into a class.

Why a registry: loading a saved model must never import or execute anything the file names. A
class name resolves only through the known Keras classes of a module, the objects a caller passes
as `custom_objects`, or classes registered with `register_keras_serializable`.
"""
from __future__ import annotations

import contextlib
import threading

_REGISTERED = {}  # "package>Name" -> class (classes live as long as their module; no user instances held)
_custom_scope = threading.local()


def register_keras_serializable(package="Custom", name=None):
    """Decorator registering a class (or function) under "package>name" for loading by name."""
    def decorator(obj):
        if isinstance(obj, type) and not hasattr(obj, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        registered = f"{package}>{name or obj.__name__}"
        _REGISTERED[registered] = obj  # registering a name again replaces its object, as in Keras
        obj._keras_registered_name = registered
        return obj
    return decorator


def get_registered_name(obj):
    obj = obj if isinstance(obj, type) or callable(obj) and not hasattr(obj, "get_config") else type(obj)
    registered = obj.__dict__.get("_keras_registered_name") if hasattr(obj, "__dict__") else None
    return registered or obj.__name__


def get_registered_object(name, custom_objects=None, module_objects=None):
    for table in (custom_objects, _current_custom_objects(), _REGISTERED, module_objects):
        if table and name in table:
            return table[name]
    return None


def _current_custom_objects():
    stack = getattr(_custom_scope, "stack", None)
    merged = {}
    for d in stack or ():
        merged.update(d)
    return merged


@contextlib.contextmanager
def custom_object_scope(*scopes):
    """`with keras.saving.custom_object_scope({'MyLayer': MyLayer}):` names usable while loading."""
    stack = getattr(_custom_scope, "stack", None)
    if stack is None:
        stack = _custom_scope.stack = []
    merged = {}
    for s in scopes:
        merged.update(s or {})
    stack.append(merged)
    try:
        yield
    finally:
        stack.pop()


def serialize_keras_object(obj, module=None):
    """Keras 3's dict for an object with get_config (None stays None), under the Keras `module`
    its family names (object_config.serialize_keras_object finds it for any value)."""
    if obj is None:
        return None
    registered = type(obj).__dict__.get("_keras_registered_name")
    return {"module": module if registered is None else None, "class_name": type(obj).__name__,
            "config": obj.get_config(), "registered_name": registered}


def deserialize_keras_object(config, module_objects, custom_objects=None, kind="object"):
    """An instance from Keras 3's dict (or a bare {'class_name', 'config'}), looked up by name only."""
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"Could not interpret {kind} identifier: {config}")
    name = config.get("registered_name") or config["class_name"]
    cls = get_registered_object(name, custom_objects, module_objects)
    if cls is None:
        cls = get_registered_object(config["class_name"], custom_objects, module_objects)
    if cls is None:
        raise TypeError(f"Could not locate class '{config['class_name']}'. Make sure custom classes and functions "
                        f"are decorated with `@keras.saving.register_keras_serializable()`. If they are already "
                        f"decorated, make sure they are all imported so that the decorator is run before trying to "
                        f"load them. Full object config: {config}")
    inner = config.get("config") or {}
    if not isinstance(inner, dict):
        raise ValueError(f"The config of {config['class_name']} must be a dict. Received: {inner!r}")
    from_config = getattr(cls, "from_config", None)
    if getattr(cls, "_config_with_objects", False):  # models: their layers resolve through the same tables
        obj = cls.from_config(inner, module_objects=module_objects, custom_objects=custom_objects)
    else:
        obj = from_config(inner) if from_config is not None else cls(**inner)
    build = config.get("build_config")
    if build and hasattr(obj, "build_from_config") and not getattr(obj, "built", True):
        obj.build_from_config(build)
    return obj


def serialize_layer(layer):
    """A layer's entry in a model config: Keras 3's dict plus its build_config."""
    cls = type(layer)
    builtin = cls.__module__.startswith("eagerflow.keras")
    registered = cls.__dict__.get("_keras_registered_name")
    if builtin:
        module = "keras.src.models.functional" if cls.__name__ == "Functional" else (
            "keras" if cls.__name__ in ("Sequential", "Model") else "keras.layers")
        registered = "Functional" if cls.__name__ == "Functional" else None
    else:
        module, registered = None, registered or cls.__name__
    entry = {"module": module, "class_name": cls.__name__, "config": layer.get_config(),
             "registered_name": registered}
    build = layer.get_build_config() if hasattr(layer, "get_build_config") else None
    if build is not None:
        entry["build_config"] = build
    return entry


def keras_classes():
    """Every class a config may name without custom_objects: the shipped layers and models."""
    from .. import layers as _layers
    from ..models.model import Functional, Model
    from ..models.sequential import Sequential
    table = {name: obj for name, obj in vars(_layers).items() if isinstance(obj, type) and issubclass(obj, _layers.Layer)}
    table.update({"Functional": Functional, "Model": Model, "Sequential": Sequential})
    from ..utils.feature_space import FeatureSpace
    table["FeatureSpace"] = FeatureSpace
    return table


def get_keras_object(identifier, module_objects, kind, deserialize=None):
    """Keras' `get` for one family (losses, metrics, regularizers, constraints): None stays None, a
    config dict is deserialized (by `deserialize` when the family has its own), a name gives a
    default instance of its class or the function it names, any other callable is used as given."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        found = (deserialize(identifier) if deserialize is not None
                 else deserialize_keras_object(identifier, module_objects, None, kind))
    elif isinstance(identifier, str):
        found = module_objects.get(identifier)
    else:
        found = identifier
    if callable(found):
        return found() if isinstance(found, type) else found
    raise ValueError(f"Could not interpret {kind} identifier: {identifier}")
