"""Merging layers: Concatenate and Add, called on a list of tensors."""
from __future__ import annotations

from ..._src.ops.joining import concat
from ..._src.ops.math import add_n
from .base import Layer


def _check_list(layer, inputs):
    if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
                         f"(not a list of tensors)")


class Concatenate(Layer):
    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        _check_list(self, inputs)
        return concat(list(inputs), self.axis)


class Add(Layer):
    def call(self, inputs):
        _check_list(self, inputs)
        return add_n(list(inputs)) if len(inputs) > 1 else inputs[0]
