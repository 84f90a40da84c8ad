"""RandomRotation: while training, images rotated by a random angle."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from .image_preprocessing import AffineAugmentation, factor_pair


class RandomRotation(AffineAugmentation):
    """While training, rotates each image about its centre by an angle drawn from factor * 360 degrees
    (a number f: [-f, f] turns), filling the uncovered corners by `fill_mode` (reflect by default)."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = factor_pair(factor, (-1, 1))

    def _transforms(self, images):
        from ...._src.ops.array.joining import concat
        n = _array.shape(images)[:1]
        h, w = images.shape.as_list()[1:3]
        angle = self._draw(n, (self.factor[0] * 360.0, self.factor[1] * 360.0)) * (3.141592653589793 / 180.0)
        cos, sin = _math.cos(angle), _math.sin(angle)
        cx, cy = 0.5 * (w - 1), 0.5 * (h - 1)
        # Keras' _compute_affine_matrix with no shear, scale 1 and no translation: output -> input point
        return concat([cos, -sin, cx - cx * cos + cy * sin, sin, cos, cy - cx * sin - cy * cos], 1)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "factor": list(self.factor),
                "fill_mode": self.fill_mode, "fill_value": self.fill_value, "interpolation": self.interpolation,
                "seed": self.seed}
