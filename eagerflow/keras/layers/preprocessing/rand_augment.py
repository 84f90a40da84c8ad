"""RandAugment: while training, `num_ops` augmentations chosen at random (one draw per batch, with
repeats) from Keras' eleven (shear, translation, rotation, brightness, colour degeneration, contrast,
sharpness, posterization, solarization, auto-contrast, equalization), all of strength `factor`, applied
in turn."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from .auto_contrast import AutoContrast
from .equalization import Equalization
from .image_preprocessing import factor_pair
from .random_brightness import RandomBrightness
from .random_color_degeneration import RandomColorDegeneration
from .random_contrast import RandomContrast
from .random_image_layer import RandomImageLayer
from .random_posterization import RandomPosterization
from .random_rotation import RandomRotation
from .random_sharpness import RandomSharpness
from .random_shear import RandomShear
from .random_translation import RandomTranslation
from .solarization import Solarization


class RandAugment(RandomImageLayer):
    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear", seed=None,
                 data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range, self.num_ops, self.interpolation = value_range, num_ops, interpolation
        self.factor = factor_pair(factor, (0, 1))
        f, vr, common = self.factor, value_range, {"seed": seed, "dtype": self.dtype_policy}
        self._choices = [
            RandomShear(x_factor=f, y_factor=f, interpolation=interpolation, **common),
            RandomTranslation(height_factor=f, width_factor=f, interpolation=interpolation, **common),
            RandomRotation(factor=f, interpolation=interpolation, **common),
            RandomBrightness(factor=f, value_range=vr, **common),
            RandomColorDegeneration(factor=f, value_range=vr, **common),
            RandomContrast(factor=f, value_range=vr, **common),
            RandomSharpness(factor=f, value_range=vr, **common),
            RandomPosterization(factor=max(1, int(8 * f[1])), value_range=vr, **common),
            Solarization(addition_factor=f, threshold_factor=f, value_range=vr, **common),
            AutoContrast(value_range=vr, dtype=self.dtype_policy),
            Equalization(value_range=vr, dtype=self.dtype_policy),
        ]
        self._tracked_layers.extend(self._choices)

    def augment(self, batch, n):
        picks = _random.uniform([self.num_ops], 0, len(self._choices), dtype="int32", seed=self.seed)
        for i in range(self.num_ops):
            current = batch
            for index, layer in enumerate(self._choices):
                chosen = _math.equal(picks[i], index)
                batch = _array.where(chosen, layer(current, training=True), batch)
        return batch

    def get_config(self):
        return {**super().get_config(), "value_range": list(self.value_range), "num_ops": self.num_ops,
                "factor": list(self.factor), "interpolation": self.interpolation, "seed": self.seed}
