"""Cropping3D: voxels cut from the edges of a (batch, d1, d2, d3, channels) volume."""
from __future__ import annotations

from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim
from .zero_padding3d import pairs_3d


class Cropping3D(Layer):
    """Drops ((a0, a1), (b0, b1), (c0, c1)) from the ends of the three spatial axes."""

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.cropping = pairs_3d(cropping, "cropping")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        dims = inputs.shape.as_list()[1:4]
        if any(d is not None and a + b >= d for d, (a, b) in zip(dims, self.cropping)):
            raise ValueError(f"Values in `cropping` argument should be smaller than the corresponding spatial "
                             f"dimension of the input. Received: inputs.shape={tuple(inputs.shape.as_list())}, "
                             f"cropping={self.cropping}")
        (a0, a1), (b0, b1), (c0, c1) = self.cropping
        return inputs[:, a0:(-a1 if a1 else None), b0:(-b1 if b1 else None), c0:(-c1 if c1 else None), :]

    def get_config(self):
        return {**super().get_config(), "cropping": [list(p) for p in self.cropping], "data_format": "channels_last"}
