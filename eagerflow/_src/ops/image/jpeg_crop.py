"""DecodeAndCropJpeg: `tf.io.decode_and_crop_jpeg` (also `tf.image.decode_and_crop_jpeg`), a window of a JPEG.

The window [y, x, height, width] is taken from the decoded image (after `ratio`'s downscaling, as
TensorFlow takes it). TensorFlow asks libjpeg to decode only the window's scanlines and columns; with
4:2:0 chroma subsampling its chroma upsampling at a window edge that is not on a block boundary can
differ from the whole image's by a few levels (TensorFlow against itself: up to 5 on the test images).
Here the whole image is decoded (jpeg.py) and cut, so the pixels are the whole image's: TensorFlow's
exactly for 4:4:4 images and windows on block boundaries with `dct_method="INTEGER_ACCURATE"`.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.convert import convert_to_tensor
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from .jpeg import _decode_kernel
from .pillow_codec import UNKNOWN_FORMAT, sniff
from .png import scalar_bytes

_NAMES = {"png": "PNG", "gif": "GIF", "bmp": "BMP", "webp": "WebP"}


def _window(crop_window) -> list[int]:
    window = np.asarray(crop_window)
    if window.ndim != 1:
        shown = ",".join(map(str, window.shape))
        raise InvalidArgumentError(None, None, f"crop_window must be 1-D, got shape [{shown}]")
    if window.shape[0] != 4:
        raise InvalidArgumentError(None, None, f"crop_size must have four elements [{window.shape[0]}]")
    return [int(v) for v in window]


def _kernel(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
            acceptable_fraction=1.0, dct_method=""):
    y, x, height, width = _window(crop_window)
    kind = sniff(scalar_bytes(contents))
    if kind is None:
        raise InvalidArgumentError(None, None, UNKNOWN_FORMAT)
    if kind != "jpeg":
        raise InvalidArgumentError(None, None, f"DecodeAndCropJpeg operation can run on JPEG only, but detected "
                                               f"{_NAMES.get(kind, kind.upper())}.")
    pixels = _decode_kernel(contents, channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                            dct_method)
    rows, cols = pixels.shape[:2]
    if min(y, x) < 0 or height <= 0 or width <= 0 or y + height > rows or x + width > cols:
        raise InvalidArgumentError(None, None, "jpeg::Uncompress failed. Invalid JPEG data or crop window.")
    return np.ascontiguousarray(pixels[y:y + height, x:x + width])


def _infer(inputs, attrs):
    R.check_input_dtype("DecodeAndCropJpeg", inputs, 0, _dt.string)
    R.check_input_dtype("DecodeAndCropJpeg", inputs, 1, _dt.int32)
    rank = inputs[0].shape.rank
    if rank not in (None, 0):
        raise InvalidArgumentError(None, None, f"Shape must be rank 0 but is rank {rank}")
    window = static_value(inputs[1])
    height = width = None
    if window is not None and np.ndim(window) == 1 and np.shape(window)[0] == 4:
        height, width = int(window[2]), int(window[3])
    return [Spec(TensorShape([height, width, attrs.get("channels", 0) or None]), _dt.uint8)]


DecodeAndCropJpeg = defop("DecodeAndCropJpeg", inputs=("contents", "crop_window"), kernel=_kernel, infer=_infer,
                          grad=NO_GRADIENT, doc="The uint8 pixels of a window [y, x, height, width] of a JPEG.")


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """`tf.io.decode_and_crop_jpeg`: uint8 pixels [crop_height, crop_width, channels]."""
    attrs = {"channels": int(channels), "ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
             "try_recover_truncated": bool(try_recover_truncated), "acceptable_fraction": float(acceptable_fraction),
             "dct_method": str(dct_method)}
    window = crop_window if isinstance(crop_window, Tensor) else convert_to_tensor(crop_window, _dt.int32)
    return bind(DecodeAndCropJpeg, [as_tensor(contents, _dt.string), window], attrs, name=name)
