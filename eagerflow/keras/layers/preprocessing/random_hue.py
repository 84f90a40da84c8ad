"""RandomHue: while training, each image's HSV hue shifted by +-f/2 of a turn (f drawn per image from
`factor` in [0, 1], the sign a coin flip), wrapping around."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import stack
from ...._src.ops.image import color_spaces as _hsv
from ...._src.ops.math import elementwise as _math
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, per_image, to_range


class RandomHue(RandomImageLayer):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))
        self.value_range = value_range

    def augment(self, batch, n):
        shape = per_image(n, 3)
        sign = _array.where(_math.greater(self.uniform(shape, 0.0, 1.0), _math.cast(0.5, self._dtype)),
                            _array.fill(shape, _math.cast(-1.0, self._dtype)),
                            _array.fill(shape, _math.cast(1.0, self._dtype)))
        shift = sign * self.uniform(shape, self.factor[0], self.factor[1]) * 0.5
        hsv = _hsv.rgb_to_hsv(to_range(batch, self.value_range, (0, 1)))
        hue = hsv[..., 0] + shift
        hue = _array.where(_math.greater(hue, _math.cast(1.0, hue.dtype)), hue - 1.0, hue)
        hue = _array.where(_math.less(hue, _math.cast(0.0, hue.dtype)), hue + 1.0, hue)
        rgb = _hsv.hsv_to_rgb(stack([hue, hsv[..., 1], hsv[..., 2]], axis=-1))
        rgb = _math.clip_by_value(rgb, _math.cast(0, rgb.dtype), _math.cast(1, rgb.dtype))
        return to_range(rgb, (0, 1), self.value_range)

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed}
