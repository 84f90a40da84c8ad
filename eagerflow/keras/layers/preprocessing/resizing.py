"""Resizing: images resized to (height, width), optionally cropped to that aspect ratio first."""
from __future__ import annotations

from ...._src.ops.math import elementwise as _math
from ...._src.ops.image.resizing import resize
from ..arguments import check_channels_last
from ..base import Layer
from .image_preprocessing import float_images, crop_to_aspect_ratio


class Resizing(Layer):
    """Resizes images to (height, width) with `interpolation` (bilinear, nearest, bicubic, area, ...);
    crop_to_aspect_ratio first crops the centre to the target aspect ratio, so nothing is distorted."""

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
                 fill_mode="constant", fill_value=0.0, antialias=False, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        if pad_to_aspect_ratio:
            raise NotImplementedError("Resizing(pad_to_aspect_ratio=True) is not supported yet.")
        self.height, self.width, self.interpolation = height, width, interpolation
        self.crop_to_aspect_ratio, self.fill_mode, self.fill_value = crop_to_aspect_ratio, fill_mode, fill_value
        self.antialias = antialias

    def call(self, inputs):
        images = float_images(self, inputs)
        if self.crop_to_aspect_ratio:
            images = crop_to_aspect_ratio(images, self.height, self.width)
        return _math.cast(resize(images, [self.height, self.width], method=self.interpolation,
                                 antialias=self.antialias), self._dtype)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height": self.height, "width": self.width,
                "interpolation": self.interpolation, "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": False, "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "antialias": self.antialias}
