"""RandomInvert: while training, each image inverted (value_range's top minus the value) with a
probability drawn from `factor` per image."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, per_image


class RandomInvert(RandomImageLayer):
    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))
        self.value_range = value_range

    def augment(self, batch, n):
        shape = per_image(n)
        probability = self.uniform(shape, self.factor[0], self.factor[1])
        apply = _math.less(self.uniform(shape, 0.0, 1.0), probability)
        inverted = _math.cast(self.value_range[1], batch.dtype) - batch
        return _array.where(_array.broadcast_to(apply, _array.shape(batch)), inverted, batch)

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed}
