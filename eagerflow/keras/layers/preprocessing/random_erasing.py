"""RandomErasing: while training, with a probability drawn from `factor` per image, a random box of the
image set to `fill_value` (a number, an RGB triple, or by default standard normal noise times the
top of value_range), clipped to value_range; the box's sides are the
square roots of two `scale` draws times the image's sides."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.array.sequences import range as _range
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, per_image


class RandomErasing(RandomImageLayer):
    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255), seed=None,
                 data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))
        self.scale = tuple(factor_pair(scale, (0, 1)))
        self.fill_value, self.value_range = fill_value, value_range

    def _bounds(self, n, length, ratio):
        side = ratio * float(length)
        start = _random.uniform(n, 0.0, 1.0, dtype=ratio.dtype, seed=self.seed) * (float(length) - side)
        return start, start + side

    def augment(self, batch, n):
        rows, cols = batch.shape.as_list()[1:3]
        ratios = _math.sqrt(self.uniform(concat([n, _array.constant([2], dtype=n.dtype)], 0), self.scale[0],
                                         self.scale[1]))
        x0, x1 = self._bounds(n, cols, ratios[:, 0])
        y0, y1 = self._bounds(n, rows, ratios[:, 1])
        ys = _array.reshape(_math.cast(_range(rows), batch.dtype), [1, rows, 1, 1])
        xs = _array.reshape(_math.cast(_range(cols), batch.dtype), [1, 1, cols, 1])

        def corner(v):
            return _array.reshape(v, [-1, 1, 1, 1])

        inside = _math.logical_and(
            _math.logical_and(_math.greater_equal(xs, corner(x0)), _math.less(xs, corner(x1))),
            _math.logical_and(_math.greater_equal(ys, corner(y0)), _math.less(ys, corner(y1))))
        low, high = self.value_range
        if self.fill_value is None:  # standard normal noise times the top of the range, as Keras fills
            fill = _random.normal(_array.shape(batch), dtype=batch.dtype, seed=self.seed) * float(high)
        elif isinstance(self.fill_value, (tuple, list)):
            if len(self.fill_value) != 3:
                raise ValueError("The `fill_value` argument should be a number (or a list of three numbers) ")
            fill = _array.broadcast_to(_array.constant(list(self.fill_value), dtype=batch.dtype), _array.shape(batch))
        elif isinstance(self.fill_value, (int, float)):
            fill = _array.fill(_array.shape(batch), _math.cast(self.fill_value, batch.dtype))
        else:
            raise ValueError("The `fill_value` argument should be a number (or a list of three numbers) ")
        fill = _math.clip_by_value(fill, _math.cast(low, batch.dtype), _math.cast(high, batch.dtype))
        apply = _math.less(self.uniform(per_image(n), 0.0, 1.0), self.uniform(per_image(n), *self.factor))
        erase = _math.logical_and(_array.broadcast_to(inside, _array.shape(batch)),
                                  _array.broadcast_to(apply, _array.shape(batch)))
        return _array.where(erase, fill, batch)

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "scale": list(self.scale),
                "fill_value": self.fill_value, "value_range": list(self.value_range), "seed": self.seed}
