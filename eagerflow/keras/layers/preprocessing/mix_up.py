"""MixUp: while training, each image (and its label, given Keras' {"images", "labels"} dict) blended
with another of the batch: w * own + (1 - w) * other, the pairing a random permutation and w drawn per
image from Beta(alpha, alpha)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.slicing import gather
from ...._src.ops.array.sequences import range as _range
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ...._src.ops.random import gamma_poisson as _gamma
from .random_image_layer import RandomImageLayer


def beta_draws(n, alpha, dtype, seed):
    """n draws from Beta(alpha, alpha), as g1 / (g1 + g2) of two Gamma(alpha) draws."""
    g1 = _gamma.gamma(n, alpha, dtype=dtype, seed=seed)
    g2 = _gamma.gamma(n, alpha, dtype=dtype, seed=None if seed is None else seed + 1)
    return g1 / (g1 + g2)


def mix_labels(labels, permutation, weight):
    weight = _math.cast(_array.reshape(weight, [-1, 1]), labels.dtype)
    return weight * labels + (1.0 - weight) * gather(labels, permutation)


class MixUp(RandomImageLayer):
    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.alpha = alpha

    def transform(self, batch, labels, n):
        permutation = _random.shuffle(_range(n[0]), seed=self.seed)
        weight = beta_draws(n, self.alpha, batch.dtype, self.seed)
        w = _array.reshape(weight, [-1, 1, 1, 1])
        images = w * batch + (1.0 - w) * gather(batch, permutation)
        return images, None if labels is None else mix_labels(labels, permutation, weight)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha, "seed": self.seed}
