"""UpSampling3D: each voxel repeated along the three spatial axes."""
from __future__ import annotations

from ...._src.ops.array.repeat import repeat
from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim
from .zero_padding3d import triple


class UpSampling3D(Layer):
    """Repeats each voxel size[0], size[1], size[2] times along the three spatial axes."""

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.size = triple(size, "size")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        for axis, n in enumerate(self.size, start=1):
            inputs = repeat(inputs, n, axis=axis)
        return inputs

    def get_config(self):
        return {**super().get_config(), "size": list(self.size), "data_format": "channels_last"}
