"""UpSampling1D: each step repeated `size` times."""
from __future__ import annotations

from ...._src.ops.array.repeat import repeat
from ..base import Layer
from ..input_spec import check_ndim


class UpSampling1D(Layer):
    """Repeats each step `size` times."""

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        return repeat(inputs, self.size, axis=1)

    def get_config(self):
        return {**super().get_config(), "size": self.size}
