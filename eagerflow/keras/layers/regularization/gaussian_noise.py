"""GaussianNoise: while training, adds noise from N(0, stddev). `check_unit` checks the rates of the
noise and dropout layers."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.random import draws as _random
from ..base import Layer


def check_unit(name, value):
    if not 0 <= value <= 1:
        raise ValueError(f"Invalid value received for argument `{name}`. Expected a float value between 0 and 1. "
                         f"Received: {name}={value}")


class GaussianNoise(Layer):
    """inputs + N(0, stddev) noise while training (a data augmentation for real-valued inputs)."""
    supports_masking = True

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        check_unit("stddev", stddev)
        self.stddev, self.seed = stddev, seed

    def call(self, inputs, training=False):
        if not training or self.stddev == 0:
            return inputs
        return inputs + _random.normal(_array.shape(inputs), stddev=self.stddev, dtype=inputs.dtype, seed=self.seed)

    def get_config(self):
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


