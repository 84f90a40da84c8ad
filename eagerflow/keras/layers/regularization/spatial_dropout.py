"""SpatialDropout1D/2D/3D: while training, drop whole channels (feature maps) instead of single values."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.nn import basic as _nn
from ...._src.ops.array.joining import concat
from ..base import Layer
from ..input_spec import check_ndim
from .gaussian_noise import check_unit


class SpatialDropout1D(Layer):
    """Dropout of entire channels: one keep/drop draw per (sample, channel), shared by every step."""
    supports_masking = True

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        check_unit("rate", rate)
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


class _SpatialDropout(Layer):
    """Dropout of entire feature maps: one keep/drop draw per (sample, channel), shared by every position."""
    supports_masking = True
    _ndim = None

    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        check_unit("rate", rate)
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
