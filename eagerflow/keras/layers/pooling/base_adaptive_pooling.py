"""BaseAdaptivePooling: pooling to a fixed output size whatever the input size (channels_last).

Output cell i of an axis of n inputs pooled to o outputs covers inputs floor(i * n / o) up to
ceil((i + 1) * n / o) (exclusive): cells tile the axis, overlapping by one when o does not divide n.
Cells are boxes, so the pooling runs one spatial axis at a time (a box's max or mean is the max or
mean over one axis of the max or mean over the others, each per-axis cell holding the same count)."""
from __future__ import annotations

from ...._src.ops.array.joining import concat
from ...._src.ops.math import reduce as _reduce
from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim


def cell_bounds(n, o):
    """[(start, stop)] of the o output cells over an axis of n inputs."""
    return [((i * n) // o, -((-(i + 1) * n) // o)) for i in range(o)]


def _sizes(output_size, rank):
    if isinstance(output_size, int):
        return (output_size,) * rank
    sizes = tuple(output_size)
    if len(sizes) != rank or not all(isinstance(s, int) for s in sizes):
        raise ValueError(f"`output_size` must be an integer or a tuple of {rank} integers. Received: "
                         f"output_size={output_size}")
    return sizes


class BaseAdaptivePooling(Layer):
    _rank = None  # spatial dimensions: 1, 2 or 3
    _reduce = None  # reduce_max or reduce_mean

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.output_size = _sizes(output_size, self._rank)

    def call(self, inputs):
        check_ndim(self, inputs, ndim=self._rank + 2)
        static = inputs.shape.as_list()
        if None in static[1:-1]:
            raise NotImplementedError(f"{type(self).__name__} needs the input's spatial dimensions known.")
        reduce = type(self)._reduce
        x = inputs
        for axis, o in enumerate(self.output_size, start=1):
            index = [slice(None)] * (self._rank + 2)
            cells = []
            for start, stop in cell_bounds(static[axis], o):
                index[axis] = slice(start, stop)
                cells.append(reduce(x[tuple(index)], axis=axis, keepdims=True))
            x = concat(cells, axis)
        return x

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self.output_size + (input_shape[-1],)

    def get_config(self):
        return {**super().get_config(), "output_size": list(self.output_size), "data_format": "channels_last"}


class AdaptiveMax:
    _reduce = staticmethod(_reduce.reduce_max)


class AdaptiveAverage:
    _reduce = staticmethod(_reduce.reduce_mean)
