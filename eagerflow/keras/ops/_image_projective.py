"""Projective resampling for keras.ops.image (TensorFlow's ImageProjectiveTransformV3 rules): output pixel (x, y)
reads input point ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k) with k = c0 x + c1 y + 1, then fill_mode and
interpolation as keras/layers/affine_transform.py applies them (its `sample`)."""
from __future__ import annotations

from ._common import tf


def projective_resample(images, transforms, interpolation="bilinear", fill_mode="constant", fill_value=0.0):
    """images (N, H, W, C) float with known H and W; transforms (N, 8) rows [a0, a1, a2, b0, b1, b2, c0, c1]."""
    from ..layers.preprocessing.affine_transform import sample
    t = tf()
    h, w = images.shape.as_list()[1:3]
    dtype = images.dtype
    ys = t.reshape(t.range(h, dtype=dtype), [1, h, 1])
    xs = t.reshape(t.range(w, dtype=dtype), [1, 1, w])
    m = t.reshape(t.cast(transforms, dtype), [-1, 8, 1, 1])
    k = m[:, 6] * xs + m[:, 7] * ys + 1.0
    in_x = (m[:, 0] * xs + m[:, 1] * ys + m[:, 2]) / k
    in_y = (m[:, 3] * xs + m[:, 4] * ys + m[:, 5]) / k
    return sample(images, in_y, in_x, interpolation, fill_mode, fill_value)


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
