"""The 1-D (batch, steps, channels) and 3-D (batch, d1, d2, d3, channels) shape layers beside reshaping.py's
2-D ones: ZeroPadding1D/3D, Cropping1D/3D, UpSampling1D/3D (nearest: each step/voxel repeated)."""
from __future__ import annotations

from ...._src.ops.padding import pad
from ...._src.ops.repeat import repeat
from ..base import Layer
from ..input_spec import check_ndim
from ..arguments import check_channels_last
from .zero_padding2d import _int_pair


def _one_pair(value, name):
    """n -> (n, n); (a, b) -> itself: the two ends of the steps axis."""
    return (int(value), int(value)) if isinstance(value, int) else tuple(int(v) for v in _int_pair(value, name))


def _triple(value, name):
    """n -> (n, n, n); three ints -> themselves."""
    if isinstance(value, int):
        return (value,) * 3
    value = tuple(value)
    if len(value) != 3:
        raise ValueError(f"`{name}` should have 3 elements. Received: {name}={value}.")
    return tuple(int(v) for v in value)


def _pairs_3d(value, name):
    """n, (a, b, c) or ((a0, a1), (b0, b1), (c0, c1)): the two ends of each of the three spatial axes."""
    if isinstance(value, int):
        return ((value, value),) * 3
    value = tuple(value)
    if len(value) != 3:
        raise ValueError(f"`{name}` should have 3 elements. Received: {name}={value}.")
    return tuple((v, v) if isinstance(v, int) else tuple(int(i) for i in _int_pair(v, name)) for v in value)


class ZeroPadding1D(Layer):
    """Zeros added at the start and end of the steps axis."""

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.padding = _one_pair(padding, "padding")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=3)
        return pad(inputs, [[0, 0], list(self.padding), [0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": list(self.padding), "data_format": "channels_last"}


class ZeroPadding3D(Layer):
    """Zeros added around the three spatial axes of (batch, d1, d2, d3, channels)."""

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.padding = _pairs_3d(padding, "padding")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        return pad(inputs, [[0, 0]] + [list(p) for p in self.padding] + [[0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": [list(p) for p in self.padding], "data_format": "channels_last"}


class Cropping1D(Layer):
    """Drops (start, end) steps."""

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = _one_pair(cropping, "cropping")

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


class Cropping3D(Layer):
    """Drops ((a0, a1), (b0, b1), (c0, c1)) from the ends of the three spatial axes."""

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.cropping = _pairs_3d(cropping, "cropping")

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


class UpSampling3D(Layer):
    """Repeats each voxel size[0], size[1], size[2] times along the three spatial axes."""

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.size = _triple(size, "size")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=5)
        for axis, n in enumerate(self.size, start=1):
            inputs = repeat(inputs, n, axis=axis)
        return inputs

    def get_config(self):
        return {**super().get_config(), "size": list(self.size), "data_format": "channels_last"}
