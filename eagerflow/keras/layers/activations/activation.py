"""Activation: any keras.activations function as a layer."""
from __future__ import annotations

from ... import activations as _act
from ..base import Layer


class Activation(Layer):
    supports_masking = True

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _act.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), "activation": _act.serialize(self.activation)}
