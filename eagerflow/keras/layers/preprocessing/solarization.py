"""Solarization: while training, each image (in 0..255 terms) gets a random brightness added, then
every value at or above a random threshold is inverted (255 - v)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, checked_value_range, per_image, to_range


def _factor(value):
    """A number f -> (0, f), or a sorted pair, each end in [0, 1], with Keras' Solarization message."""
    for number in (value if isinstance(value, (tuple, list)) else [value]):
        if not 0 <= number <= 1:
            raise ValueError(f"The `addition_factor` and `threshold_factor` arguments should be a number (or a "
                             f"list of two numbers) in the range [0, 1]. Received: input_number={number}")
    return factor_pair(value, (0, 1))


class Solarization(RandomImageLayer):
    """addition_factor and threshold_factor: numbers f (drawn from [0, f]) or pairs, in [0, 1]. As Keras
    draws them, a draw runs from the pair's low end to its high end times 255; factor 0 (the default)
    gives threshold 0, so every value is inverted."""

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, data_format=kwargs.pop("data_format", None), **kwargs)
        self.addition_factor = _factor(addition_factor)
        self.threshold_factor = _factor(threshold_factor)
        self.value_range = checked_value_range(value_range)

    def augment(self, batch, n):
        shape = per_image(n)
        additions = self.uniform(shape, self.addition_factor[0], self.addition_factor[1] * 255)
        thresholds = self.uniform(shape, self.threshold_factor[0], self.threshold_factor[1] * 255)
        images = to_range(batch, self.value_range, (0, 255))
        images = _math.clip_by_value(images + additions, _math.cast(0, images.dtype), _math.cast(255, images.dtype))
        images = _array.where(_math.less(images, thresholds), images, 255 - images)
        return to_range(images, (0, 255), self.value_range)

    def get_config(self):
        return {**super().get_config(), "value_range": list(self.value_range),
                "addition_factor": list(self.addition_factor), "threshold_factor": list(self.threshold_factor),
                "seed": self.seed}
