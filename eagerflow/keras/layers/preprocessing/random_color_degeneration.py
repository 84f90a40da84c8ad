"""RandomColorDegeneration: while training, each image blended toward its grayscale version by a
factor drawn per image (0: unchanged, 1: grayscale), then clipped to value_range."""
from __future__ import annotations

from ...._src.ops.image import color as _color
from ...._src.ops.math import elementwise as _math
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, checked_value_range, per_image


class RandomColorDegeneration(RandomImageLayer):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (-1, 1))
        self.value_range = checked_value_range(value_range)

    def augment(self, batch, n):
        factor = self.uniform(per_image(n), self.factor[0], self.factor[1])
        gray = _color.rgb_to_grayscale(batch)
        images = batch + factor * (gray - batch)
        return _math.clip_by_value(images, _math.cast(self.value_range[0], images.dtype),
                                   _math.cast(self.value_range[1], images.dtype))

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed}
