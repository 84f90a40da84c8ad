"""Dropout: while training, zeroes a random `rate` of the inputs and scales the rest by 1 / (1 - rate)."""
from __future__ import annotations

from ...._src.ops.nn import basic as _nn
from ..base import Layer


class Dropout(Layer):
    """Zeroes a `rate` fraction of the inputs (scaling the rest by 1/(1-rate)) when training."""
    supports_masking = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             f"Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return _nn.dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed)
        return inputs

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape}
