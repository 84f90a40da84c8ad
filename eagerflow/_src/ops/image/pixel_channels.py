"""The channel count an image decoder returns, converted as TensorFlow's decoders convert it.

A decoded image arrives with the file's own channels (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA); the
`channels` argument asks for 1, 3 or 4 (0: as in the file). TensorFlow's PNG path (libpng) drops
alpha, repeats grey, adds an opaque alpha, and turns colour into grey with the weights 9797, 19234
and 3737 over 32768 (truncated for 8-bit samples, rounded for 16-bit ones); those rules were read
off TensorFlow 2.21's outputs for 4,096 random pixels of each kind.
"""
from __future__ import annotations

import numpy as np

_GREY_WEIGHTS = np.array([9797, 19234, 3737], np.int64)


def _grey_from_colour(rgb: np.ndarray) -> np.ndarray:
    wide = rgb.astype(np.int64) @ _GREY_WEIGHTS
    if rgb.dtype == np.uint16:
        wide += 16384
    return (wide >> 15).astype(rgb.dtype)[..., None]


def convert_channels(pixels: np.ndarray, channels: int) -> np.ndarray:
    """`pixels` [..., h, w, c] (c in 1..4) with `channels` channels (0 keeps c)."""
    have = pixels.shape[-1]
    if channels == 0 or channels == have:
        return pixels
    opaque = np.iinfo(pixels.dtype).max
    grey = pixels[..., :1] if have <= 2 else _grey_from_colour(pixels[..., :3])
    alpha = pixels[..., -1:] if have in (2, 4) else np.full(pixels.shape[:-1] + (1,), opaque, pixels.dtype)
    if channels == 1:
        return np.ascontiguousarray(grey)
    colour = np.repeat(grey, 3, axis=-1) if have <= 2 else pixels[..., :3]
    if channels == 3:
        return np.ascontiguousarray(colour)
    return np.concatenate([colour, alpha], axis=-1)


def convert_depth(pixels: np.ndarray, dtype) -> np.ndarray:
    """8-bit samples as 16-bit ones (x 257) or 16-bit as 8-bit (the high byte), as decode_png does."""
    if pixels.dtype == dtype:
        return pixels
    if dtype == np.uint16:
        return pixels.astype(np.uint16) * np.uint16(257)
    return (pixels >> 8).astype(np.uint8)
