"""Cropping2D: rows and columns cut from the edges of channels_last images."""
from __future__ import annotations

from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim
from .zero_padding2d import pairs_2d


class Cropping2D(Layer):
    """Drops ((top, bottom), (left, right)) rows and columns from the edges of (batch, rows, cols, channels)."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.cropping = pairs_2d(cropping, "cropping")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=4)
        (top, bottom), (left, right) = self.cropping
        rows, cols = inputs.shape.as_list()[1:3]
        if (rows is not None and top + bottom >= rows) or (cols is not None and left + right >= cols):
            raise ValueError(f"Values in `cropping` argument should be smaller than the corresponding spatial "
                             f"dimension of the input. Received: inputs.shape={tuple(inputs.shape.as_list())}, "
                             f"cropping={self.cropping}")
        return inputs[:, top:(-bottom if bottom else None), left:(-right if right else None), :]

    def get_config(self):
        return {**super().get_config(), "cropping": [list(p) for p in self.cropping], "data_format": "channels_last"}
