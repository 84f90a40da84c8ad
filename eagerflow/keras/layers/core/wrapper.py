"""Wrapper: the base of layers that hold one inner layer and call it their own way (subclassed by
user code; its weights live under wrapper/inner/...)."""
from __future__ import annotations

from ..base import Layer
from ..rnn.bidirectional import build_inside, deserialize_wrapped, serialize_wrapped


class Wrapper(Layer):
    """Holds `layer`, builds it inside this layer's name scope, and writes it into the config as "layer".
    Subclasses define `call`."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please ensure "
                             f"wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if input_shape is not None:
            build_inside(self, self.layer, input_shape)
        self.built = True

    def get_config(self):
        return {**super().get_config(), "layer": serialize_wrapped(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["layer"] = deserialize_wrapped(config["layer"], custom_objects)
        return cls(**config)
