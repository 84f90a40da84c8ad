"""The legacy `keras.preprocessing.image` transforms (apply_affine_transform, random_rotation, random_shift,
random_shear, random_zoom, brightness and channel shifts) on NumPy arrays.

Keras resamples with `scipy.ndimage.affine_transform`; eagerflow does not depend on SciPy, so the resampling
(spline order 0 or 1, the order Keras uses) and SciPy's four boundary modes are written out here:
- "constant": an output pixel whose source point lies outside [0, size - 1] on either axis is `cval`;
- "nearest": the source point is clamped to the image;
- "reflect": mirrored about the pixel edges (d c b a | a b c d | d c b a);
- "wrap": SciPy's "wrap", whose period is size - 1 (the first and last pixels overlap).
The source point is folded back into the image first and then interpolated, as SciPy does, so the results
agree with Keras' to float rounding."""
from __future__ import annotations

import numpy as np

FILL_MODES = ("constant", "nearest", "reflect", "wrap")


def _fold(coords, size, mode):
    """Source coordinates (float64) folded into [0, size - 1] (about it, for "reflect") per `mode`."""
    if size <= 1:
        return np.zeros_like(coords)
    if mode == "nearest":
        return np.clip(coords, 0, size - 1)
    if mode == "wrap":
        period = size - 1
        low = coords < 0
        high = coords > size - 1
        out = coords.copy()
        out[low] += period * (np.trunc(-coords[low] / period) + 1)
        out[high] -= period * np.trunc(coords[high] / period)
        return out
    if mode == "reflect":
        period = 2 * size
        out = coords.copy()
        low = coords < 0
        neg = out[low]
        far = neg < -period
        neg[far] += period * np.trunc(-neg[far] / period)
        out[low] = np.where(neg < -size, neg + period, -neg - 1)
        high = coords > size - 1
        pos = out[high]
        pos -= period * np.trunc(pos / period)
        out[high] = np.where(pos >= size, period - pos - 1, pos)
        return out
    return coords  # "constant": points outside are masked by the caller


def _resample(planes, rows, cols, mode, cval, order):
    """Values of each 2-D plane of `planes` (planes, height, width) at the source points (rows, cols),
    interpolated with spline `order`; the points and weights are computed once for all planes."""
    height, width = planes.shape[1:]
    outside = None
    if mode == "constant":
        outside = (rows < 0) | (rows > height - 1) | (cols < 0) | (cols > width - 1)
    rows, cols = _fold(rows, height, mode), _fold(cols, width, mode)
    flat = planes.reshape(len(planes), -1)  # gathers by flat index: faster than 2-D fancy indexing

    def at(r, c):
        return np.take(flat, r * width + c, axis=1).astype(np.float64)

    if order == 0:
        r = np.clip(np.floor(rows + 0.5).astype(np.intp), 0, height - 1)
        c = np.clip(np.floor(cols + 0.5).astype(np.intp), 0, width - 1)
        out = at(r, c)
    else:
        r0, c0 = np.floor(rows), np.floor(cols)
        fr, fc = rows - r0, cols - c0
        r0, c0 = r0.astype(np.intp), c0.astype(np.intp)
        ra, rb = np.clip(r0, 0, height - 1), np.clip(r0 + 1, 0, height - 1)
        ca, cb = np.clip(c0, 0, width - 1), np.clip(c0 + 1, 0, width - 1)
        out = ((1 - fr) * ((1 - fc) * at(ra, ca) + fc * at(ra, cb)) +
               fr * ((1 - fc) * at(rb, ca) + fc * at(rb, cb)))
    if outside is not None:
        out = np.where(outside, cval, out)
    if np.issubdtype(planes.dtype, np.integer):  # SciPy rounds half away from zero into integer outputs
        out = np.where(out >= 0, np.floor(out + 0.5), np.ceil(out - 0.5))
    return out.astype(planes.dtype)


def affine_resample(planes, matrix, offset, mode="nearest", cval=0.0, order=1):
    """Output pixel (i, j) of each plane takes that plane's input at matrix @ (i, j) + offset (SciPy's
    affine_transform contract, applied to every plane of `planes` (planes, height, width) alike)."""
    if order not in (0, 1):
        raise NotImplementedError(f"eagerflow's apply_affine_transform supports `order` 0 (nearest) and 1 "
                                  f"(bilinear, Keras' default); received order={order}.")
    if mode not in FILL_MODES:
        raise ValueError(f"Unknown `fill_mode` {mode!r}: expected one of {', '.join(FILL_MODES)}.")
    height, width = planes.shape[1:]
    ii, jj = np.meshgrid(np.arange(height, dtype=np.float64), np.arange(width, dtype=np.float64), indexing="ij")
    rows = matrix[0, 0] * ii + matrix[0, 1] * jj + offset[0]
    cols = matrix[1, 0] * ii + matrix[1, 1] * jj + offset[1]
    return _resample(planes, rows, cols, mode, float(cval), order)


def transform_matrix_offset_center(matrix, x, y):
    """`matrix` conjugated so that it acts about the image centre ((x - 1) / 2, (y - 1) / 2)."""
    o_x, o_y = float(x) / 2 - 0.5, float(y) / 2 - 0.5
    to_centre = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    from_centre = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return to_centre @ matrix @ from_centre


def _compose(theta, tx, ty, shear, zx, zy):
    """The 3x3 homogeneous map from output to input pixel: rotation, then shift, shear, zoom; None if identity."""
    parts = []
    if theta != 0:
        t = np.deg2rad(theta)
        parts.append(np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]]))
    if tx != 0 or ty != 0:
        parts.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]], dtype=np.float64))
    if shear != 0:
        s = np.deg2rad(shear)
        parts.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        parts.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]], dtype=np.float64))
    if not parts:
        return None
    matrix = parts[0]
    for part in parts[1:]:
        matrix = matrix @ part
    return matrix


def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1, col_axis=2, channel_axis=0,
                           fill_mode="nearest", cval=0.0, order=1):
    """One image (rank 3) rotated by `theta` degrees, shifted by (tx, ty) pixels, sheared by `shear` degrees
    and zoomed by (zx, zy), all about the image centre. As in Keras, `tx` moves along `row_axis` and the
    default axes are channels-first (row_axis=1, col_axis=2, channel_axis=0)."""
    if len({row_axis, col_axis, channel_axis}) != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    if {row_axis, col_axis, channel_axis} != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {({row_axis, col_axis, channel_axis}) - {0, 1, 2}}")
    x = np.asarray(x)
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    matrix = _compose(theta, tx, ty, shear, zx, zy)
    if matrix is None:
        return x
    matrix = transform_matrix_offset_center(matrix, x.shape[row_axis], x.shape[col_axis])
    channels = np.moveaxis(x, channel_axis, 0)
    if col_axis > row_axis:  # the matrix speaks (x, y); the remaining 2-D planes are (row, col): swap both
        matrix = matrix[[1, 0, 2]][:, [1, 0, 2]]
    out = affine_resample(channels, matrix[:2, :2], matrix[:2, 2], fill_mode, cval, order)
    return np.moveaxis(out, 0, channel_axis)


def _uniform(low, high):
    return np.random.uniform(low, high)


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                    interpolation_order=1):
    """`x` rotated by a uniform random angle in [-rg, rg] degrees (NumPy's global random state)."""
    theta = _uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """`x` shifted by uniform random fractions of its height (`hrg`) and width (`wrg`)."""
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = _uniform(-hrg, hrg) * h
    ty = _uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """`x` sheared by a uniform random angle in [-intensity, intensity] degrees."""
    shear = _uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                interpolation_order=1):
    """`x` zoomed by factors drawn uniformly from `zoom_range` = (lower, upper), independently per axis."""
    if len(zoom_range) != 2:
        raise ValueError(f"`zoom_range` should be a tuple or list of two floats. Received: {zoom_range}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def apply_channel_shift(x, intensity, channel_axis=0):
    """`intensity` added to every channel, each clipped back into the whole image's [min, max]."""
    x = np.moveaxis(x, channel_axis, 0)
    low, high = np.min(x), np.max(x)
    shifted = np.stack([np.clip(plane + intensity, low, high) for plane in x], axis=0)
    return np.moveaxis(shifted, 0, channel_axis)


def random_channel_shift(x, intensity_range, channel_axis=0):
    """apply_channel_shift with an intensity drawn uniformly from [-intensity_range, intensity_range]."""
    return apply_channel_shift(x, _uniform(-intensity_range, intensity_range), channel_axis=channel_axis)


def apply_brightness_shift(x, brightness, scale=True):
    """The image's brightness multiplied by `brightness` (through a PIL image, as Keras does: the result
    is 0-255, rescaled back to the input's range unless `scale` is False)."""
    from ..utils.image_utils import _pillow, array_to_img, img_to_array
    _pillow()  # the ImportError that names the `image` extra
    from PIL import ImageEnhance
    x_min, x_max = np.min(x), np.max(x)
    local_scale = (x_min < 0) or (x_max > 255)
    image = array_to_img(x, scale=local_scale or scale)
    image = ImageEnhance.Brightness(image).enhance(brightness)
    out = img_to_array(image)
    if not scale and local_scale:
        out = out / 255 * (x_max - x_min) + x_min
    return out


def random_brightness(x, brightness_range, scale=True):
    """apply_brightness_shift with a factor drawn uniformly from `brightness_range` = (lower, upper)."""
    if len(brightness_range) != 2:
        raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
    return apply_brightness_shift(x, np.random.uniform(brightness_range[0], brightness_range[1]), scale)
