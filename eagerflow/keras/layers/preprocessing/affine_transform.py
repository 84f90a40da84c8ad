"""Resampling of (N, H, W, C) images through an affine map, with TensorFlow's ImageProjectiveTransformV3
rules that Keras' RandomTranslation and RandomZoom use: output pixel (x, y) reads input point
(a0 x + a1 y + a2, b0 x + b1 y + b2); a point off the image is first moved back by `fill_mode` ("reflect":
d c b a | a b c d | d c b a, "wrap", "nearest": the edge, "constant": left off the image), then read with
`interpolation` ("bilinear" or "nearest", round half away from zero), where a read outside the image
gives `fill_value`. Composed from existing ops, so it runs eagerly and under tf.function alike."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.array.slicing import gather

FILL_MODES = ("reflect", "wrap", "constant", "nearest")


def _clamp(c, n):
    return _math.minimum(_math.maximum(c, 0.0), n - 1.0)


def _trunc(v):
    """C's cast to an integer of a non-negative float."""
    return _math.floor(v)


def _reflect(c, n):
    if n <= 1:
        return _array.zeros_like(c)
    sz2 = 2.0 * n
    below = _array.where(_math.less(c, -sz2), sz2 * _trunc(-c / sz2) + c, c)
    below = _array.where(_math.less(below, -float(n)), below + sz2, -below - 1.0)
    above = c - sz2 * _trunc(c / sz2)
    above = _array.where(_math.greater_equal(above, float(n)), sz2 - above - 1.0, above)
    return _clamp(_array.where(_math.less(c, 0.0), below, _array.where(_math.greater(c, n - 1.0), above, c)), n)


def _wrap(c, n):
    if n <= 1:
        return _array.zeros_like(c)
    sz = n - 1.0
    below = c + n * (_trunc(-c / sz) + 1.0)
    above = c - n * _trunc(c / sz)
    return _clamp(_array.where(_math.less(c, 0.0), below, _array.where(_math.greater(c, sz), above, c)), n)


def _map(c, n, fill_mode):
    if fill_mode == "reflect":
        return _reflect(c, n)
    if fill_mode == "wrap":
        return _wrap(c, n)
    if fill_mode == "nearest":
        return _clamp(c, n)
    return c


def _round_half_away(v):
    return _math.sign(v) * _math.floor(_math.abs(v) + 0.5)


def _read(flat, n_index, y, x, h, w, fill_value):
    """Pixels at integer (y, x) (float tensors (N, H, W)) of `flat` (N*h*w, C); fill_value off the image."""
    inside = _math.logical_and(_math.logical_and(_math.greater_equal(y, 0.0), _math.less(y, float(h))),
                               _math.logical_and(_math.greater_equal(x, 0.0), _math.less(x, float(w))))
    yi = _math.cast(_clamp(y, h), "int32")
    xi = _math.cast(_clamp(x, w), "int32")
    values = gather(flat, n_index * (h * w) + yi * w + xi)  # (N, H, W, C)
    inside = _array.expand_dims(inside, -1)
    return _array.where(_array.broadcast_to(inside, _array.shape(values)), values,
                        _array.fill(_array.shape(values), _math.cast(fill_value, values.dtype)))


def affine_transform(images, transforms, interpolation="bilinear", fill_mode="constant", fill_value=0.0):
    """images (N, H, W, C) with known H and W; transforms (N, 6) float rows [a0, a1, a2, b0, b1, b2]."""
    h, w = images.shape.as_list()[1:3]
    dtype = images.dtype
    ys = _math.cast(_array.reshape(_array.constant(list(range(h)), dtype="float32"), [1, h, 1]), dtype)
    xs = _math.cast(_array.reshape(_array.constant(list(range(w)), dtype="float32"), [1, 1, w]), dtype)
    t = _array.reshape(_math.cast(transforms, dtype), [-1, 6, 1, 1])
    in_x = t[:, 0] * xs + t[:, 1] * ys + t[:, 2]
    in_y = t[:, 3] * xs + t[:, 4] * ys + t[:, 5]
    return sample(images, in_y, in_x, interpolation, fill_mode, fill_value)


def sample(images, in_y, in_x, interpolation, fill_mode, fill_value):
    """Output pixels read at the input points (in_y, in_x) (float tensors (N, H, W)) of images (N, H, W, C)
    with known H and W: points mapped by `fill_mode`, then read nearest or bilinearly, `fill_value` off the
    image (shared with keras.ops.image's projective transform)."""
    from ...._src.ops.array.sequences import range as _range
    h, w = images.shape.as_list()[1:3]
    in_x, in_y = _map(in_x, w, fill_mode), _map(in_y, h, fill_mode)
    n_index = _array.reshape(_range(_array.shape(images)[0]), [-1, 1, 1])
    flat = _array.reshape(images, [-1, images.shape.as_list()[-1]])
    if interpolation == "nearest":
        return _read(flat, n_index, _round_half_away(in_y), _round_half_away(in_x), h, w, fill_value)
    y0, x0 = _math.floor(in_y), _math.floor(in_x)
    y1, x1 = y0 + 1.0, x0 + 1.0
    wy0, wy1 = _array.expand_dims(y1 - in_y, -1), _array.expand_dims(in_y - y0, -1)
    wx0, wx1 = _array.expand_dims(x1 - in_x, -1), _array.expand_dims(in_x - x0, -1)
    top = wx0 * _read(flat, n_index, y0, x0, h, w, fill_value) + wx1 * _read(flat, n_index, y0, x1, h, w, fill_value)
    bottom = wx0 * _read(flat, n_index, y1, x0, h, w, fill_value) + wx1 * _read(flat, n_index, y1, x1, h, w,
                                                                                  fill_value)
    return wy0 * top + wy1 * bottom
