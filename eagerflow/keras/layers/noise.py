"""Regularising noise layers, active only when training: SpatialDropout1D (drops whole channels of a
sequence), GaussianNoise (adds N(0, stddev)) and GaussianDropout (multiplies by N(1, rate/(1-rate)))."""
from __future__ import annotations

import math

from ..._src.ops import array as _array
from ..._src.ops import math as _math
from ..._src.ops import nn as _nn
from ..._src.ops import random as _random
from ..._src.ops.joining import concat
from .base import Layer
from .input_spec import check_ndim


def _check_unit(name, value):
    if not 0 <= value <= 1:
        raise ValueError(f"Invalid value received for argument `{name}`. Expected a float value between 0 and 1. "
                         f"Received: {name}={value}")


class SpatialDropout1D(Layer):
    """Dropout of entire channels: one keep/drop draw per (sample, channel), shared by every step."""
    supports_masking = True

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        _check_unit("rate", rate)
        self.rate, self.seed = rate, seed

    def call(self, inputs, training=False):
        check_ndim(self, inputs, ndim=3)
        if not training or self.rate == 0:
            return inputs
        shape = _array.shape(inputs)
        noise_shape = concat([shape[:1], _array.constant([1], dtype=shape.dtype), shape[2:]], 0)
        return _nn.dropout(inputs, self.rate, noise_shape=noise_shape, seed=self.seed)

    def get_config(self):
        return {"rate": self.rate, "seed": self.seed, "name": self.name, "dtype": self.dtype}  # Keras 3's four keys


class GaussianNoise(Layer):
    """inputs + N(0, stddev) noise while training (a data augmentation for real-valued inputs)."""
    supports_masking = True

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        _check_unit("stddev", stddev)
        self.stddev, self.seed = stddev, seed

    def call(self, inputs, training=False):
        if not training or self.stddev == 0:
            return inputs
        return inputs + _random.normal(_array.shape(inputs), stddev=self.stddev, dtype=inputs.dtype, seed=self.seed)

    def get_config(self):
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(Layer):
    """inputs * N(1, sqrt(rate / (1 - rate))) while training: multiplicative noise with the variance of a
    dropout of that rate, and the same mean."""
    supports_masking = True

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        _check_unit("rate", rate)
        self.rate, self.seed = rate, seed

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        stddev = math.sqrt(self.rate / (1.0 - self.rate))
        noise = _random.normal(_array.shape(inputs), mean=1.0, stddev=stddev, dtype=inputs.dtype, seed=self.seed)
        return _math.multiply(inputs, noise)

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}
