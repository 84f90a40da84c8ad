"""RandomZoom: while training, images zoomed in or out by a random factor."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from .image_preprocessing import AffineAugmentation, signed_range


class RandomZoom(AffineAugmentation):
    """While training, zooms each image about its centre by 1 + z, z drawn from the factors' ranges (a
    number f: [-f, f]; positive z shows more of the image, smaller); width_factor=None keeps the aspect."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_range = signed_range(height_factor, "height_factor")
        self.width_range = None if width_factor is None else signed_range(width_factor, "width_factor")

    def _transforms(self, images):
        n = _array.shape(images)[:1]
        h, w = images.shape.as_list()[1:3]
        zy = 1.0 + self._draw(n, self.height_range)
        zx = zy if self.width_range is None else 1.0 + self._draw(n, self.width_range)
        zero = _array.zeros_like(zx)
        from ...._src.ops.array.joining import concat
        return concat([zx, zero, (w - 1.0) / 2.0 * (1.0 - zx), zero, zy, (h - 1.0) / 2.0 * (1.0 - zy)], 1)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height_factor": self.height_factor,
                "width_factor": self.width_factor, "fill_mode": self.fill_mode, "interpolation": self.interpolation,
                "seed": self.seed, "fill_value": self.fill_value}
