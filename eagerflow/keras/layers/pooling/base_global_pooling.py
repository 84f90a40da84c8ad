"""BaseGlobalPooling: the max or mean over every spatial axis of a (batch, *spatial, channels)
input, channels_last."""
from __future__ import annotations

from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim


class BaseGlobalPooling(Layer):
    """`_rank` spatial axes reduced by `_reduce` (reduce_max or reduce_mean)."""
    _rank = None
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.keepdims = keepdims

    def call(self, inputs):
        check_ndim(self, inputs, ndim=self._rank + 2)
        return type(self)._reduce(inputs, axis=list(range(1, self._rank + 1)), keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "keepdims": self.keepdims}
