"""RandomShear: while training, each image sheared: output pixel (x, y) reads the input at
(x + sx * y, sy * x + y) (about the top-left corner, as Keras 3 maps it), sx and sy drawn per image from
x_factor and y_factor (a number f: [-f, f]), both negated together on a coin flip."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from .image_preprocessing import AffineAugmentation, _n_by_1, signed_range


class RandomShear(AffineAugmentation):
    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                 data_format=None, seed=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.x_factor = signed_range(x_factor, "x_factor")  # a number f: [-f, f]
        self.y_factor = signed_range(y_factor, "y_factor")

    def _transforms(self, images):
        n = _array.shape(images)[:1]
        sign = _array.where(_math.greater(_random.uniform(_n_by_1(n), 0.0, 1.0, seed=self.seed), 0.5),
                            _array.fill(_n_by_1(n), -1.0), _array.fill(_n_by_1(n), 1.0))
        sx = self._draw(n, self.x_factor) * sign
        sy = self._draw(n, self.y_factor) * sign
        one, zero = _array.ones_like(sx), _array.zeros_like(sx)
        return concat([one, sx, zero, sy, one, zero], 1)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "x_factor": list(self.x_factor),
                "y_factor": list(self.y_factor), "fill_mode": self.fill_mode, "interpolation": self.interpolation,
                "seed": self.seed, "fill_value": self.fill_value}
