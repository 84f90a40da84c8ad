"""ContrastLimitedAdaptiveHistogramEqualization (CLAHE): contrast equalised tile by tile, each tile's
histogram clipped so flat regions are not over-amplified, and each pixel's new value blended between
the lookups of the four nearest tiles, so no tile edges show. It applies in training and inference
alike (it draws nothing), returns the input's dtype, and computes as Keras 3.15 does:
- values are taken to [0, 255] and cut to integer bins; the image is padded (mirrored, edge repeated)
  to a whole number of tiles of ceil(size / grid) pixels;
- a tile's histogram is clipped at `clip_limit * tile_pixels / 256` and the excess spread evenly
  over the 256 bins; its lookup is the cumulative histogram stretched to [0, 255] from its first bin;
- a pixel's lookup weights come from its position relative to the tile centres, the border tiles
  extended by one tile on each side.
"""
from __future__ import annotations

import numpy as np

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.array.padding import pad
from ...._src.ops.array.sequences import one_hot, range as _range
from ...._src.ops.array.slicing import gather
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ..arguments import check_channels_last
from ..base import Layer

_BINS = 256


def _rescale(images, source, target):
    """Values of range `source` mapped linearly onto `target`, in float32 (Keras' order of operations:
    to [0, 1] first, then out)."""
    images = _math.cast(images, "float32")
    if tuple(source) == tuple(target):
        return images
    images = (images - float(source[0])) / float(source[1] - source[0])
    return images * float(target[1] - target[0]) + float(target[0])


def _blend_axis(size, tile, grid):
    """For each padded row (or column): the index of the tile lookup above/left of it and below/right
    of it in the border-extended grid, and the weight of the second."""
    position = (np.arange(size, dtype=np.float32) - np.float32(tile / 2.0)) / np.float32(tile) + np.float32(1.0)
    first = np.floor(position)
    weight = position - first
    second = np.clip(first + 1.0, 0, grid + 1).astype(np.int32)
    return np.clip(first, 0, grid + 1).astype(np.int32), second, weight.astype(np.float32)


class ContrastLimitedAdaptiveHistogramEqualization(Layer):
    def __init__(self, value_range=(0, 255), clip_limit=4.0, tile_grid_size=(8, 8), data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.value_range = value_range
        self.clip_limit = clip_limit
        self.tile_grid_size = tile_grid_size

    def call(self, inputs):
        data = dict(inputs) if isinstance(inputs, dict) else {"images": inputs}
        images = convert_to_tensor(data["images"])
        rank = images.shape.rank
        if rank not in (3, 4):
            raise ValueError(f"Expected image tensor to have rank 3 (single image) or 4 (batch of images). "
                             f"Received: data.shape={tuple(images.shape.as_list())}")
        batch = _rescale(images, self.value_range, (0, 255))
        batch = _array.expand_dims(batch, 0) if rank == 3 else batch
        result = _rescale(self._equalize(batch), (0, 255), self.value_range)
        result = _math.cast(result, images.dtype)
        result = result[0] if rank == 3 else result
        if not isinstance(inputs, dict):
            return result
        data["images"] = result
        return data

    def _lookups(self, tiles_of_pixels, tile_pixels):
        """Per tile and channel, the 256-entry lookup (B, grid_h, grid_w, C, 256)."""
        bins = _math.cast(tiles_of_pixels, "int32")
        bins = _math.clip_by_value(bins, 0, _BINS - 1)
        histogram = _reduce.reduce_sum(one_hot(bins, _BINS, dtype="float32"), axis=-2)
        if self.clip_limit > 0:
            limit = float(self.clip_limit * tile_pixels / 256.0)
            kept = _math.clip_by_value(histogram, 0.0, limit)
            excess = _reduce.reduce_sum(histogram - kept, axis=-1, keepdims=True)
            histogram = kept + excess / 256.0
        cdf = _reduce.cumsum(histogram, axis=-1)
        lowest = _reduce.reduce_min(cdf, axis=-1, keepdims=True)
        spread = float(tile_pixels) - lowest
        spread = _array.where(_math.equal(spread, 0.0), _array.ones_like(spread), spread)
        return _math.clip_by_value((cdf - lowest) * 255.0 / spread, 0.0, 255.0)

    def _equalize(self, images):
        height, width, channels = images.shape.as_list()[1:]
        if None in (height, width, channels):
            raise ValueError(f"{type(self).__name__} needs the images' height, width and channels known. "
                             f"Received: shape={tuple(images.shape.as_list())}")
        grid_h, grid_w = self.tile_grid_size
        tile_h, tile_w = -(-height // grid_h), -(-width // grid_w)
        padded_h, padded_w = tile_h * grid_h, tile_w * grid_w
        if (padded_h, padded_w) != (height, width):
            images = pad(images, [[0, 0], [0, padded_h - height], [0, padded_w - width], [0, 0]], "SYMMETRIC")
        tiles = _array.reshape(images, [-1, grid_h, tile_h, grid_w, tile_w, channels])
        tiles = _array.transpose(tiles, [0, 1, 3, 5, 2, 4])
        tiles = _array.reshape(tiles, [-1, grid_h, grid_w, channels, tile_h * tile_w])
        lookups = self._lookups(tiles, tile_h * tile_w)
        # the border tiles repeated once on every side: (B, grid_h + 2, grid_w + 2, C, 256)
        lookups = concat([lookups[:, :1], lookups, lookups[:, -1:]], axis=1)
        lookups = concat([lookups[:, :, :1], lookups, lookups[:, :, -1:]], axis=2)

        top, bottom, down = _blend_axis(padded_h, tile_h, grid_h)
        left, right, across = _blend_axis(padded_w, tile_w, grid_w)
        per_channel = _BINS
        per_column = per_channel * channels
        per_row = per_column * (grid_w + 2)
        per_image = per_row * (grid_h + 2)
        pixels = _math.cast(_math.clip_by_value(images, 0.0, 255.0), "int32")
        image_index = _array.reshape(_range(_array.shape(images)[0]) * per_image, [-1, 1, 1, 1])
        start = image_index + _array.constant(np.arange(channels, dtype=np.int32).reshape(1, 1, 1, -1)
                                              * per_channel) + pixels
        flat = _array.reshape(lookups, [-1])

        def at(rows, columns):
            offset = rows.reshape(1, -1, 1, 1) * per_row + columns.reshape(1, 1, -1, 1) * per_column
            return gather(flat, start + _array.constant(offset.astype(np.int32)))

        across = _array.constant(across.reshape(1, 1, -1, 1))
        down = _array.constant(down.reshape(1, -1, 1, 1))
        upper = at(top, left) * (1.0 - across) + at(top, right) * across
        lower = at(bottom, left) * (1.0 - across) + at(bottom, right) * across
        blended = upper * (1.0 - down) + lower * down
        return blended[:, :height, :width, :]

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "value_range": self.value_range,
                "clip_limit": self.clip_limit, "tile_grid_size": self.tile_grid_size}
