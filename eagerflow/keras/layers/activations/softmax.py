"""Softmax over an axis, with masked positions left out (attention layers use masked_softmax)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ...._src.ops.math.reduce import reduce_logsumexp
from ...._src.core.shape import as_shape
from ...._src.ops.shape_rules import broadcast_shape
from ..base import Layer


class Softmax(Layer):
    supports_masking = True

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        return masked_softmax(inputs, self.axis, mask)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


def masked_softmax(x, axis, mask=None, zero_masked=True):
    """Keras 3's Softmax: positions where `mask` is False (or <= 0.5) get -1e9 before the softmax and 0
    after it (so a fully masked row is all zeros, not uniform); a tuple `axis` normalises over several
    axes at once. Attention layers reuse it; zero_masked=False keeps the uniform row of a fully masked
    query, as Keras' fused dot_product_attention path computes it."""
    if mask is not None:
        # a mask that cannot broadcast against the scores: Keras' first op on both refuses it in these words
        broadcast_shape(as_shape(x.shape), as_shape(mask.shape))
        mask = _math.cast(mask, "bool") if mask.dtype.name == "bool" else _math.greater(
            mask, _math.cast(0.5, mask.dtype))
        x = _array.where(mask, x, _array.fill(_array.shape(x), _math.cast(-1e9, x.dtype)))
    if isinstance(axis, (tuple, list)) and len(axis) > 1:
        out = _math.exp(x - reduce_logsumexp(x, axis=list(axis), keepdims=True))
    else:
        out = _nn.softmax(x, axis=axis[0] if isinstance(axis, (tuple, list)) else axis)
    if mask is not None and zero_masked:
        out = _array.where(mask, out, _array.zeros_like(out))
    return out
