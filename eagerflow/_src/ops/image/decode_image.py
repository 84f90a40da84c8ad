"""DecodeImage, DecodeBmp and DecodeGif: `tf.io.decode_image` (any of PNG, JPEG, GIF, BMP, WebP, told
apart by their first bytes), `tf.io.decode_bmp`, `tf.io.decode_gif` (every frame, RGB).

decode_image returns a GIF as [frames, h, w, 3] unless `expand_animations=False` (its first frame), so
its traced shape has an unknown rank unless animations are not expanded. A float `dtype` scales the
uint8 pixels into [0, 1] as `tf.image.convert_image_dtype` does.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .jpeg import decode_jpeg_pixels
from .pillow_codec import UNKNOWN_FORMAT, frames_of, open_image, sniff
from .pixel_channels import convert_channels, convert_depth
from .png import check_channels, decode_pixels, file_channels, image_infer, scalar_bytes


def _gif_frames(op_name, data):
    return frames_of(open_image(op_name, data, "GIF"))


def _decode_image_kernel(contents, channels=0, dtype=_dt.uint8, expand_animations=True):
    check_channels(channels)
    data = scalar_bytes(contents)
    kind = sniff(data)
    if kind is None:
        raise InvalidArgumentError(None, None, UNKNOWN_FORMAT)
    wide = dtype == _dt.uint16
    if kind == "gif":
        if channels not in (0, 3):
            raise InvalidArgumentError(None, None, f"channels must be 0 or 3 for GIF, got {channels}")
        pixels = _gif_frames("decode_image", data)
        pixels = pixels if expand_animations else pixels[0]
    elif kind == "jpeg":
        if channels == 4:
            raise InvalidArgumentError(None, None, "JPEG does not support 4 channels")
        pixels = decode_jpeg_pixels(data, channels)
    else:
        pixels = file_channels(data, decode_pixels("decode_image", data), channels)
    pixels = convert_depth(pixels, np.uint16 if wide else np.uint8)
    if dtype.is_floating:
        scale = 65535.0 if pixels.dtype == np.uint16 else 255.0
        return (pixels.astype(np.float64) / scale).astype(dtype.as_numpy_dtype)
    return pixels


def _decode_image_infer(inputs, attrs):
    R.check_input_dtype("DecodeImage", inputs, 0, _dt.string)
    dtype = attrs.get("dtype", _dt.uint8)
    if attrs.get("expand_animations", True):
        return [Spec(TensorShape(None), dtype)]
    return [Spec(TensorShape([None, None, attrs.get("channels", 0) or None]), dtype)]


DecodeImage = defop("DecodeImage", inputs=("contents",), kernel=_decode_image_kernel, infer=_decode_image_infer,
                    grad=NO_GRADIENT, doc="The pixels of a PNG, JPEG, GIF, BMP or WebP file, told apart by content.")


def _decode_bmp_kernel(contents, channels=0):
    if channels not in (0, 1, 3, 4):
        raise InvalidArgumentError(None, None, f"channels must be 0, 1, 3 or 4, got {channels}")
    data = scalar_bytes(contents)
    if sniff(data) is None:
        raise InvalidArgumentError(None, None, UNKNOWN_FORMAT)
    return convert_channels(convert_depth(decode_pixels("decode_bmp", data), np.uint8), channels)


DecodeBmp = defop("DecodeBmp", inputs=("contents",), kernel=_decode_bmp_kernel, infer=image_infer("DecodeBmp"),
                  grad=NO_GRADIENT, doc="The uint8 pixels [height, width, channels] of a BMP file.")


def _decode_gif_kernel(contents):
    data = scalar_bytes(contents)
    kind = sniff(data)
    if kind is None:
        raise InvalidArgumentError(None, None, UNKNOWN_FORMAT)
    if kind != "gif":
        pixels = convert_channels(convert_depth(decode_pixels("decode_gif", data), np.uint8), 3)
        return pixels[None]
    return _gif_frames("decode_gif", data)


def _decode_gif_infer(inputs, attrs):
    R.check_input_dtype("DecodeGif", inputs, 0, _dt.string)
    return [Spec(TensorShape([None, None, None, 3]), _dt.uint8)]


DecodeGif = defop("DecodeGif", inputs=("contents",), kernel=_decode_gif_kernel, infer=_decode_gif_infer,
                  grad=NO_GRADIENT, doc="Every frame of a GIF file, RGB [frames, height, width, 3].")


def decode_image(contents, channels=None, dtype=_dt.uint8, name=None, expand_animations=True):
    """`tf.io.decode_image`: pixels of any supported format; 4-D for an animated GIF unless
    expand_animations=False."""
    dtype = _dt.as_dtype(dtype)
    attrs = {"channels": int(channels or 0), "dtype": dtype, "expand_animations": bool(expand_animations)}
    return bind(DecodeImage, [as_tensor(contents, _dt.string)], attrs, name=name)


def decode_bmp(contents, channels=0, name=None):
    """`tf.io.decode_bmp`: uint8 pixels [height, width, channels]."""
    return bind(DecodeBmp, [as_tensor(contents, _dt.string)], {"channels": int(channels)}, name=name)


def decode_gif(contents, name=None):
    """`tf.io.decode_gif`: uint8 frames [frames, height, width, 3]."""
    return bind(DecodeGif, [as_tensor(contents, _dt.string)], name=name)
