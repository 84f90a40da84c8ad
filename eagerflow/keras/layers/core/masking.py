"""Masking: marks the time steps whose features all equal `mask_value` as skipped (masks.py carries
the mask on to later layers)."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ..base import Layer


class Masking(Layer):
    """Marks time steps whose features all equal `mask_value` as skipped, and zeroes them."""
    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return _reduce.reduce_any(_math.not_equal(inputs, _math.cast(self.mask_value, inputs.dtype)), axis=-1)

    def call(self, inputs):
        keep = _reduce.reduce_any(_math.not_equal(inputs, _math.cast(self.mask_value, inputs.dtype)), axis=-1,
                                  keepdims=True)
        return inputs * _math.cast(keep, inputs.dtype)

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}
