"""ZeroPadding3D: zeros added around (batch, d1, d2, d3, channels) volumes; the helpers the 1-D and 3-D
shape layers share."""
from __future__ import annotations

from ...._src.ops.array.padding import pad
from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim
from .zero_padding2d import pair_of_ints


def one_pair(value, name):
    """n -> (n, n); (a, b) -> itself: the two ends of the steps axis."""
    return (int(value), int(value)) if isinstance(value, int) else tuple(int(v) for v in pair_of_ints(value, name))


def triple(value, name):
    """n -> (n, n, n); three ints -> themselves."""
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(value)
    if len(value) != 3:
        raise ValueError(f"`{name}` should have 3 elements. Received: {name}={value}.")
    return tuple(int(v) for v in value)


def pairs_3d(value, name):
    """n, (a, b, c) or ((a0, a1), (b0, b1), (c0, c1)): the two ends of each of the three spatial axes."""
    if isinstance(value, int):
        return ((value, value),) * 3
    value = tuple(value)
    if len(value) != 3:
        raise ValueError(f"`{name}` should have 3 elements. Received: {name}={value}.")
    return tuple((v, v) if isinstance(v, int) else tuple(int(i) for i in pair_of_ints(v, name)) for v in value)


class ZeroPadding3D(Layer):
    """Zeros added around the three spatial axes of (batch, d1, d2, d3, channels)."""

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.padding = pairs_3d(padding, "padding")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        return pad(inputs, [[0, 0]] + [list(p) for p in self.padding] + [[0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": [list(p) for p in self.padding], "data_format": "channels_last"}


