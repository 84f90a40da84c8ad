"""keras.layers.Lambda: an arbitrary function of the inputs as a layer.

Saving a Python lambda stores its bytecode (as Keras 3 does), and loading bytecode runs whatever it
holds, so a `.keras` file's lambda is refused unless the caller passes `safe_mode=False` to
load_model; a named function is stored by name and must be registered or passed in custom_objects.
"""
from __future__ import annotations

import base64
import contextlib
import inspect
import marshal
import threading
import types

from ..base import Layer

_state = threading.local()


@contextlib.contextmanager
def unsafe_deserialization(allowed):
    """While a model loads with safe_mode=False, Lambda configs may rebuild Python lambdas from bytecode."""
    previous = getattr(_state, "allowed", False), getattr(_state, "loading", False)
    _state.allowed, _state.loading = bool(allowed), True
    try:
        yield
    finally:
        _state.allowed, _state.loading = previous


def in_safe_mode():
    """Whether a model is being loaded with safe_mode=True (outside loading: False)."""
    return getattr(_state, "loading", False) and not getattr(_state, "allowed", False)


def _serialize_function(fn):
    if getattr(fn, "__name__", None) == "<lambda>":
        closure = None if fn.__closure__ is None else tuple(c.cell_contents for c in fn.__closure__)
        return {"class_name": "__lambda__",
                "config": {"code": base64.encodebytes(marshal.dumps(fn.__code__)).decode("ascii"),
                           "defaults": fn.__defaults__, "closure": closure}}
    # Keras 3 writes module "builtins" for every plain function (os.path.basename included)
    return {"module": "builtins", "class_name": "function", "config": fn.__name__,
            "registered_name": getattr(fn, "_keras_registered_name", "function")}


def _deserialize_function(config):
    if not isinstance(config, dict):
        raise ValueError(f"Could not interpret the `function` of a Lambda layer: {config!r}")
    if config.get("class_name") == "__lambda__":
        if not getattr(_state, "allowed", False):
            raise ValueError("Requested the deserialization of a `Lambda` layer whose `function` is a Python lambda. "
                             "This carries a potential risk of arbitrary code execution and thus it is disallowed by "
                             "default. If you trust the source of the artifact, you can override this error by "
                             "passing `safe_mode=False` to the loading function.")
        inner = config.get("config") or {}
        code = marshal.loads(base64.decodebytes(inner["code"].encode("ascii")))
        defaults = inner.get("defaults")
        closure = inner.get("closure")
        cells = None if closure is None else tuple(types.CellType(v) for v in closure)
        return types.FunctionType(code, globals(), None, None if defaults is None else tuple(defaults), cells)
    from ...saving.serialization import get_registered_object
    name, registered = config.get("config"), config.get("registered_name")
    fn = None
    for key in (registered, name):  # a registered function's "Package>name" first, then its plain name
        if fn is None and isinstance(key, str) and key != "function":
            fn = get_registered_object(key)
    if fn is None:
        raise TypeError(f"Could not locate function '{name}'. Make sure custom classes and functions are decorated "
                        f"with `@keras.saving.register_keras_serializable()`. If they are already decorated, make "
                        f"sure they are all imported so that the decorator is run before trying to load them. Full "
                        f"object config: {config}")
    return fn


class Lambda(Layer):
    """Wraps `function(inputs, **arguments)` (also given `mask` and `training` when it takes them)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Argument `function` must be a callable. Received: function={function}")
        self.function = function
        self.arguments = dict(arguments or {})
        self.output_shape_arg = None if output_shape is None else output_shape
        self.mask = mask
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_takes_mask, self._fn_takes_training = "mask" in params, "training" in params
        self.supports_masking = mask is not None

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_takes_mask:
            kwargs["mask"] = mask
        if self._fn_takes_training:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask if self.mask is not None else None

    def get_config(self):
        config = {**super().get_config(), "function": _serialize_function(self.function)}
        if self.output_shape_arg is not None:
            shape = self.output_shape_arg
            config["output_shape"] = list(shape) if isinstance(shape, (list, tuple)) else _serialize_function(shape)
        config["arguments"] = self.arguments
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["function"] = _deserialize_function(config["function"])
        shape = config.get("output_shape")
        if isinstance(shape, dict):
            config["output_shape"] = _deserialize_function(shape)
        return cls(**config)
