"""Permute: reorders the non-batch axes."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ..base import Layer


class Permute(Layer):
    """Reorders the non-batch axes: dims are 1-based (Permute((2, 1)) swaps the two axes after the batch)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={self.dims}")

    def call(self, inputs):
        return _array.transpose(inputs, [0] + list(self.dims))

    def get_config(self):
        return {**super().get_config(), "dims": list(self.dims)}
