"""RandomPerspective: while training, each image (with probability drawn per image from `factor`)
warped by the projective map that moves its four corners: a corner (x, y) goes to
(x, y) * (1 + d), d drawn per corner and axis from [-scale/2, scale/2], so the top-left corner stays
and the others move by up to half their distance from it. Pixels with no source read `fill_value`."""
from __future__ import annotations

import numpy as np

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.math import elementwise as _math
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer

INTERPOLATIONS = ("nearest", "bilinear")


class RandomPerspective(RandomImageLayer):
    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0, seed=None, data_format=None,
                 **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))
        if scale < 0.0 or scale > 1.0:
            raise ValueError(f"The `scale` argument should be a number in the range [0,1]. Received: scale={scale}")
        if interpolation not in INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {INTERPOLATIONS}.")
        self.scale, self.interpolation, self.fill_value = scale, interpolation, fill_value

    def augment(self, batch, n):
        from ...ops.image import perspective_transform
        height, width = batch.shape.as_list()[1:3]
        probability = self.uniform(n, self.factor[0], self.factor[1])
        apply = _math.less(self.uniform(n, 0.0, 1.0), probability)
        moves = self.uniform(concat([n, _array.constant([4, 2], dtype=n.dtype)], 0), -0.5 * self.scale,
                             0.5 * self.scale)
        corners = np.array([[0.0, 0.0], [width - 1, 0.0], [0.0, height - 1], [width - 1, height - 1]], np.float32)
        start = _array.broadcast_to(_array.constant(corners), _array.shape(moves))
        end = start + start * moves
        warped = perspective_transform(batch, start, end, interpolation=self.interpolation,
                                       fill_value=self.fill_value)
        return _array.where(_array.reshape(apply, [-1, 1, 1, 1]), warped, batch)

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_value": self.fill_value, "seed": self.seed}
