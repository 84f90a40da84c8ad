"""Pipeline: a list of layers applied in turn, as one layer (an augmentation or preprocessing chain
that is not a Model: no summary, no fit, usable inside tf.data maps)."""
from __future__ import annotations

import inspect

from ..base import Layer
from ..rnn.bidirectional import deserialize_wrapped, serialize_wrapped


def _accepts(layer, argument):
    try:
        return argument in inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False


class Pipeline(Layer):
    """call(inputs, training=True, mask=None): each layer takes the previous one's output, with `training`
    and `mask` handed to the layers whose call takes them (so augmentations run by default, as Keras')."""

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = list(layers)
        self._tracked_layers.extend(self._pipeline_layers)

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        for layer in self._pipeline_layers:
            kwargs = {}
            if _accepts(layer, "training"):
                kwargs["training"] = training
            if mask is not None and _accepts(layer, "mask"):
                kwargs["mask"] = mask
            inputs = layer(inputs, **kwargs)
            mask = getattr(inputs, "_keras_mask", None)
        return inputs

    def get_config(self):
        return {"layers": [serialize_wrapped(layer) for layer in self._pipeline_layers], "name": self.name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls([deserialize_wrapped(c, custom_objects) for c in config["layers"]], name=config.get("name"))
