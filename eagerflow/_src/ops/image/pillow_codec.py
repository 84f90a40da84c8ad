"""Image files through Pillow, the optional dependency behind the JPEG, GIF and BMP codecs and 8-bit PNG
decoding (`pip install "eagerflow[image]"`). Pillow is imported on first use, so `import eagerflow`
stays NumPy-only; without it these ops raise an ImportError that says what to install.

Pillow decodes JPEG with libjpeg's accurate integer IDCT: the same pixels as TensorFlow's
`dct_method="INTEGER_ACCURATE"`. TensorFlow's default (`""`, its fast IDCT) can differ by a few levels.
"""
from __future__ import annotations

import io

import numpy as np

from ...core.errors import InvalidArgumentError

UNKNOWN_FORMAT = "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."


def pillow(op_name: str):
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"{op_name} reads and writes image files with Pillow, which is not installed: "
                          f"pip install \"eagerflow[image]\" (or pip install Pillow)") from None
    return Image


def sniff(data: bytes) -> str | None:
    """The format a file's first bytes announce, as TensorFlow's decoders tell them apart."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"GIF":
        return "gif"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def open_image(op_name: str, data: bytes, what: str):
    """A Pillow image of `data`, or TensorFlow's InvalidArgumentError naming the format for bad data."""
    Image = pillow(op_name)
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except Exception:  # noqa: BLE001 - Pillow raises several classes for a damaged file
        raise InvalidArgumentError(None, None, f"Invalid {what} data, size {len(data)}") from None
    return image


def _mode_array(image) -> np.ndarray:
    """The pixels of a Pillow image as [h, w, c] uint8 (uint16 for 16-bit grey)."""
    mode = image.mode
    if mode == "P" or mode == "PA":
        image = image.convert("RGBA" if "transparency" in image.info or mode == "PA" else "RGB")
    elif mode == "1":
        image = image.convert("L")
    elif mode in ("I;16", "I;16B", "I;16L", "I"):
        return np.asarray(image, dtype=np.uint16)[..., None] if mode != "I" else \
            np.clip(np.asarray(image), 0, 65535).astype(np.uint16)[..., None]
    elif mode == "CMYK":
        image = image.convert("RGB")
    elif mode not in ("L", "LA", "RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in mode else "RGB")
    pixels = np.asarray(image, dtype=np.uint8)
    return pixels[..., None] if pixels.ndim == 2 else pixels


def pixels_of(image) -> np.ndarray:
    return np.ascontiguousarray(_mode_array(image))


def frames_of(image) -> np.ndarray:
    """Every frame of an animated image as RGB [frames, h, w, 3] (a GIF's frames composed as
    browsers show them, which is what TensorFlow's GIF decoder returns)."""
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frames.append(np.asarray(image.convert("RGB"), dtype=np.uint8))
    return np.stack(frames)
