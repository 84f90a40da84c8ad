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


# Start-of-frame markers (FF C0..CF less DHT C4, JPG C8 and DAC CC): the frame's size and components.
_FRAME_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_MODES_BY_COMPONENTS = {1: "L", 3: "RGB"}


def jpeg_frame(data: bytes):
    """(mode, (width, height)) from a JPEG's header, read the way Pillow's JPEG plugin reads it (the
    last frame header before the first scan; one component is "L", three "RGB"), or None for anything
    less plain (no such header, fill bytes, 12-bit samples, CMYK, a zero size): those go through
    Image.open, which decides them."""
    at, end, frame = 2, len(data) - 4, None
    while at <= end:
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xDA:  # start of scan: the header is complete
            return frame
        if marker in _FRAME_MARKERS:
            if at + 10 > len(data) or data[at + 4] != 8:
                return None
            height, width = (data[at + 5] << 8) | data[at + 6], (data[at + 7] << 8) | data[at + 8]
            mode = _MODES_BY_COMPONENTS.get(data[at + 9])
            frame = (mode, (width, height)) if mode and width and height else None
            if frame is None:
                return None
        elif marker in (0xFF, 0x01) or 0xD0 <= marker <= 0xD9:  # fill, or a marker without a length
            return None
        at += 2 + ((data[at + 2] << 8) | data[at + 3])
    return None


def decode_jpeg_direct(data: bytes, mode: str | None = None):
    """A plain JPEG's pixels [h, w, c] uint8 decoded by libjpeg in one call (Pillow's JPEG decoder
    through Image.frombytes, the arguments Image.open would give it), in `mode` ("L" takes libjpeg's
    luma, as Pillow's draft does; None: the file's own) — or None when the file is not plain or the
    decoder stops early, for the caller to take the Image.open path and its errors. This skips
    Image.open's Python work per file (format probing, a handler per marker, a chunked read loop),
    about half the time of decoding a small image; the pixels are the same."""
    frame = jpeg_frame(data)
    if frame is None:
        return None
    Image = pillow("decode_jpeg")
    own_mode, size = frame
    mode = mode or own_mode
    limit = Image.MAX_IMAGE_PIXELS
    if (mode != own_mode and mode != "L") or (limit and size[0] * size[1] > limit):
        return None  # Image.open's decompression-bomb check decides, as for any file
    try:
        image = Image.frombytes(mode, size, data, "jpeg", mode, "")
    except (ValueError, OSError):  # truncated or damaged: Image.open says what TensorFlow says
        return None
    pixels = np.asarray(image, dtype=np.uint8)
    return pixels[..., None] if pixels.ndim == 2 else pixels


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
