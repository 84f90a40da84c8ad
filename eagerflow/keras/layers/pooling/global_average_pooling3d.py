"""GlobalAveragePooling3D: the mean over the spatial axes of a rank-5 input."""
from __future__ import annotations

from ...._src.ops.math import reduce as _reduce
from .base_global_pooling import BaseGlobalPooling


class GlobalAveragePooling3D(BaseGlobalPooling):
    _rank = 3
    _reduce = staticmethod(_reduce.reduce_mean)


GlobalAvgPool3D = GlobalAveragePooling3D
