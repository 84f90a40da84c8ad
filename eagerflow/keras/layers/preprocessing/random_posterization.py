"""RandomPosterization: while training, each image (as 8-bit values) keeps only its `bits` highest bits,
`bits` drawn per image from `factor` (1..8)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, checked_value_range, per_image, to_range


class RandomPosterization(RandomImageLayer):
    """factor: a number b (bits drawn from [1, b)) or a pair; equal ends give exactly that many bits."""

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (1, 8))
        self.value_range = checked_value_range(value_range)

    def augment(self, batch, n):
        shape = per_image(n)
        if self.factor[0] != self.factor[1]:
            bits = _random.uniform(shape, int(self.factor[0]), int(self.factor[1]), dtype="int32", seed=self.seed)
        else:
            bits = _array.fill(shape, _math.cast(int(self.factor[0]), "int32"))
        # dropping the low (8 - bits) bits of an 8-bit value v is v - v mod 2 ** (8 - bits)
        step = _math.cast(_math.pow(_math.cast(2.0, self._dtype), _math.cast(8 - bits, self._dtype)), "int32")
        values = _math.cast(to_range(batch, self.value_range, (0, 255)), "uint8")
        values = _math.cast(values, "int32")
        kept = _math.cast(values - _math.floormod(values, step), self._dtype)
        return to_range(kept, (0, 255), self.value_range)

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "value_range": list(self.value_range),
                "seed": self.seed}
