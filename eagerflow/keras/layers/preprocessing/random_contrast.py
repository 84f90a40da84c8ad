"""RandomContrast: while training, each image's contrast scaled by a random factor."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ...._src.ops.math import reduce as _reduce
from ..arguments import check_channels_last
from ..base import Layer
from .image_preprocessing import draw_shape, factor_pair, float_images


class RandomContrast(Layer):
    """While training: (x - mean) * c + mean per image and channel, with c uniform in
    [1 - factor[0], 1 + factor[1]] (Keras' bounds make a number f give [1, 1 + f]), clipped to value_range."""

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.factor = factor_pair(factor, (0, 1))
        self.value_range, self.seed = value_range, seed

    def call(self, inputs, training=True):
        images = float_images(self, inputs)
        if not training:
            return images
        c = _random.uniform(draw_shape(images), 1.0 - self.factor[0], 1.0 + self.factor[1], dtype=images.dtype,
                            seed=self.seed)
        mean = _reduce.reduce_mean(images, [-3, -2], keepdims=True)
        out = (images - mean) * c + mean
        return _math.clip_by_value(out, *(_math.cast(v, images.dtype) for v in self.value_range))

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "factor": list(self.factor),
                "value_range": list(self.value_range), "seed": self.seed}
