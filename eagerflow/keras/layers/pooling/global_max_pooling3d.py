"""GlobalMaxPooling3D: the maximum over the spatial axes of a rank-5 input."""
from __future__ import annotations

from ...._src.ops.math import reduce as _reduce
from .base_global_pooling import BaseGlobalPooling


class GlobalMaxPooling3D(BaseGlobalPooling):
    _rank = 3
    _reduce = staticmethod(_reduce.reduce_max)


GlobalMaxPool3D = GlobalMaxPooling3D
