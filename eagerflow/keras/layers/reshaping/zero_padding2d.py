"""ZeroPadding2D: zeros added around channels_last images; the pair helpers the 2-D shape layers share."""
from __future__ import annotations

from ...._src.ops.array.padding import pad
from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim


def pair_of_ints(value, name):
    """An int n -> (n, n); two ints -> themselves (as a tuple)."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"`{name}` should have two elements. Received: {name}={value}.")
    return value


def pairs_2d(value, name):
    """Keras' symmetric/asymmetric spec: n, (h, w), or ((top, bottom), (left, right))."""
    if isinstance(value, int):
        return ((value, value), (value, value))
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"`{name}` should have two elements. Received: {name}={value}.")
    out = []
    for v in value:
        out.append((v, v) if isinstance(v, int) else pair_of_ints(v, name))
    return tuple(tuple(int(i) for i in p) for p in out)


class ZeroPadding2D(Layer):
    """Zeros added around the rows and columns of (batch, rows, cols, channels) images."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.padding = pairs_2d(padding, "padding")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=4)
        (top, bottom), (left, right) = self.padding
        return pad(inputs, [[0, 0], [top, bottom], [left, right], [0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": [list(p) for p in self.padding], "data_format": "channels_last"}


