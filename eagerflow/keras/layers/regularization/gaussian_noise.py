"""Regularising layers. Noise, active only when training: SpatialDropout1D/2D/3D (drop whole channels),
GaussianNoise (adds N(0, stddev)), GaussianDropout (multiplies by N(1, rate/(1-rate))) and AlphaDropout
(for SELU networks); ActivityRegularization adds an L1/L2 penalty on its input to the losses."""
from __future__ import annotations

import math

from ...._src.ops import array as _array
from ...._src.ops import math as _math
from ...._src.ops import nn as _nn
from ...._src.ops import random as _random
from ...._src.ops.joining import concat
from ..base import Layer
from ..input_spec import check_ndim


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


class _SpatialDropout(Layer):
    """Dropout of entire feature maps: one keep/drop draw per (sample, channel), shared by every position."""
    supports_masking = True
    _ndim = None

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        _check_unit("rate", rate)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError("Only data_format='channels_last' is supported.")
        self.rate, self.seed = rate, seed

    def call(self, inputs, training=False):
        check_ndim(self, inputs, ndim=self._ndim)
        if not training or self.rate == 0:
            return inputs
        shape = _array.shape(inputs)
        noise_shape = concat([shape[:1], _array.constant([1] * (self._ndim - 2), dtype=shape.dtype), shape[-1:]], 0)
        return _nn.dropout(inputs, self.rate, noise_shape=noise_shape, seed=self.seed)

    def get_config(self):
        return {"rate": self.rate, "seed": self.seed, "name": self.name, "dtype": self.dtype,
                "data_format": "channels_last"}


class SpatialDropout2D(_SpatialDropout):
    _ndim = 4


class SpatialDropout3D(_SpatialDropout):
    _ndim = 5


class AlphaDropout(Layer):
    """Dropout for SELU networks: dropped units take SELU's negative saturation value, then an affine map
    restores the inputs' mean and variance (Keras' a * (x * keep + alpha' * (1 - keep)) + b)."""
    supports_masking = True
    _ALPHA_P = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        _check_unit("rate", rate)
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


class ActivityRegularization(Layer):
    """Passes its input through and adds l1 * sum|x| + l2 * sum(x**2) (over the batch size) to the losses."""
    supports_masking = True

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        from ... import regularizers as _reg
        super().__init__(activity_regularizer=_reg.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def get_config(self):
        return {**super().get_config(), "l1": self.l1, "l2": self.l2}
