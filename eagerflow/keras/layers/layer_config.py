"""What a layer's config needs beyond the layer itself: Keras 3's DTypePolicy form, the auto config of
a user class that defines no get_config (its plain __init__ arguments, recorded at construction),
the built flag and build_config a `build` leaves (wrap_build), and the weight budget that keeps a
damaged saved config from allocating more than its file stores.
"""
from __future__ import annotations

import functools
import inspect
import threading

import numpy as np

_budget = threading.local()


def charge_weight_budget(shape, dtype):
    """While a saved model loads, the weights its config asks for may not exceed what its file stores:
    a damaged or hostile config (units=10**12) fails here, before any allocation."""
    budget = getattr(_budget, "remaining", None)
    if budget is None:
        return
    nbytes = int(np.prod(shape, dtype=object)) * dtype.np_dtype.itemsize if shape else dtype.np_dtype.itemsize
    if nbytes > budget[0]:
        raise MemoryError(f"the config asks for a weight of shape {shape} ({nbytes} bytes), more than the weights "
                          f"file stores")
    budget[0] -= nbytes


def set_weight_budget(nbytes):
    """Starts (an int) or ends (None) the budget of charge_weight_budget for this thread."""
    _budget.remaining = None if nbytes is None else [int(nbytes)]


def dtype_policy(name):
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": name}, "registered_name": None}


_PLAIN = (str, int, float, bool, type(None))


def _plain(value):
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def record_init_arguments(layer, cls, args, kwargs):
    """Remembers a user class's __init__ arguments when they are plain values, for get_config."""
    if cls.__module__.startswith("eagerflow.keras"):
        return
    try:
        signature = inspect.signature(cls.__init__)
        bound = signature.bind(None, *args, **kwargs)
    except (TypeError, ValueError):
        return
    bound.apply_defaults()
    values = {}
    for name, value in list(bound.arguments.items())[1:]:
        if signature.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
            values.update(value)
        elif signature.parameters[name].kind is inspect.Parameter.VAR_POSITIONAL:
            if value:
                return
        else:
            values[name] = value
    if _plain(values):
        object.__setattr__(layer, "_auto_config_values", values)


def auto_config(layer, config):
    values = layer.__dict__.get("_auto_config_values")
    if values is None:
        raise NotImplementedError(
            f"\nObject {type(layer).__name__} was created by passing\nnon-serializable argument values in "
            f"`__init__()`,\nand therefore the object must override `get_config()` in\norder to be serializable. "
            f"Please implement `get_config()`.\n")
    config = dict(config)
    config.update(values)
    spec = inspect.getfullargspec(type(layer).__init__)
    if spec.varkw != "kwargs" and "name" not in spec.args[1:]:  # Keras drops what __init__ cannot take back
        config.pop("name", None)
    return config


def wrap_build(build):
    """A layer class's `build` as Keras 3 runs it, also when user code calls it directly: the layer
    is built once the outermost build returns, and the shape it was given is the layer's
    build_config (so a saved model rebuilds it before loading its weights)."""
    @functools.wraps(build)
    def build_then_mark_built(self, *args, **kwargs):
        outermost = not self.__dict__.get("_building", False)  # a subclass's build calling super().build()
        object.__setattr__(self, "_building", True)
        try:
            result = build(self, *args, **kwargs)
        finally:
            if outermost:
                object.__setattr__(self, "_building", False)
        if outermost:
            shape = args[0] if args else kwargs.get("input_shape")
            if _is_shape(shape) and getattr(self, "_build_shapes_for_config", None) is None:
                self._build_shapes_for_config = tuple(shape)
            self.built = True
        return result
    return build_then_mark_built


def _is_shape(value):
    if hasattr(value, "as_list"):
        value = value.as_list() if value.rank is not None else None
    return isinstance(value, (list, tuple)) and all(d is None or isinstance(d, int) for d in value)
