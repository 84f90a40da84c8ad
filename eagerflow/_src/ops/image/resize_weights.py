"""The per-axis weight matrices of every image resize ([out, in]: output = Wy @ image @ Wx^T), built as
TensorFlow places its samples: bilinear, nearest, bicubic (the quantised Keys table), area, and the
triangle kernel of ScaleAndTranslate (antialiased resizes). Sample positions follow TensorFlow 2
(half-pixel centers: in = (out + 0.5) * in/out - 0.5), computed in float32 as TensorFlow does so that
rounding at cell boundaries picks the same cells. Small matrices are cached (read-only).
"""
from __future__ import annotations

import functools

import numpy as np

_F32 = np.float32


def _scale(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return _F32((in_size - 1) / (out_size - 1))
    return _F32(in_size / out_size)


_CACHED_WEIGHTS = 1 << 16  # entries: a 256 x 256 matrix (512 KiB) at most, 64 of them


def _cached_weights(build):
    """`build(in_size, out_size, align_corners, half_pixel_centers)`, remembered for small matrices: a
    dataset resizing thousands of images to one size builds its two matrices once, not per image.
    The cached arrays are read-only; every kernel only reads them."""
    remembered = functools.lru_cache(maxsize=64)(build)

    def weights(in_size, out_size, align_corners=False, half_pixel_centers=True):
        key = (int(in_size), int(out_size), bool(align_corners), bool(half_pixel_centers))
        if key[0] * key[1] > _CACHED_WEIGHTS:
            return build(*key)
        m = remembered(*key)
        m.flags.writeable = False
        return m
    weights.__doc__ = build.__doc__
    return weights


@_cached_weights
def _bilinear_matrix(in_size, out_size, align_corners=False, half_pixel_centers=True):
    """[out, in] weights: each output row mixes its two neighbouring input cells."""
    scale = _scale(in_size, out_size, align_corners)
    pos = np.arange(out_size, dtype=_F32)
    src = (pos + _F32(0.5)) * scale - _F32(0.5) if half_pixel_centers else pos * scale
    lower_f = np.floor(src)
    lower = np.clip(lower_f.astype(np.int64), 0, in_size - 1)
    upper = np.minimum(np.ceil(src).astype(np.int64), in_size - 1)
    lerp = (src - lower_f).astype(np.float64)
    m = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    np.add.at(m, (rows, lower), 1 - lerp)
    np.add.at(m, (rows, upper), lerp)
    return m


@_cached_weights
def _nearest_matrix(in_size, out_size, align_corners=False, half_pixel_centers=True):
    """[out, in] one-hot rows: the input cell whose area contains the output cell's center."""
    scale = _scale(in_size, out_size, align_corners)
    pos = np.arange(out_size, dtype=_F32)
    if half_pixel_centers:
        src = np.floor((pos + _F32(0.5)) * scale)
    elif align_corners:
        src = np.round(pos * scale)
    else:
        src = np.floor(pos * scale)
    index = np.clip(src.astype(np.int64), 0, in_size - 1)
    m = np.zeros((out_size, in_size))
    m[np.arange(out_size), index] = 1
    return m


_CUBIC_TABLE_SIZE = 1024


def _keys_cubic_table(a=-0.5):
    """TensorFlow's 1025-entry table of the Keys cubic kernel: [i, 0] the weight at distance
    i/1024 (inner taps), [i, 1] at distance 1 + i/1024 (outer taps), in float32."""
    x = np.arange(_CUBIC_TABLE_SIZE + 1, dtype=np.float64) / _CUBIC_TABLE_SIZE
    inner = ((a + 2) * x - (a + 3)) * x * x + 1
    outer_x = x + 1
    outer = ((a * outer_x - 5 * a) * outer_x + 8 * a) * outer_x - 4 * a
    return np.stack([inner, outer], axis=1).astype(_F32)


_KEYS = None


@_cached_weights
def _bicubic_matrix(in_size, out_size, align_corners=False, half_pixel_centers=True):
    """[out, in] weights of TensorFlow's half-pixel bicubic resize: four taps per output cell,
    weights from the quantised Keys table (a = -0.5); taps outside the image get weight 0 and the
    rest are renormalised to sum to 1 (TensorFlow's border rule for half_pixel_centers)."""
    global _KEYS
    if _KEYS is None:
        _KEYS = _keys_cubic_table()
    scale = _scale(in_size, out_size, align_corners)
    m = np.zeros((out_size, in_size))
    for y in range(out_size):
        src = (_F32(y) + _F32(0.5)) * scale - _F32(0.5) if half_pixel_centers else _F32(y) * scale
        base = int(np.floor(src))
        offset = int(np.rint((src - np.floor(src)) * _CUBIC_TABLE_SIZE))
        weights = [_KEYS[offset, 1], _KEYS[offset, 0], _KEYS[_CUBIC_TABLE_SIZE - offset, 0],
                   _KEYS[_CUBIC_TABLE_SIZE - offset, 1]]
        taps = [(base + k, float(w)) for k, w in zip((-1, 0, 1, 2), weights) if 0 <= base + k < in_size]
        total = sum(w for _, w in taps)
        for index, w in taps:
            m[y, index] += w / total if abs(total) >= 1000 * np.finfo(np.float32).tiny else w
    return m


@_cached_weights
def _area_matrix(in_size, out_size, align_corners=False, half_pixel_centers=True):
    """[out, in] weights of TensorFlow's area resize: each output cell averages the input span
    [y * scale, (y + 1) * scale), partly covered cells weighted by the part covered."""
    scale = float(_scale(in_size, out_size, align_corners))
    m = np.zeros((out_size, in_size))
    for y in range(out_size):
        start, end = y * scale, (y + 1) * scale
        for i in range(int(np.floor(start)), int(np.ceil(end))):
            m[y, min(max(i, 0), in_size - 1)] += (min(i + 1, end) - max(i, start)) / scale
    return m


def _triangle_matrix(in_size, out_size, scale, translate, antialias=True):
    """[out, in] normalised triangle-kernel weights, as TensorFlow's span computation makes them."""
    inv_scale = _F32(1) / _F32(scale)
    kernel_scale = max(inv_scale, _F32(1)) if antialias else _F32(1)
    m = np.zeros((out_size, in_size))
    for x in range(out_size):  # one row per output cell; the inner work is vectorised
        sample = (_F32(x) + _F32(0.5)) * inv_scale - inv_scale * _F32(translate)
        if sample < 0 or sample > in_size:
            continue
        start = int(np.clip(np.ceil(sample - kernel_scale - _F32(0.5)), 0, in_size - 1))
        end = int(np.clip(np.floor(sample + kernel_scale - _F32(0.5)), 0, in_size - 1)) + 1
        src = np.arange(start, end, dtype=_F32)
        weights = np.maximum(0, 1 - np.abs((src + _F32(0.5) - sample) / kernel_scale)).astype(np.float64)
        total = weights.sum()
        m[x, start:end] = weights / total if abs(total) >= 1000 * np.finfo(np.float32).tiny else weights
    return m


def _triangle_matrices(in_hw, out_hw, scale, translation, antialias):
    return [_triangle_matrix(in_hw[d], out_hw[d], float(np.ravel(scale)[d]), float(np.ravel(translation)[d]),
                             antialias) for d in range(2)]
