"""GlobalAveragePooling1D: the mean over the steps axis, of the unmasked steps when a mask comes in."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ..input_spec import check_ndim
from .base_global_pooling import BaseGlobalPooling


class GlobalAveragePooling1D(BaseGlobalPooling):
    """The mean over the steps axis; with a mask (from Embedding(mask_zero=True), Masking) the mean of
    the unmasked steps only, as Keras 3 computes it. The output carries no mask."""
    _rank = 1
    _reduce = staticmethod(_reduce.reduce_mean)
    supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        check_ndim(self, inputs, ndim=3)
        weights = _array.expand_dims(_math.cast(mask, inputs.dtype), 2)
        total = _reduce.reduce_sum(inputs * weights, axis=1, keepdims=self.keepdims)
        return total / _reduce.reduce_sum(weights, axis=1, keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None


GlobalAvgPool1D = GlobalAveragePooling1D
