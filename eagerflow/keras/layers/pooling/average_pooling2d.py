"""AveragePooling2D: the mean of each window over the rows and columns."""
from __future__ import annotations

from ...._src.ops.nn import pooling as _pool
from .base_pooling import BasePooling


class AveragePooling2D(BasePooling):
    _rank = 2
    _op = staticmethod(_pool.avg_pool2d)


AvgPool2D = AveragePooling2D
