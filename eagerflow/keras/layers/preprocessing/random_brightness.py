"""RandomBrightness: while training, a random offset added to each image's values."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ..arguments import check_channels_last
from ..base import Layer
from .image_preprocessing import draw_shape, factor_pair, float_images


class RandomBrightness(Layer):
    """While training: adds delta * (value_range width) per image, delta uniform in `factor` (a number f:
    [-f, f]), then clips to value_range."""

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.factor = factor_pair(factor, (-1, 1))
        self.value_range, self.seed = value_range, seed

    def call(self, inputs, training=True):
        images = float_images(self, inputs)
        if not training:
            return images
        delta = _random.uniform(draw_shape(images), self.factor[0], self.factor[1], dtype=images.dtype,
                                seed=self.seed)
        images = images + delta * _math.cast(self.value_range[1] - self.value_range[0], images.dtype)
        return _math.clip_by_value(images, *(_math.cast(v, images.dtype) for v in self.value_range))

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "factor": list(self.factor),
                "value_range": list(self.value_range), "seed": self.seed}
