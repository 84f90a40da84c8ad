"""CenterCrop: the central (height, width) window of each image (resized up first when smaller)."""
from __future__ import annotations

from ...._src.ops.image.resizing import resize
from ..arguments import check_channels_last
from ..base import Layer
from .image_preprocessing import float_images, crop_to_aspect_ratio


class CenterCrop(Layer):
    """The centred (height, width) window; an image smaller than that is resized up instead (bilinear, after
    cropping to the target aspect ratio), as Keras does."""

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.height, self.width = height, width

    def call(self, inputs):
        images = float_images(self, inputs)
        h, w = images.shape.as_list()[-3:-1]
        dh, dw = h - self.height, w - self.width
        if dh >= 0 and dw >= 0:
            top, left = int(dh / 2), int(dw / 2)
            return images[..., top:top + self.height, left:left + self.width, :]
        return resize(crop_to_aspect_ratio(images, self.height, self.width), [self.height, self.width])

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height": self.height, "width": self.width}
