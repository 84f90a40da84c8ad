"""Dropout: while training, zeroes a random `rate` of the inputs and scales the rest by 1 / (1 - rate)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array import joining as _joining
from ...._src.ops.nn import basic as _nn
from ..base import Layer


def resolve_noise_shape(inputs, noise_shape):
    """`noise_shape` with each None replaced by the input's size on that axis (Keras lets
    (None, 1, 1, 1) mean one draw per sample); None stays None (a draw per element)."""
    if noise_shape is None or all(d is not None for d in noise_shape):
        return noise_shape
    static = tuple(inputs.shape)
    if all(d is not None for d in static):
        return tuple(static[i] if d is None else d for i, d in enumerate(noise_shape))
    dynamic = _array.shape(inputs)
    return _joining.stack([dynamic[i] if d is None else d for i, d in enumerate(noise_shape)])


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
            noise_shape = resolve_noise_shape(inputs, self.noise_shape)
            return _nn.dropout(inputs, self.rate, noise_shape=noise_shape, seed=self.seed)
        return inputs

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape}
