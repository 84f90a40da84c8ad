"""RandomSaturation: while training, each image's HSV saturation multiplied by f / (1 - f), f drawn
per image from `factor` in [0, 1] (0.5: unchanged, 0: grayscale, 1: fully saturated)."""
from __future__ import annotations

from ...._src.ops.array.joining import stack
from ...._src.ops.image import color_spaces as _hsv
from ...._src.ops.math import elementwise as _math
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, checked_value_range, per_image

_EPSILON = 1e-7  # Keras' backend epsilon


class RandomSaturation(RandomImageLayer):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (-1, 1))
        self.value_range = checked_value_range(value_range)

    def augment(self, batch, n):
        f = self.uniform(per_image(n, 3), self.factor[0], self.factor[1])
        scale = f / (1 - f + _math.cast(_EPSILON, f.dtype))
        hsv = _hsv.rgb_to_hsv(batch)
        saturation = _math.clip_by_value(hsv[..., 1] * scale, _math.cast(self.value_range[0], batch.dtype),
                                         _math.cast(self.value_range[1], batch.dtype))
        return _hsv.hsv_to_rgb(stack([hsv[..., 0], saturation, hsv[..., 2]], axis=-1))

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed}
