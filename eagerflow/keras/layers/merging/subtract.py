"""Subtract: the difference of two tensors (and its functional form)."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from .base_merge import aligned_inputs, Elementwise, input_shapes


class Subtract(Elementwise):
    def call(self, inputs):
        if isinstance(inputs, (list, tuple)) and len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: input_shape="
                             f"{input_shapes(inputs)}")
        inputs = aligned_inputs(inputs)
        return _math.subtract(inputs[0], inputs[1])


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)
