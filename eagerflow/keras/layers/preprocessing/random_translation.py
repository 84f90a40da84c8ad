"""RandomTranslation: while training, images shifted by a random fraction of their size."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from .image_preprocessing import AffineAugmentation, signed_range


class RandomTranslation(AffineAugmentation):
    """While training, shifts each image by (height, width) fractions drawn from the factors' ranges
    (a number f: [-f, f]), filling the uncovered border by `fill_mode` (reflect by default)."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_range = signed_range(height_factor, "height_factor")
        self.width_range = signed_range(width_factor, "width_factor")

    def _transforms(self, images):
        n = _array.shape(images)[:1]
        h, w = images.shape.as_list()[1:3]
        dy = self._draw(n, self.height_range) * float(h)
        dx = self._draw(n, self.width_range) * float(w)
        one, zero = _array.ones_like(dx), _array.zeros_like(dx)
        from ...._src.ops.array.joining import concat
        return concat([one, zero, -dx, zero, one, -dy], 1)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height_factor": self.height_factor,
                "width_factor": self.width_factor, **self._common_config()}
