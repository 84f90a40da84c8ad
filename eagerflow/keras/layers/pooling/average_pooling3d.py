"""AveragePooling3D: the mean of each window over the three spatial axes."""
from __future__ import annotations

from ...._src.ops.nn import pooling as _pool
from .base_pooling import BasePooling


class AveragePooling3D(BasePooling):
    _rank = 3
    _op = staticmethod(_pool.avg_pool2d)


AvgPool3D = AveragePooling3D
