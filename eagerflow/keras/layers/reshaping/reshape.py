"""Reshape: the non-batch axes reshaped to `target_shape`."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ..base import Layer
from ..core.dense import batch_and


class Reshape(Layer):
    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        if -1 not in self.target_shape:
            return _array.reshape(inputs, [-1] + list(self.target_shape))
        return _array.reshape(inputs, batch_and(inputs, list(self.target_shape)))

    def get_config(self):
        return {**super().get_config(), "target_shape": list(self.target_shape)}
