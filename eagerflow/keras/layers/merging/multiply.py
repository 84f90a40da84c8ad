"""Multiply: the elementwise product of a list of tensors (and its functional form)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from .base_merge import aligned_inputs, Elementwise, feature_masks


class Multiply(Elementwise):
    """The product; a masked step counts as 1, and where every input is masked the output is 0 (Keras 3)."""
    _op = staticmethod(_math.multiply)

    def call(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return super().call(inputs)
        inputs = aligned_inputs(inputs)
        masks = feature_masks(inputs, mask)
        out, out_mask = None, None
        for x, m in zip(inputs, masks):
            if m is not None:
                x = _array.where(m, x, _array.ones_like(x))
                out_mask = m if out_mask is None else _math.logical_or(out_mask, m)
            out = x if out is None else _math.multiply(out, x)
        if all(m is not None for m in masks):
            out = _array.where(out_mask, out, _array.zeros_like(out))
        return out


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)
