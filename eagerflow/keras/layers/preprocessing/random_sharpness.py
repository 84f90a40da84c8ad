"""RandomSharpness: while training, each image moved away from (sharpened) or toward (blurred) a 3x3
smoothed copy of itself: image + (1 - 2f) * (smoothed - image), f drawn per image from `factor`
(f = 0.5 leaves it unchanged), then clipped to value_range."""
from __future__ import annotations

import numpy as np

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ..convolutional.depthwise_conv2d import depthwise_conv2d
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, checked_value_range, per_image

# the smoothing kernel: 5/13 at the centre, 1/13 at each of the 8 neighbours
_SMOOTHING = np.full((3, 3), 1.0 / 13.0)
_SMOOTHING[1, 1] = 5.0 / 13.0


def smoothed(batch):
    """Each channel convolved with the 3x3 smoothing kernel ('same' padding, zeros outside)."""
    channels = batch.shape.as_list()[-1]
    kernel = np.tile(_SMOOTHING[:, :, None, None], (1, 1, channels, 1)).astype(batch.dtype.as_numpy_dtype)
    return depthwise_conv2d(batch, _array.constant(kernel), (1, 1), "SAME", (1, 1))


class RandomSharpness(RandomImageLayer):
    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))
        self.value_range = checked_value_range(value_range)

    def augment(self, batch, n):
        sharpness = self.uniform(per_image(n), self.factor[0], self.factor[1]) * 2.0
        images = batch + (1.0 - sharpness) * (smoothed(batch) - batch)
        return _math.clip_by_value(images, _math.cast(self.value_range[0], images.dtype),
                                   _math.cast(self.value_range[1], images.dtype))

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed}
