"""GaussianDropout: while training, multiplies the input by noise from N(1, rate / (1 - rate))."""
from __future__ import annotations

import math

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ..base import Layer
from .gaussian_noise import check_unit


class GaussianDropout(Layer):
    """inputs * N(1, sqrt(rate / (1 - rate))) while training: multiplicative noise with the variance of a
    dropout of that rate, and the same mean."""
    supports_masking = True

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        check_unit("rate", rate)
        self.rate, self.seed = rate, seed

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        stddev = math.sqrt(self.rate / (1.0 - self.rate))
        noise = _random.normal(_array.shape(inputs), mean=1.0, stddev=stddev, dtype=inputs.dtype, seed=self.seed)
        return _math.multiply(inputs, noise)

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}
