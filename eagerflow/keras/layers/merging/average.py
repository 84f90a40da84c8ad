"""Average: the elementwise mean of a list of tensors (and its functional form)."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.math.elementwise import add_n
from .base_merge import aligned_inputs, Elementwise


class Average(Elementwise):
    def call(self, inputs):
        inputs = aligned_inputs(inputs)
        total = add_n(list(inputs)) if len(inputs) > 1 else inputs[0]
        return total / _math.cast(len(inputs), total.dtype)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)
