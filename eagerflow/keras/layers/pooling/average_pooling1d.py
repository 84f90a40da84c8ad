"""AveragePooling1D: the mean of each window over the steps."""
from __future__ import annotations

from ...._src.ops.nn import pooling as _pool
from .base_pooling import BasePooling


class AveragePooling1D(BasePooling):
    _rank = 1
    _op = staticmethod(_pool.avg_pool2d)


AvgPool1D = AveragePooling1D
