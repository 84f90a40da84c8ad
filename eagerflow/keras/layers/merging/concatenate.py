"""Concatenate: a list of tensors joined along `axis` (and its functional form)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.array.joining import concat
from ..base import Layer
from .base_merge import check_list, check_masks


class Concatenate(Layer):
    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        """Keras 3: each input's mask (all-true where it has none) broadcast over its features, joined
        along the axis, then any() over the last axis."""
        if mask is None:
            return None
        check_masks(inputs, mask)
        if all(m is None for m in mask):
            return None
        parts = []
        for x, m in zip(inputs, mask):
            if m is None:
                parts.append(_math.not_equal(_array.ones_like(x), _array.zeros_like(x)))
            elif m.shape.rank < x.shape.rank:
                parts.append(_array.broadcast_to(_array.expand_dims(m, -1), _array.shape(x)))
            else:
                parts.append(m)
        return _reduce.reduce_any(concat(parts, self.axis), axis=-1)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        check_list(self, inputs)
        return concat(list(inputs), self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)
