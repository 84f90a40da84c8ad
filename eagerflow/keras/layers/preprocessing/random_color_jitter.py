"""RandomColorJitter: while training, RandomBrightness, RandomContrast, RandomSaturation and RandomHue
in that order, each only when its factor is given (Keras' torchvision-style ColorJitter)."""
from __future__ import annotations

from .random_brightness import RandomBrightness
from .random_contrast import RandomContrast
from .random_hue import RandomHue
from .random_image_layer import RandomImageLayer
from .random_saturation import RandomSaturation


class RandomColorJitter(RandomImageLayer):
    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None, saturation_factor=None,
                 hue_factor=None, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range = value_range
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        steps = [(RandomBrightness, brightness_factor), (RandomContrast, contrast_factor),
                 (RandomSaturation, saturation_factor), (RandomHue, hue_factor)]
        self._steps = [cls(factor=factor, value_range=value_range, seed=seed, dtype=self.dtype_policy)
                       for cls, factor in steps if factor is not None]
        self._tracked_layers.extend(self._steps)

    def augment(self, batch, n):
        for step in self._steps:
            batch = step(batch, training=True)
        return batch

    def get_config(self):
        return {**super().get_config(), "value_range": list(self.value_range),
                "brightness_factor": self.brightness_factor, "contrast_factor": self.contrast_factor,
                "saturation_factor": self.saturation_factor, "hue_factor": self.hue_factor, "seed": self.seed}
