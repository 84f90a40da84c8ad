"""RandomGrayscale: while training, each image turned to grayscale (its luma in every channel) with
probability `factor`."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.image import color as _color
from ...._src.ops.math import elementwise as _math
from .random_image_layer import RandomImageLayer, per_image


class RandomGrayscale(RandomImageLayer):
    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor = factor

    def augment(self, batch, n):
        apply = _math.less(self.uniform(per_image(n), 0.0, 1.0), _math.cast(self.factor, self._dtype))
        gray = _color.rgb_to_grayscale(batch)
        return _array.where(_array.broadcast_to(apply, _array.shape(batch)),
                            _array.broadcast_to(gray, _array.shape(batch)), batch)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
