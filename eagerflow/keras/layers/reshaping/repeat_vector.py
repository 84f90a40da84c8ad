"""RepeatVector: (batch, features) -> (batch, n, features)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.tiling import tile
from ..base import Layer
from ..input_spec import check_ndim


class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features): the input repeated n times along a new axis 1."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        self.n = n

    def call(self, inputs):
        check_ndim(self, inputs, ndim=2)
        return tile(_array.expand_dims(inputs, 1), [1, self.n, 1])

    def get_config(self):
        return {**super().get_config(), "n": self.n}
