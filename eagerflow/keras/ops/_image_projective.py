"""Projective resampling for keras.ops.image (TensorFlow's ImageProjectiveTransformV3 rules): output pixel (x, y)
reads input point ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k) with k = c0 x + c1 y + 1, then fill_mode and
interpolation as keras/layers/affine_transform.py applies them (its point mapping and reads are reused)."""
from __future__ import annotations

from ._common import tf


def projective_resample(images, transforms, interpolation="bilinear", fill_mode="constant", fill_value=0.0):
    """images (N, H, W, C) float with known H and W; transforms (N, 8) rows [a0, a1, a2, b0, b1, b2, c0, c1]."""
    from ..layers.affine_transform import _map, _read, _round_half_away
    t = tf()
    h, w = images.shape.as_list()[1:3]
    dtype = images.dtype
    ys = t.reshape(t.range(h, dtype=dtype), [1, h, 1])
    xs = t.reshape(t.range(w, dtype=dtype), [1, 1, w])
    m = t.reshape(t.cast(transforms, dtype), [-1, 8, 1, 1])
    k = m[:, 6] * xs + m[:, 7] * ys + 1.0
    in_x = (m[:, 0] * xs + m[:, 1] * ys + m[:, 2]) / k
    in_y = (m[:, 3] * xs + m[:, 4] * ys + m[:, 5]) / k
    in_x, in_y = _map(in_x, w, fill_mode), _map(in_y, h, fill_mode)
    n_index = t.reshape(t.range(t.shape(images)[0]), [-1, 1, 1])
    flat = t.reshape(images, [-1, images.shape[-1]])
    if interpolation == "nearest":
        return _read(flat, n_index, _round_half_away(in_y), _round_half_away(in_x), h, w, fill_value)
    y0, x0 = t.floor(in_y), t.floor(in_x)
    y1, x1 = y0 + 1.0, x0 + 1.0
    wy0, wy1 = t.expand_dims(y1 - in_y, -1), t.expand_dims(in_y - y0, -1)
    wx0, wx1 = t.expand_dims(x1 - in_x, -1), t.expand_dims(in_x - x0, -1)
    top = wx0 * _read(flat, n_index, y0, x0, h, w, fill_value) + wx1 * _read(flat, n_index, y0, x1, h, w, fill_value)
    bottom = wx0 * _read(flat, n_index, y1, x0, h, w, fill_value) + wx1 * _read(flat, n_index, y1, x1, h, w,
                                                                                  fill_value)
    return wy0 * top + wy1 * bottom


def homography(start_points, end_points):
    """(N, 8) transforms taking each end point to its start point: the 8x8 system of the four point pairs."""
    t = tf()
    rows, rhs = [], []
    for p in range(4):
        sx, sy = start_points[:, p, 0], start_points[:, p, 1]
        ex, ey = end_points[:, p, 0], end_points[:, p, 1]
        zero, one = t.zeros_like(ex), t.ones_like(ex)
        rows.append(t.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], axis=-1))
        rows.append(t.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], axis=-1))
        rhs += [sx, sy]
    matrix = t.stack(rows, axis=-2)  # (N, 8, 8)
    return t.squeeze(t.linalg.solve(matrix, t.expand_dims(t.stack(rhs, axis=-1), -1)), -1)
