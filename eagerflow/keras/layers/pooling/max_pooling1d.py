"""MaxPooling1D: the maximum of each window over the steps."""
from __future__ import annotations

from ...._src.ops.nn import pooling as _pool
from .base_pooling import BasePooling


class MaxPooling1D(BasePooling):
    _rank = 1
    _op = staticmethod(_pool.max_pool2d)

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(pool_size, strides, padding, data_format, **kwargs)


MaxPool1D = MaxPooling1D
