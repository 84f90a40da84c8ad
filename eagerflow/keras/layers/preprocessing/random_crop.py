"""RandomCrop: while training, a height x width window of the images at a random place (one place for
the whole batch), or, for images not larger than the window in both sizes, the centred window of the
target aspect ratio resized to height x width. Identity at inference, as in Keras 3."""
from __future__ import annotations

from ...._src.ops.image import resizing as _resizing
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from .random_image_layer import RandomImageLayer


class RandomCrop(RandomImageLayer):
    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, name=name, **kwargs)
        self.height, self.width = height, width

    def augment(self, batch, n):
        rows, cols = batch.shape.as_list()[1:3]
        if rows is None or cols is None:
            raise ValueError(f"RandomCrop requires the input to have a fully defined height and width. Received: "
                             f"images.shape={tuple(batch.shape.as_list())}")
        if rows > self.height and cols > self.width:
            top = _math.cast(_random.uniform([], 0, float(rows - self.height + 1), seed=self.seed), "int32")
            left = _math.cast(_random.uniform([], 0, float(cols - self.width + 1), seed=self.seed), "int32")
            window = batch[:, top:top + self.height, left:left + self.width, :]
            window.set_shape([batch.shape.as_list()[0], self.height, self.width, batch.shape.as_list()[-1]])
            return window
        crop_rows = max(min(rows, int(float(cols * self.height) / self.width)), 1)
        crop_cols = max(min(cols, int(float(rows * self.width) / self.height)), 1)
        top, left = int(float(rows - crop_rows) / 2), int(float(cols - crop_cols) / 2)
        # Keras slices the target size from the centred start (not the aspect-ratio size), then resizes
        window = batch[:, top:top + self.height, left:left + self.width, :]
        if window.shape.as_list()[1:3] != [self.height, self.width]:
            window = _math.cast(_resizing.resize(window, (self.height, self.width), method="bilinear"), batch.dtype)
        return window

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])

    def get_config(self):
        return {**super().get_config(), "height": self.height, "width": self.width, "seed": self.seed}
