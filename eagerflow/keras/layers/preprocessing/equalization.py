"""Equalization: while training, each channel's histogram equalised (values remapped through the
cumulative histogram of `bins` bins so they spread over the whole range). As Keras 3.15 computes it, one
histogram per channel over the whole batch; a channel whose values fall in one bin is left alone."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import stack
from ...._src.ops.array.slicing import gather
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.math.segments import bincount
from .random_image_layer import RandomImageLayer, checked_value_range, to_range


def _bin_index(values, scale, bins):
    return _math.cast(_math.clip_by_value(values * scale, _math.cast(0.0, values.dtype),
                                          _math.cast(bins - 1, values.dtype)), "int32")


class Equalization(RandomImageLayer):
    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = checked_value_range(value_range)
        self.bins = bins

    def _equalize(self, channel):
        bins = self.bins
        values = to_range(channel, self.value_range, (0, 255))
        counted = _math.cast(values, "float32")
        # the histogram's bin: int(v * (bins - 1) / 255), then clipped (Keras' order of operations)
        hist_index = _math.clip_by_value(_math.cast(counted * float(bins - 1) / 255.0, "int32"), 0, bins - 1)
        hist = bincount(_array.reshape(hist_index, [-1]), minlength=bins, maxlength=bins)
        cdf = _reduce.cumsum(hist)
        cdf_min = _reduce.reduce_min(_array.where(_math.greater(cdf, 0), cdf, _array.fill([bins], cdf[-1])))
        denominator = cdf[-1] - cdf_min
        denominator = _array.where(_math.equal(denominator, 0), _array.ones_like(denominator), denominator)
        lookup = _math.cast((cdf - cdf_min) * 255, "float32") / _math.cast(denominator, "float32")
        lookup = _math.clip_by_value(_math.round(lookup), 0.0, 255.0)
        equalized = _math.cast(gather(lookup, _bin_index(values / 255.0, float(bins - 1), bins)), channel.dtype)
        occupied = _reduce.reduce_sum(_math.cast(_math.greater(hist, 0), "int32"))
        equalized = _array.where(_math.less_equal(occupied, 1), values, equalized)
        return to_range(equalized, (0, 255), self.value_range)

    def augment(self, batch, n):
        channels = batch.shape.as_list()[-1]
        return stack([self._equalize(batch[..., c]) for c in range(channels)], axis=-1)

    def get_config(self):
        return {**super().get_config(), "bins": self.bins, "value_range": list(self.value_range)}
