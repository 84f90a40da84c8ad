"""TimeDistributed: one layer applied to every time step of a sequence."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ..base import Layer
from .bidirectional import build_inside, deserialize_wrapped, serialize_wrapped


class TimeDistributed(Layer):
    """Applies `layer` to each slice inputs[:, t]: the batch and time axes are folded into one for a single
    call (the same result as one call per step for layers that treat samples independently)."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape):
        if len(input_shape) < 3:
            return  # call() raises Keras' message
        build_inside(self, self.layer, (None,) + tuple(input_shape[2:]))
        self.built = True

    def call(self, inputs, training=None):
        if inputs.shape.rank < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                             f"dimensions, received: {tuple(inputs.shape.as_list())}")
        dims = inputs.shape.as_list()
        shape = _array.shape(inputs)
        inner = dims[2:]
        if all(d is not None for d in inner):
            folded = _array.reshape(inputs, [-1] + inner)
        else:
            folded = _array.reshape(inputs, concat([_array.constant([-1], dtype=shape.dtype), shape[2:]], 0))
        y = self.layer(folded, training=training)
        out_inner = y.shape.as_list()[1:]
        lead = [-1 if dims[0] is None else dims[0], dims[1]]
        if dims[1] is None or any(d is None for d in out_inner):
            target = concat([shape[:2], _array.shape(y)[1:]], 0)
        else:
            target = lead + out_inner
        out = _array.reshape(y, target)
        out.set_shape(dims[:2] + out_inner)  # what is known statically, for the next layer's build
        return out

    def get_config(self):
        return {**super().get_config(), "layer": serialize_wrapped(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["layer"] = deserialize_wrapped(config["layer"], custom_objects)
        return cls(**config)
