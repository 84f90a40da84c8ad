"""RandomFlip: while training, images flipped horizontally and/or vertically at random."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ...._src.ops.array.ordering import reverse
from ..arguments import check_channels_last
from ..base import Layer
from .image_preprocessing import draw_shape, float_images


class RandomFlip(Layer):
    """While training, each image is flipped (left-right, up-down, or both at once) with probability 1/2."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument {mode}")
        self.mode, self.seed = mode, seed

    def call(self, inputs, training=True):
        images = float_images(self, inputs)
        if not training:
            return images
        flips = _math.less_equal(_random.uniform(draw_shape(images), seed=self.seed), 0.5)
        flips = _array.broadcast_to(flips, _array.shape(images))
        rank = images.shape.rank
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            images = _array.where(flips, reverse(images, [rank - 2]), images)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            images = _array.where(flips, reverse(images, [rank - 3]), images)
        return images

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "seed": self.seed, "mode": self.mode}
