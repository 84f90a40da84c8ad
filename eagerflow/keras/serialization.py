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
        registered = f"{package}>{name or obj.__name__}"
        if registered in _REGISTERED and _REGISTERED[registered] is not obj:
            raise ValueError(f"{registered} has already been registered to {_REGISTERED[registered]}")
        _REGISTERED[registered] = obj
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


def serialize_keras_object(obj, module):
    """Keras 3's dict for an object with get_config (None stays None)."""
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
        raise TypeError(f"Could not locate class '{config['class_name']}'. Make sure custom classes are decorated "
                        f"with `@keras.saving.register_keras_serializable()`. Full object config: {config}")
    inner = config.get("config") or {}
    from_config = getattr(cls, "from_config", None)
    return from_config(inner) if from_config is not None else cls(**inner)
