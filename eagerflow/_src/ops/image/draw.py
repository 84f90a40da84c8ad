"""`tf.image.draw_bounding_boxes`: DrawBoundingBoxesV2.

Each box (y_min, x_min, y_max, x_max, relative to height - 1 and width - 1, truncated toward zero)
is drawn as a one-pixel outline in colour (box index mod the number of colours), later boxes over
earlier ones. Inverted boxes and boxes wholly outside the image are skipped; edges outside the
image are not drawn, the others are clipped to it. Without colours, TensorFlow's table of ten is
used (its first channel set to 1 for grayscale images). No gradient and no XLA kernel, as in
TensorFlow.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop

_DEFAULT_COLOURS = np.array([
    [1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
    [0.5, 0.5, 0.5, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _check(images_shape, boxes_shape, colors):
    if len(images_shape) != 4:
        raise InvalidArgumentError(None, None, f"The rank of the images should be 4{list(images_shape)}")
    if images_shape[3] not in (1, 3, 4):
        raise InvalidArgumentError(None, None, "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if len(boxes_shape) != 3 or boxes_shape[2] != 4 or boxes_shape[0] != images_shape[0]:
        raise InvalidArgumentError(None, None, "boxes must be 3-D [batch, num_boxes, 4] with the images' batch")
    if colors is not None:
        if colors.ndim != 2:
            raise InvalidArgumentError(None, None, f"colors must be a 2-D matrix{list(colors.shape)}")
        if colors.shape[1] < images_shape[3]:
            raise InvalidArgumentError(None, None, f"colors must have equal or more channels than the image "
                                                   f"provided: {list(colors.shape)}")


def _kernel(images, boxes, colors):
    images, boxes, colors = np.asarray(images), np.asarray(boxes, np.float32), np.asarray(colors, np.float32)
    _check(images.shape, boxes.shape, colors)
    _, height, width, depth = images.shape
    if colors.size:
        table = colors
    else:
        table = _DEFAULT_COLOURS.copy()
        if depth == 1:
            table[:, 0] = 1
    canvas = images.copy()
    for b in range(images.shape[0]):
        for k, (y1, x1, y2, x2) in enumerate(boxes[b]):
            colour = table[k % len(table)][:depth].astype(images.dtype)
            top, bottom = int(np.float32(y1) * np.float32(height - 1)), int(np.float32(y2) * np.float32(height - 1))
            left, right = int(np.float32(x1) * np.float32(width - 1)), int(np.float32(x2) * np.float32(width - 1))
            if top > bottom or left > right:
                continue  # inverted
            if top >= height or bottom < 0 or left >= width or right < 0:
                continue  # wholly outside
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            cols = slice(max(left, 0), min(right, width - 1) + 1)
            if top >= 0:
                canvas[b, top, cols] = colour
            if bottom < height:
                canvas[b, bottom, cols] = colour
            if left >= 0:
                canvas[b, rows, left] = colour
            if right < width:
                canvas[b, rows, right] = colour
    return canvas


def _infer(inputs, attrs):
    images = inputs[0]
    R.check_dtype_in("DrawBoundingBoxesV2", images.dtype, (_dt.float32, _dt.float16), "images")
    s = images.shape
    if s.rank is not None and s.rank != 4:
        raise InvalidArgumentError(None, None, f"Shape must be rank 4 but is rank {s.rank}")
    return [Spec(s, images.dtype)]


DrawBoundingBoxesV2 = defop(
    "DrawBoundingBoxesV2", inputs=("images", "boxes", "colors"), kernel=_kernel, infer=_infer,
    grad=UNREGISTERED_GRADIENT, doc="Box outlines drawn over a batch of images.")


def draw_bounding_boxes(images, boxes, colors, name=None):
    """`tf.image.draw_bounding_boxes`: the images with each box's outline drawn in."""
    images = images if isinstance(images, Tensor) else as_tensor(np.asarray(images, np.float32))
    boxes = boxes if isinstance(boxes, Tensor) else as_tensor(np.asarray(boxes, np.float32))
    if colors is None:
        colors = as_tensor(np.zeros((0, 4), np.float32))
    elif not isinstance(colors, Tensor):
        colors = as_tensor(np.asarray(colors, np.float32))
    return bind(DrawBoundingBoxesV2, (images, boxes, colors))
