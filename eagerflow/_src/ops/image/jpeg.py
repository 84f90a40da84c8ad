"""DecodeJpeg and EncodeJpeg: `tf.io.decode_jpeg` / `tf.io.encode_jpeg` (also `tf.image.*`), through Pillow.

Decoding uses libjpeg's accurate integer IDCT with fancy upsampling: TensorFlow's pixels for
`dct_method="INTEGER_ACCURATE"` exactly; its default fast IDCT may differ by a few levels. A request
for grey (`channels=1`) takes libjpeg's luma channel, as TensorFlow does, not a weighted sum of RGB.
`fancy_upscaling=False` is refused (UnimplementedError) rather than answered with other pixels.
"""
from __future__ import annotations

import io

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .pillow_codec import UNKNOWN_FORMAT, decode_jpeg_direct, open_image, pillow, sniff
from .pixel_channels import convert_channels
from .png import check_channels, decode_pixels, image_infer, scalar_bytes


def decode_jpeg_pixels(data: bytes, channels: int, ratio: int = 1) -> np.ndarray:
    if ratio == 1 and channels in (0, 1, 3):
        pixels = decode_jpeg_direct(data, "L" if channels == 1 else None)
        if pixels is not None:
            return convert_channels(pixels, channels)
    image = open_image("decode_jpeg", data, "JPEG")
    width, height = image.size
    mode = "L" if channels == 1 else ("RGB" if channels == 3 else image.mode)
    if ratio != 1 or channels == 1:
        image = open_image_draft(data, mode, (-(-width // ratio), -(-height // ratio)))
    pixels = np.asarray(image.convert("RGB") if image.mode not in ("L", "RGB") else image, dtype=np.uint8)
    pixels = pixels[..., None] if pixels.ndim == 2 else pixels
    return convert_channels(np.ascontiguousarray(pixels), channels)


def open_image_draft(data: bytes, mode: str, size):
    """A JPEG decoded by libjpeg straight into `mode` at a 1/2, 1/4 or 1/8 scale (Pillow's draft)."""
    Image = pillow("decode_jpeg")
    image = Image.open(io.BytesIO(data))
    image.draft(mode, size)
    image.load()
    return image


def _decode_kernel(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                   acceptable_fraction=1.0, dct_method=""):
    if channels not in (0, 1, 3):
        if channels == 4:
            raise InvalidArgumentError(None, None, "JPEG does not support 4 channels")
        check_channels(channels)
    if ratio not in (1, 2, 4, 8):
        raise InvalidArgumentError(None, None, f"ratio must be 1, 2, 4, or 8, got {ratio}")
    if not fancy_upscaling:
        raise UnimplementedError(None, None, "decode_jpeg: fancy_upscaling=False is not supported (Pillow's libjpeg "
                                             "always upsamples chroma smoothly)")
    data = scalar_bytes(contents)
    kind = sniff(data)
    if kind is None:
        raise InvalidArgumentError(None, None, UNKNOWN_FORMAT)
    if kind != "jpeg":
        return convert_channels(decode_pixels("decode_jpeg", data), channels)
    return decode_jpeg_pixels(data, channels, ratio)


DecodeJpeg = defop("DecodeJpeg", inputs=("contents",), kernel=_decode_kernel, infer=image_infer("DecodeJpeg"),
                   grad=NO_GRADIENT, doc="The uint8 pixels [height, width, channels] of a JPEG file.")


def _encode_kernel(image, format="", quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                   density_unit="in", x_density=300, y_density=300, xmp_metadata=""):
    if image.ndim != 3:
        raise InvalidArgumentError(None, None, f"image must be 3-dimensional"
                                               f"[{','.join(str(d) for d in image.shape)}]")
    want = {"": (1, 3), "grayscale": (1,), "rgb": (3,)}.get(format)
    if want is None:
        raise InvalidArgumentError(None, None, f"format must be '', grayscale or rgb, got {format}")
    if image.shape[-1] not in want:
        raise InvalidArgumentError(None, None, f"image must have 1 or 3 channels, got "
                                               f"[{','.join(str(d) for d in image.shape)}]")
    if not 0 <= quality <= 100:
        raise InvalidArgumentError(None, None, f"quality must be in [0,100], got {quality}")
    Image = pillow("encode_jpeg")
    picture = Image.fromarray(image[..., 0] if image.shape[-1] == 1 else image, "L" if image.shape[-1] == 1 else "RGB")
    per_inch = 2.54 if density_unit == "cm" else 1.0
    out = io.BytesIO()
    options = {"quality": int(quality), "progressive": bool(progressive), "optimize": bool(optimize_size),
               "subsampling": 2 if chroma_downsampling else 0,
               "dpi": (round(x_density * per_inch), round(y_density * per_inch))}
    if xmp_metadata:
        options["xmp"] = xmp_metadata.encode("utf-8") if isinstance(xmp_metadata, str) else xmp_metadata
    picture.save(out, "JPEG", **options)
    return np.array(out.getvalue(), dtype=object)


def _encode_infer(inputs, attrs):
    R.check_input_dtype("EncodeJpeg", inputs, 0, _dt.uint8)
    return [Spec(TensorShape([]), _dt.string)]


EncodeJpeg = defop("EncodeJpeg", inputs=("image",), kernel=_encode_kernel, infer=_encode_infer, grad=NO_GRADIENT,
                   doc="A JPEG file of a uint8 image [height, width, 1 or 3].")


def _is_jpeg_kernel(contents):
    return np.array(sniff(scalar_bytes(contents)) == "jpeg")


IsJpeg = defop("IsJpeg", inputs=("contents",), kernel=_is_jpeg_kernel,
               infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.bool_)], grad=NO_GRADIENT,
               doc="Whether a file's first bytes are a JPEG's.")


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    """`tf.io.decode_jpeg`: uint8 pixels [height, width, channels]."""
    attrs = {"channels": int(channels), "ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling),
             "try_recover_truncated": bool(try_recover_truncated), "acceptable_fraction": float(acceptable_fraction),
             "dct_method": str(dct_method)}
    return bind(DecodeJpeg, [as_tensor(contents, _dt.string)], attrs, name=name)


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                density_unit="in", x_density=300, y_density=300, xmp_metadata="", name=None):
    """`tf.io.encode_jpeg`: the JPEG file's bytes as a string scalar."""
    attrs = {"format": str(format), "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size), "chroma_downsampling": bool(chroma_downsampling),
             "density_unit": str(density_unit), "x_density": int(x_density), "y_density": int(y_density),
             "xmp_metadata": str(xmp_metadata)}
    return bind(EncodeJpeg, [as_tensor(image)], attrs, name=name)


def is_jpeg(contents, name=None):
    """`tf.io.is_jpeg`: a bool scalar."""
    return bind(IsJpeg, [as_tensor(contents, _dt.string)], name=name)


def _shape_kernel(contents, output_type=_dt.int32):
    data = scalar_bytes(contents)
    if sniff(data) != "jpeg":
        raise InvalidArgumentError(None, None, f"Invalid JPEG data, size {len(data)}")
    image = open_image_header(data)
    channels = {"L": 1, "RGB": 3, "YCbCr": 3, "CMYK": 4}.get(image.mode, len(image.getbands()))
    return np.array([image.size[1], image.size[0], channels], output_type.as_numpy_dtype)


def open_image_header(data: bytes):
    """A JPEG's Pillow image with only its header read (no pixels decoded)."""
    Image = pillow("extract_jpeg_shape")
    try:
        return Image.open(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - Pillow raises several classes for a damaged header
        raise InvalidArgumentError(None, None, f"Invalid JPEG data, size {len(data)}") from None


def _shape_infer(inputs, attrs):
    R.check_input_dtype("ExtractJpegShape", inputs, 0, _dt.string)
    return [Spec(TensorShape([3]), attrs.get("output_type", _dt.int32))]


ExtractJpegShape = defop("ExtractJpegShape", inputs=("contents",), kernel=_shape_kernel, infer=_shape_infer,
                         grad=NO_GRADIENT, doc="[height, width, channels] of a JPEG file, from its header alone.")


def extract_jpeg_shape(contents, output_type=_dt.int32, name=None):
    """`tf.io.extract_jpeg_shape`: [height, width, channels] without decoding the pixels."""
    output_type = _dt.as_dtype(output_type)
    return bind(ExtractJpegShape, [as_tensor(contents, _dt.string)], {"output_type": output_type}, name=name)
