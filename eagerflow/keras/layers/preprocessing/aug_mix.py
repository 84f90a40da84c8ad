"""AugMix: while training, `num_chains` copies of the batch each pass through up to `chain_depth`
augmentations picked at random (a pick may be "none"), are mixed with Dirichlet(alpha) weights, and the
mix is blended with the original by a Beta(alpha, alpha) weight, then clipped to `value_range`. The
augmentations are Keras 3's: shear, translation, rotation, posterization, solarization, auto-contrast,
equalization, and with `all_ops` also brightness, colour degeneration, contrast and sharpness, all of
strength `factor`. As Keras picks them, the choice is made in Python when the call runs (so a traced
function keeps the picks of its trace), here from a generator seeded by `seed`."""
from __future__ import annotations

import random

from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.random.gamma_poisson import gamma
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


class AugMix(RandomImageLayer):
    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3, alpha=1.0, all_ops=True,
                 interpolation="bilinear", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range, self.num_chains, self.chain_depth = value_range, num_chains, chain_depth
        self.factor = factor_pair(factor, (0, 1))
        self.alpha, self.all_ops, self.interpolation = alpha, all_ops, interpolation
        f, vr, common = self.factor, value_range, {"seed": seed, "dtype": self.dtype_policy}
        self._choices = [
            RandomShear(x_factor=f, y_factor=f, interpolation=interpolation, **common),
            RandomTranslation(height_factor=f, width_factor=f, interpolation=interpolation, **common),
            RandomRotation(factor=f, interpolation=interpolation, **common),
            RandomPosterization(factor=max(1, int(8 * f[1])), value_range=vr, **common),
            Solarization(addition_factor=f, threshold_factor=f, value_range=vr, **common),
            AutoContrast(value_range=vr, dtype=self.dtype_policy),
            Equalization(value_range=vr, dtype=self.dtype_policy),
        ]
        if all_ops:
            self._choices += [RandomBrightness(factor=f, value_range=vr, **common),
                              RandomColorDegeneration(factor=f, value_range=vr, **common),
                              RandomContrast(factor=f, value_range=vr, **common),
                              RandomSharpness(factor=f, value_range=vr, **common)]
        self._tracked_layers.extend(self._choices)
        self._picker = random.Random(seed)

    def _gamma(self, shape):
        return gamma(shape, self.alpha, dtype=self._dtype, seed=self.seed)

    def augment(self, batch, n):
        draws = self._gamma([self.num_chains])
        chain_weights = draws / _reduce.reduce_sum(draws)
        pair = self._gamma([2])
        keep = pair[0] / (pair[0] + pair[1])  # Beta(alpha, alpha)
        mixed = None
        for chain in range(self.num_chains):
            augmented = batch
            for _ in range(self.chain_depth):
                layer = self._picker.choice(self._choices + [None])
                if layer is not None:
                    augmented = _math.cast(layer(augmented, training=True), batch.dtype)
            term = augmented * chain_weights[chain]
            mixed = term if mixed is None else mixed + term
        out = keep * batch + (1.0 - keep) * mixed
        return _math.clip_by_value(out, _math.cast(self.value_range[0], out.dtype),
                                   _math.cast(self.value_range[1], out.dtype))

    def get_config(self):
        return {**super().get_config(), "value_range": self.value_range, "num_chains": self.num_chains,
                "chain_depth": self.chain_depth, "factor": self.factor, "alpha": self.alpha,
                "all_ops": self.all_ops, "interpolation": self.interpolation, "seed": self.seed}
