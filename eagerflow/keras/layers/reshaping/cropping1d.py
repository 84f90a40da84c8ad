"""Cropping1D: steps cut from the start and end of a sequence."""
from __future__ import annotations

from ..base import Layer
from ..input_spec import check_ndim
from .zero_padding3d import one_pair


class Cropping1D(Layer):
    """Drops (start, end) steps."""

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = one_pair(cropping, "cropping")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        start, end = self.cropping
        steps = inputs.shape.as_list()[1]
        if steps is not None and start + end >= steps:
            raise ValueError(f"`cropping` parameter of `Cropping1D` layer must be smaller than the input length. "
                             f"Received: inputs.shape={tuple(inputs.shape.as_list())}, cropping={self.cropping}")
        return inputs[:, start:(-end if end else None), :]

    def get_config(self):
        return {**super().get_config(), "cropping": list(self.cropping)}
