"""AlphaDropout: dropout that keeps the mean and variance of SELU activations, while training."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ..base import Layer
from .gaussian_noise import check_unit


class AlphaDropout(Layer):
    """Dropout for SELU networks: dropped units take SELU's negative saturation value, then an affine map
    restores the inputs' mean and variance (Keras' a * (x * keep + alpha' * (1 - keep)) + b)."""
    supports_masking = True
    _ALPHA_P = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        check_unit("rate", rate)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs, training=False):
        if not training or not 0 < self.rate < 1:
            return inputs
        shape = _array.shape(inputs) if self.noise_shape is None else self.noise_shape
        keep = _math.cast(_math.greater_equal(_random.uniform(shape, dtype=inputs.dtype, seed=self.seed),
                                              _math.cast(self.rate, inputs.dtype)), inputs.dtype)
        alpha_p, rate = self._ALPHA_P, self.rate
        a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * rate
        x = inputs * keep + _math.cast(alpha_p, inputs.dtype) * (1.0 - keep)
        return x * _math.cast(a, inputs.dtype) + _math.cast(b, inputs.dtype)

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape}
