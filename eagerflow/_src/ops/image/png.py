"""DecodePng and EncodePng: `tf.io.decode_png` / `tf.io.encode_png` (also `tf.image.*`).

Encoding is ours: every row unfiltered, deflated with zlib at `compression` (-1: zlib's default), for
uint8 or uint16 images of 1 to 4 channels; any PNG reader gives the pixels back exactly. Decoding goes
through Pillow (pillow_codec.py), except 16-bit colour files, which Pillow reduces to 8 bits: those are
inflated and unfiltered here. As TensorFlow's decoder, DecodePng also decodes the other formats it
recognises (a JPEG given to decode_png decodes), and `dtype=uint16` widens 8-bit samples (x 257) while
`uint8` keeps a 16-bit file's high bytes.
"""
from __future__ import annotations

import struct
import zlib

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .pillow_codec import UNKNOWN_FORMAT, open_image, pixels_of, sniff
from .pixel_channels import convert_channels, convert_depth

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOUR_TYPE_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def check_channels(channels, allowed=(0, 1, 3, 4)):
    if channels not in allowed:
        raise InvalidArgumentError(None, None, f"`channels` must be 0, 1, 3 or 4 but got {channels}")


def scalar_bytes(contents) -> bytes:
    data = contents[()] if isinstance(contents, np.ndarray) else contents
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def _chunks(data: bytes):
    at = len(_SIGNATURE)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, data[at + 8:at + 8 + length]
        at += 12 + length


def _is_wide_colour(data: bytes) -> bool:
    """A 16-bit PNG with colour or alpha, which Pillow would narrow to 8 bits."""
    return len(data) >= 29 and data[24] == 16 and data[25] in (2, 4, 6)


def _unfilter(raw: bytes, height: int, width: int, step: int) -> np.ndarray:
    """The scanlines of a non-interlaced PNG with their per-row filters undone (bytes, [h, w * step])."""
    stride = width * step
    rows = np.frombuffer(raw, np.uint8)[:height * (stride + 1)].reshape(height, stride + 1)
    out = np.zeros((height, stride), np.uint8)
    above = np.zeros(stride, np.uint8)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:]
        if kind == 0:
            row = line.copy()
        elif kind == 1:  # Sub: a running sum per byte position of a pixel
            row = np.cumsum(line.reshape(width, step), axis=0, dtype=np.uint64).astype(np.uint8).reshape(-1)
        elif kind == 2:  # Up
            row = line + above
        else:
            row = np.zeros(stride, np.uint8)
            prev = np.zeros(step, np.int64)
            up_left = np.zeros(step, np.int64)
            for x in range(width):
                b = above[x * step:(x + 1) * step].astype(np.int64)
                if kind == 3:  # Average
                    pred = (prev + b) // 2
                else:  # Paeth
                    p = prev + b - up_left
                    pa, pb, pc = np.abs(p - prev), np.abs(p - b), np.abs(p - up_left)
                    pred = np.where((pa <= pb) & (pa <= pc), prev, np.where(pb <= pc, b, up_left))
                value = (line[x * step:(x + 1) * step].astype(np.int64) + pred) & 0xFF
                row[x * step:(x + 1) * step] = value
                prev, up_left = value, b
        out[y] = row
        above = row
    return out


def _decode_wide_colour(data: bytes) -> np.ndarray:
    width, height, _, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    if interlace:
        raise UnimplementedError(None, None, "Interlaced 16-bit colour PNG files are not supported")
    channels = _COLOUR_TYPE_CHANNELS[colour_type]
    try:
        raw = zlib.decompress(b"".join(body for kind, body in _chunks(data) if kind == b"IDAT"))
    except zlib.error:
        raise InvalidArgumentError(None, None, f"Invalid PNG data, size {len(data)}") from None
    if len(raw) < height * (width * channels * 2 + 1):
        raise InvalidArgumentError(None, None, f"Invalid PNG data, size {len(data)}")
    rows = _unfilter(raw, height, width, channels * 2)
    return rows.view(">u2").reshape(height, width, channels).astype(np.uint16)


def decode_pixels(op_name: str, data: bytes) -> np.ndarray:
    """[h, w, c] pixels of any still image TensorFlow's decoders accept (the first frame of a GIF)."""
    kind = sniff(data)
    if kind is None:
        raise InvalidArgumentError(None, None, UNKNOWN_FORMAT)
    if kind == "png" and _is_wide_colour(data):
        return _decode_wide_colour(data)
    return pixels_of(open_image(op_name, data, kind.upper()))


def file_channels(data: bytes, pixels: np.ndarray, channels: int) -> np.ndarray:
    """`convert_channels`, with libpng's filler where TensorFlow adds alpha to a palette or grey PNG of fewer
    than 8 bits a sample and no transparency: the largest value of the file's bit depth (1 for a 1-bit file,
    15 for a 4-bit one; TensorFlow 2.21's answers), widened like the samples for 16-bit output."""
    out = convert_channels(pixels, channels)
    if channels == 4 and pixels.shape[-1] in (1, 3) and sniff(data) == "png" and len(data) > 24 and data[24] < 8:
        out[..., 3] = ((1 << data[24]) - 1) * (257 if out.dtype == np.uint16 else 1)
    return out


def _decode_kernel(contents, channels=0, dtype=_dt.uint8):
    check_channels(channels)
    data = scalar_bytes(contents)
    return file_channels(data, convert_depth(decode_pixels("decode_png", data), dtype.as_numpy_dtype), channels)


def image_infer(op_name, dtype=_dt.uint8):
    def infer(inputs, attrs):
        R.check_input_dtype(op_name, inputs, 0, _dt.string)
        rank = inputs[0].shape.rank
        if rank not in (None, 0):
            raise InvalidArgumentError(None, None, f"Shape must be rank 0 but is rank {rank}")
        channels = attrs.get("channels", 0)
        return [Spec(TensorShape([None, None, channels or None]), attrs.get("dtype", dtype))]
    return infer


DecodePng = defop("DecodePng", inputs=("contents",), kernel=_decode_kernel, infer=image_infer("DecodePng"),
                  grad=NO_GRADIENT, doc="The pixels [height, width, channels] of a PNG (or other image) file.")


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def encode_png_bytes(image: np.ndarray, compression: int = -1) -> bytes:
    height, width, channels = image.shape
    colour_type = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    depth = 16 if image.dtype == np.uint16 else 8
    samples = image.astype(">u2") if depth == 16 else image
    rows = samples.reshape(height, -1).view(np.uint8)
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1).tobytes()
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, compression)) +
            _chunk(b"IEND", b""))


def _encode_kernel(image, compression=-1):
    if image.ndim != 3:
        raise InvalidArgumentError(None, None, f"images must be at least rank 3"
                                               f"[{','.join(str(d) for d in image.shape)}]")
    if not 1 <= image.shape[-1] <= 4:
        raise InvalidArgumentError(None, None, f"image must have 1, 2, 3, or 4 channels, got {image.shape[-1]}")
    if not -1 <= compression <= 9:
        raise InvalidArgumentError(None, None, f"compression should be in [-1,9], got {compression}")
    return np.array(encode_png_bytes(np.ascontiguousarray(image), compression), dtype=object)


def _encode_infer(inputs, attrs):
    R.check_dtype_in("EncodePng", inputs[0].dtype, (_dt.uint8, _dt.uint16), arg="image")
    return [Spec(TensorShape([]), _dt.string)]


EncodePng = defop("EncodePng", inputs=("image",), kernel=_encode_kernel, infer=_encode_infer, grad=NO_GRADIENT,
                  doc="A PNG file of a uint8/uint16 image [height, width, channels].")


def decode_png(contents, channels=0, dtype=_dt.uint8, name=None):
    """`tf.io.decode_png`: uint8 or uint16 pixels [height, width, channels]."""
    dtype = _dt.as_dtype(dtype)
    if dtype not in (_dt.uint8, _dt.uint16):
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in list of allowed "
                        f"values: uint8, uint16")
    return bind(DecodePng, [as_tensor(contents, _dt.string)], {"channels": int(channels), "dtype": dtype}, name=name)


def encode_png(image, compression=-1, name=None):
    """`tf.io.encode_png`: the PNG file's bytes as a string scalar."""
    return bind(EncodePng, [as_tensor(image)], {"compression": int(compression)}, name=name)
