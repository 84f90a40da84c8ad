"""AutoContrast: each image's channels stretched so their minimum maps to the bottom of value_range and
their maximum to the top (deterministic: the same in training and inference)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from .random_image_layer import RandomImageLayer, checked_value_range, to_range


class AutoContrast(RandomImageLayer):
    """A constant channel (max == min) is left as it was."""

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(data_format=kwargs.pop("data_format", None), **kwargs)
        self.value_range = checked_value_range(value_range)

    def call(self, inputs, training=True):
        return super().call(inputs, training=True)

    def augment(self, batch, n):
        images = to_range(batch, self.value_range, (0, 255))
        low = _reduce.reduce_min(images, axis=[1, 2], keepdims=True)
        high = _reduce.reduce_max(images, axis=[1, 2], keepdims=True)
        scale = _math.cast(255.0, images.dtype) / (high - low)
        stretched = _math.clip_by_value((images - low) * scale, _math.cast(0, images.dtype),
                                        _math.cast(255, images.dtype))
        stretched = to_range(stretched, (0, 255), self.value_range)
        return _array.where(_math.is_nan(stretched), batch, stretched)

    def get_config(self):
        config = super().get_config()
        config.pop("seed", None)
        return {**config, "value_range": list(self.value_range)}
