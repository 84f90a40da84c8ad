"""ZeroPadding1D: zeros added at the start and end of the steps axis."""
from __future__ import annotations

from ...._src.ops.array.padding import pad
from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim
from .zero_padding3d import one_pair


class ZeroPadding1D(Layer):
    """Zeros added at the start and end of the steps axis."""

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.padding = one_pair(padding, "padding")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        return pad(inputs, [[0, 0], list(self.padding), [0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": list(self.padding), "data_format": "channels_last"}
