"""Bidirectional: a recurrent layer run forwards and a copy run backwards, their outputs merged; the
(de)serialization and build helpers the wrappers share."""
from __future__ import annotations

import copy

from ...._src.ops.math import elementwise as _math
from ...._src.ops.array.joining import concat
from ...._src.ops.array.ordering import reverse
from ...naming import name_scope, scope_stack
from ..base import Layer
from ..input_spec import check_ndim


def serialize_wrapped(layer):
    from ...saving.serialization import serialize_layer
    return serialize_layer(layer)


def deserialize_wrapped(config, custom_objects=None):
    """The wrapped layer, unbuilt: the wrapper builds it inside its own scope, so its weight paths stay
    "wrapper/layer/..." (its build_config is the wrapper's to apply)."""
    from ...saving.serialization import deserialize_keras_object, keras_classes
    config = {k: v for k, v in config.items() if k != "build_config"}
    return deserialize_keras_object(config, keras_classes(), custom_objects, kind="layer")


def build_inside(wrapper, layer, input_shape):
    """Builds `layer` now with its weights under wrapper/layer/..., as a call inside the wrapper would."""
    if layer.built:
        return
    outer = [] if wrapper.name in scope_stack() else [wrapper.name]
    scopes = [name_scope(n) for n in outer + [layer.name]]
    for s in scopes:
        s.__enter__()
    try:
        if layer._build_overridden:
            layer.build(tuple(input_shape))
        layer._build_shapes_for_config = tuple(input_shape)
        layer.built = True
    finally:
        for s in reversed(scopes):
            s.__exit__(None, None, None)


_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


def _renamed_copy(layer, name, flip_direction):
    """A fresh layer from `layer`'s config under a new name (and the other direction when asked), as
    Keras 3 makes the forward and backward layers of a Bidirectional."""
    config = copy.deepcopy(layer.get_config())
    config["name"] = name
    config["zero_output_for_mask"] = True  # Keras 3: a masked step gives zeros, in both directions
    if flip_direction:
        config["go_backwards"] = not config.get("go_backwards", False)
    return type(layer).from_config(config)


def _strip(prefix, name):
    return name[len(prefix):] if name.startswith(prefix) else name


class Bidirectional(Layer):
    """Runs a recurrent layer over the sequence and a copy of it over the reversed sequence; merge_mode
    joins the two outputs ('concat' on the feature axis, 'sum', 'ave', 'mul', or None for both as a list).
    With return_sequences the backward outputs are put back in time order before merging; with
    return_state the states of the forward then the backward layer follow the merged output."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        if not hasattr(layer, "go_backwards") or not hasattr(layer, "return_sequences"):
            raise TypeError(f"`Bidirectional` wraps a recurrent layer (LSTM, GRU, SimpleRNN) that has "
                            f"`go_backwards` and `return_sequences`. Received: {type(layer).__name__}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        if weights is not None:
            raise NotImplementedError("Bidirectional(weights=...) is not supported: call set_weights after build.")
        super().__init__(**kwargs)
        base = _strip("forward_", layer.name)
        self.forward_layer = _renamed_copy(layer, "forward_" + base, flip_direction=False)
        if backward_layer is None:
            self.backward_layer = _renamed_copy(layer, "backward_" + _strip("backward_", base), flip_direction=True)
        else:
            if backward_layer.go_backwards == layer.go_backwards:
                raise ValueError(f"Forward layer and backward layer should have different `go_backwards` value. "
                                 f"Received: forward_layer.go_backwards={layer.go_backwards}, "
                                 f"backward_layer.go_backwards={backward_layer.go_backwards}")
            self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state

    def build(self, input_shape):
        build_inside(self, self.forward_layer, input_shape)
        build_inside(self, self.backward_layer, input_shape)
        self.built = True

    def call(self, inputs, training=None, mask=None):
        check_ndim(self, inputs, ndim=3)
        kwargs = {"training": training}
        if mask is not None:
            kwargs["mask"] = mask
        y_f = self.forward_layer(inputs, **kwargs)
        y_b = self.backward_layer(inputs, **kwargs)
        states = []
        if self.return_state:
            states = list(y_f[1:]) + list(y_b[1:])
            y_f, y_b = y_f[0], y_b[0]
        if self.return_sequences:
            y_b = reverse(y_b, [1])
        if self.merge_mode == "concat":
            out = concat([y_f, y_b], -1)
        elif self.merge_mode == "sum":
            out = y_f + y_b
        elif self.merge_mode == "ave":
            out = (y_f + y_b) * _math.cast(0.5, y_f.dtype)
        elif self.merge_mode == "mul":
            out = y_f * y_b
        else:
            out = [y_f, y_b]
        if self.return_state:
            return (out if isinstance(out, list) else [out]) + states
        return out

    def compute_mask(self, inputs, mask=None):
        """The input mask when sequences are returned (for a following recurrent layer), else none."""
        if not self.return_sequences or mask is None:
            return None
        if self.merge_mode is None or self.return_state:
            return None
        return mask

    def get_config(self):
        return {**super().get_config(), "merge_mode": self.merge_mode, "layer": serialize_wrapped(self.forward_layer),
                "backward_layer": serialize_wrapped(self.backward_layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["layer"] = deserialize_wrapped(config["layer"], custom_objects)
        if config.get("backward_layer") is not None:
            config["backward_layer"] = deserialize_wrapped(config["backward_layer"], custom_objects)
        return cls(**config)
