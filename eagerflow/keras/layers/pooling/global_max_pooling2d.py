"""GlobalMaxPooling2D: the maximum over the spatial axes of a rank-4 input."""
from __future__ import annotations

from ...._src.ops.math import reduce as _reduce
from .base_global_pooling import BaseGlobalPooling


class GlobalMaxPooling2D(BaseGlobalPooling):
    _rank = 2
    _reduce = staticmethod(_reduce.reduce_max)


GlobalMaxPool2D = GlobalMaxPooling2D
