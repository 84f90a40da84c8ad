"""GlobalMaxPooling1D: the maximum over the spatial axes of a rank-3 input."""
from __future__ import annotations

from ...._src.ops.math import reduce as _reduce
from .base_global_pooling import BaseGlobalPooling


class GlobalMaxPooling1D(BaseGlobalPooling):
    _rank = 1
    _reduce = staticmethod(_reduce.reduce_max)


GlobalMaxPool1D = GlobalMaxPooling1D
