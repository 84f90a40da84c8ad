"""UpSampling2D: images enlarged by repeating rows and columns (nearest) or by bilinear resizing."""
from __future__ import annotations

from ...._src.ops.image.resizing import resize
from ...._src.ops.array.repeat import repeat
from ..arguments import check_channels_last
from ..base import Layer
from ..input_spec import check_ndim
from .zero_padding2d import pair_of_ints


class UpSampling2D(Layer):
    """Repeats each row size[0] times and each column size[1] times (nearest), or resizes the image to
    (rows * size[0], cols * size[1]) with half-pixel bilinear interpolation (tf.image.resize), as Keras does."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.size = pair_of_ints(size, "size")
        if interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(f"UpSampling2D(interpolation={interpolation!r}) is not supported yet; "
                                      f"only 'nearest' and 'bilinear' are.")
        self.interpolation = interpolation

    def call(self, inputs):
        check_ndim(self, inputs, ndim=4)
        if self.interpolation == "nearest":
            return repeat(repeat(inputs, self.size[0], axis=1), self.size[1], axis=2)
        rows, cols = inputs.shape.as_list()[1:3]
        if rows is None or cols is None:
            raise NotImplementedError("UpSampling2D(interpolation='bilinear') needs the input's rows and columns "
                                      "known.")
        return resize(inputs, [rows * self.size[0], cols * self.size[1]], method="bilinear")

    def get_config(self):
        return {**super().get_config(), "size": list(self.size), "data_format": "channels_last",
                "interpolation": self.interpolation}
