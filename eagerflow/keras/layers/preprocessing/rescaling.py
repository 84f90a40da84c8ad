"""Rescaling: x * scale + offset."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ..base import Layer


class Rescaling(Layer):
    """inputs * scale + offset (e.g. scale=1/255 maps pixels to [0, 1])."""

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        dtype = self._dtype
        x = _math.cast(inputs, dtype) if inputs.dtype is not dtype else inputs
        return x * _math.cast(self.scale, dtype) + _math.cast(self.offset, dtype)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}
