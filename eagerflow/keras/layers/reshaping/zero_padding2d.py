"""Shape layers: Permute, RepeatVector, Rescaling, ZeroPadding2D, UpSampling2D (nearest) and Cropping2D
(channels_last images)."""
from __future__ import annotations

from ...._src.ops import array as _array
from ...._src.ops import math as _math
from ...._src.ops.image import resize
from ...._src.ops.joining import tile
from ...._src.ops.padding import pad
from ...._src.ops.repeat import repeat
from ..base import Layer
from ..arguments import check_channels_last
from ..input_spec import check_ndim


def _int_pair(value, name):
    """An int n -> (n, n); two ints -> themselves (as a tuple)."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"`{name}` should have two elements. Received: {name}={value}.")
    return value


def _pairs_2d(value, name):
    """Keras' symmetric/asymmetric spec: n, (h, w), or ((top, bottom), (left, right))."""
    if isinstance(value, int):
        return ((value, value), (value, value))
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"`{name}` should have two elements. Received: {name}={value}.")
    out = []
    for v in value:
        out.append((v, v) if isinstance(v, int) else _int_pair(v, name))
    return tuple(tuple(int(i) for i in p) for p in out)


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


class Rescaling(Layer):
    """inputs * scale + offset (e.g. scale=1/255 maps pixels to [0, 1])."""

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        dtype = self._dtype
        x = _math.cast(inputs, dtype) if inputs.dtype is not dtype else inputs
        return x * _math.cast(self.scale, dtype) + _math.cast(self.offset, dtype)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}


class ZeroPadding2D(Layer):
    """Zeros added around the rows and columns of (batch, rows, cols, channels) images."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.padding = _pairs_2d(padding, "padding")

    def call(self, inputs):
        check_ndim(self, inputs, ndim=4)
        (top, bottom), (left, right) = self.padding
        return pad(inputs, [[0, 0], [top, bottom], [left, right], [0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": [list(p) for p in self.padding], "data_format": "channels_last"}


class UpSampling2D(Layer):
    """Repeats each row size[0] times and each column size[1] times (nearest), or resizes the image to
    (rows * size[0], cols * size[1]) with half-pixel bilinear interpolation (tf.image.resize), as Keras does."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.size = _int_pair(size, "size")
        if interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(f"UpSampling2D(interpolation={interpolation!r}) is not supported yet; "
                                      f"only 'nearest' and 'bilinear' are.")
        self.interpolation = interpolation

    def call(self, inputs):
        check_ndim(self, inputs, ndim=4)
        if self.interpolation == "nearest":
            return repeat(repeat(inputs, self.size[0], axis=1), self.size[1], axis=2)
        rows, cols = inputs.shape.as_list()[1:3]
        if rows is None or cols is None:
            raise NotImplementedError("UpSampling2D(interpolation='bilinear') needs the input's rows and columns "
                                      "known.")
        return resize(inputs, [rows * self.size[0], cols * self.size[1]], method="bilinear")

    def get_config(self):
        return {**super().get_config(), "size": list(self.size), "data_format": "channels_last",
                "interpolation": self.interpolation}


class Cropping2D(Layer):
    """Drops ((top, bottom), (left, right)) rows and columns from the edges of (batch, rows, cols, channels)."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.cropping = _pairs_2d(cropping, "cropping")

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
