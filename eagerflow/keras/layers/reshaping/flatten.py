"""Flatten: every non-batch axis folded into one."""
from __future__ import annotations

import math

from ...._src.ops.array import basic as _array
from ..base import Layer
from ..core.dense import batch_and


class Flatten(Layer):
    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError("Only data_format='channels_last' is supported.")

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last"}

    def call(self, inputs):
        dims = inputs.shape.as_list()[1:]
        if all(d is not None for d in dims):
            return _array.reshape(inputs, [-1, math.prod(dims)])
        return _array.reshape(inputs, batch_and(inputs, [-1]))
