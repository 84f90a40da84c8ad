"""BasePooling: max and average pooling of sequences (rank 1), images (rank 2) and volumes (rank 3),
channels_last, all run by the 2-D pooling ops:
- 1-D pooling pools a (batch, steps, 1, channels) image;
- 3-D pooling is separable: pool each depth slice over (d2, d3), then pool over d1 (a box window's
  valid count is the product of its per-axis counts, so 'same' averages stay exact).
"""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ..arguments import as_list, check_channels_last, int_pair, padding_mode, single_int
from ..base import Layer
from ..convolutional.conv3d import with_leading
from ..input_spec import check_ndim
from ..reshaping.zero_padding3d import triple


def _pool_steps(layer, inputs, pool):
    check_ndim(layer, inputs, ndim=3)
    x = _array.expand_dims(inputs, 2)  # (batch, steps, 1, channels)
    y = pool(x, (1, layer.pool_size, 1, 1), (1, layer.strides, 1, 1), layer.padding.upper())
    return _array.squeeze(y, [2])


def _pool_images(layer, inputs, pool):
    return pool(inputs, (1,) + layer.pool_size + (1,), (1,) + layer.strides + (1,), layer.padding)


def _pool_volumes(layer, inputs, pool):
    check_ndim(layer, inputs, ndim=5)
    (pd, ph, pw), (sd, sh, sw) = layer.pool_size, layer.strides
    shape = _array.shape(inputs)
    planes = pool(_array.reshape(inputs, with_leading([-1], shape[2:])), (1, ph, pw, 1), (1, sh, sw, 1),
                  layer.padding)  # (batch * depth, rows', cols', channels)
    plane_shape = _array.shape(planes)
    line = _array.reshape(planes, concat([shape[:2], plane_shape[1:2] * plane_shape[2:3], shape[4:]], 0))
    pooled = pool(line, (1, pd, 1, 1), (1, sd, 1, 1), layer.padding)  # (batch, depth', rows' * cols', channels)
    out = _array.reshape(pooled, concat([shape[:1], _array.shape(pooled)[1:2], plane_shape[1:3], shape[4:]], 0))
    static = inputs.shape.as_list()
    out.set_shape([static[0], pooled.shape.as_list()[1]] + planes.shape.as_list()[1:3] + [static[-1]])
    return out


_BY_RANK = {1: (single_int, _pool_steps), 2: (int_pair, _pool_images), 3: (triple, _pool_volumes)}


class BasePooling(Layer):
    """pool_size, strides (pool_size by default) and padding of a `_rank`-D window; `_op` is the 2-D
    pooling op (max or average). 1-D layers keep ints and lower-case padding, as they always have;
    2-D and 3-D layers keep tuples and TensorFlow's upper-case padding."""
    _rank = None
    _op = None

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        parse = _BY_RANK[self._rank][0]
        self.pool_size = parse(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else parse(strides, "strides")
        mode = padding_mode(padding)
        self.padding = mode if self._rank == 1 else mode.upper()

    def call(self, inputs):
        return _BY_RANK[self._rank][1](self, inputs, type(self)._op)

    def get_config(self):
        return {**super().get_config(), "pool_size": as_list(self.pool_size), "padding": self.padding.lower(),
                "strides": as_list(self.strides), "data_format": "channels_last"}
