"""`tf.image.crop_and_resize`: CropAndResize and its two gradients, CropAndResizeGradImage and
CropAndResizeGradBoxes.

Each box (y1, x1, y2, x2, normalised so that 0 and 1 are the first and last pixel centres) is
sampled on a crop_height x crop_width grid: row y sits at y1 * (H - 1) + y * (y2 - y1) * (H - 1) /
(crop_height - 1) (the box centre for a one-row crop), computed in float32 as TensorFlow does.
Samples outside the image take `extrapolation_value`. "bilinear" mixes the four neighbours,
"nearest" takes the rounded position (halves away from zero).

The image gradient scatters each output gradient back with the same weights. The box gradient is
TensorFlow's: the bilinear image slope at each sample times d(position)/d(corner), for either
method. TensorFlow's XLA does not compile these ops, so they have no JAX lowering (jit refuses them).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, OutOfRangeError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop, static_value

_F = np.float32
_IMAGE_TYPES = (_dt.uint8, _dt.uint16, _dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.float16, _dt.float32,
                _dt.float64)


def _check(image_shape, boxes, box_index, crop_size=None):
    if len(image_shape) != 4:
        raise InvalidArgumentError(None, None, f"input image must be 4-D[{','.join(map(str, image_shape))}]")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise InvalidArgumentError(None, None, "boxes must have 4 columns")
    if box_index.ndim != 1 or box_index.shape[0] != boxes.shape[0]:
        raise InvalidArgumentError(None, None, "box_index has incompatible shape")
    if crop_size is not None and (crop_size[0] <= 0 or crop_size[1] <= 0):
        raise InvalidArgumentError(None, None, "crop dimensions must be positive")
    if np.any((box_index < 0) | (box_index >= image_shape[0])):
        raise OutOfRangeError(None, None, "box_index has values outside [0, batch_size)")


def _positions(lo, hi, size, extent):
    """Sample positions along one axis (float32, TensorFlow's order of operations)."""
    if size > 1:
        scale = (hi - lo) * _F(extent - 1) / _F(size - 1)
        return _F(lo) * _F(extent - 1) + np.arange(size, dtype=_F) * _F(scale)
    return np.array([_F(0.5) * (_F(lo) + _F(hi)) * _F(extent - 1)], _F)


def _axis(lo, hi, size, extent):
    """(positions, inside mask, lower index, upper index, fraction, rounded index) along one axis."""
    pos = _positions(lo, hi, size, extent).astype(_F)
    inside = (pos >= 0) & (pos <= extent - 1)
    safe = np.where(inside, pos, _F(0))
    low = np.floor(safe).astype(np.int64)
    high = np.ceil(safe).astype(np.int64)
    frac = (safe - low.astype(_F)).astype(_F)
    nearest = np.floor(np.abs(safe) + _F(0.5)).astype(np.int64)  # roundf: halves away from zero (safe >= 0)
    return pos, inside, low, high, frac, nearest


def _crop_kernel(image, boxes, box_index, crop_size, method="bilinear", extrapolation_value=0.0):
    image, boxes, box_index = np.asarray(image), np.asarray(boxes, _F), np.asarray(box_index)
    ch, cw = (int(v) for v in np.ravel(crop_size))
    _check(image.shape, boxes, box_index, (ch, cw))
    _, height, width, depth = image.shape
    out = np.full((boxes.shape[0], ch, cw, depth), _F(extrapolation_value), _F)
    for b, (y1, x1, y2, x2) in enumerate(boxes):
        plane = image[box_index[b]].astype(_F)
        _, in_y, top, bottom, y_frac, y_near = _axis(y1, y2, ch, height)
        _, in_x, left, right, x_frac, x_near = _axis(x1, x2, cw, width)
        inside = in_y[:, None] & in_x[None, :]
        if method == "nearest":
            value = plane[y_near[:, None], x_near[None, :]]
        else:
            xf, yf = x_frac[None, :, None], y_frac[:, None, None]
            tl, tr = plane[top[:, None], left[None, :]], plane[top[:, None], right[None, :]]
            bl, br = plane[bottom[:, None], left[None, :]], plane[bottom[:, None], right[None, :]]
            upper = tl + (tr - tl) * xf
            lower = bl + (br - bl) * xf
            value = upper + (lower - upper) * yf
        out[b] = np.where(inside[:, :, None], value, out[b])
    return out


def _grad_image_kernel(grads, boxes, box_index, image_size, T=_dt.float32, method="bilinear"):
    grads, boxes, box_index = np.asarray(grads, _F), np.asarray(boxes, _F), np.asarray(box_index)
    size = [int(v) for v in np.ravel(image_size)]
    if len(size) != 4:
        raise InvalidArgumentError(None, None, "image_size must be 1-D with 4 elements")
    _check(size, boxes, box_index)
    batch, height, width, depth = size
    out = np.zeros((batch, height, width, depth), _F)
    _, ch, cw, _ = grads.shape
    for b, (y1, x1, y2, x2) in enumerate(boxes):
        plane = out[box_index[b]]
        _, in_y, top, bottom, y_frac, y_near = _axis(y1, y2, ch, height)
        _, in_x, left, right, x_frac, x_near = _axis(x1, x2, cw, width)
        ys, xs = np.nonzero(in_y[:, None] & in_x[None, :])
        g = grads[b, ys, xs]  # [samples, depth]
        if method == "nearest":
            np.add.at(plane, (y_near[ys], x_near[xs]), g)
            continue
        yf, xf = y_frac[ys][:, None], x_frac[xs][:, None]
        d_top, d_bottom = (_F(1) - yf) * g, yf * g
        np.add.at(plane, (top[ys], left[xs]), (_F(1) - xf) * d_top)
        np.add.at(plane, (top[ys], right[xs]), xf * d_top)
        np.add.at(plane, (bottom[ys], left[xs]), (_F(1) - xf) * d_bottom)
        np.add.at(plane, (bottom[ys], right[xs]), xf * d_bottom)
    return out.astype(_dt.as_dtype(T).np_dtype, copy=False)


def _grad_boxes_kernel(grads, image, boxes, box_index, method="bilinear"):
    grads, image, boxes, box_index = np.asarray(grads, _F), np.asarray(image), np.asarray(boxes, _F), np.asarray(box_index)
    _check(image.shape, boxes, box_index)
    _, height, width, _ = image.shape
    _, ch, cw, _ = grads.shape
    out = np.zeros(boxes.shape, _F)
    h_ratio = _F(height - 1) / _F(ch - 1) if ch > 1 else _F(0)
    w_ratio = _F(width - 1) / _F(cw - 1) if cw > 1 else _F(0)
    for b, (y1, x1, y2, x2) in enumerate(boxes):
        plane = image[box_index[b]].astype(_F)
        _, in_y, top, bottom, y_frac, _ = _axis(y1, y2, ch, height)
        _, in_x, left, right, x_frac, _ = _axis(x1, x2, cw, width)
        ys, xs = np.nonzero(in_y[:, None] & in_x[None, :])
        yf, xf = y_frac[ys][:, None], x_frac[xs][:, None]
        tl, tr = plane[top[ys], left[xs]], plane[top[ys], right[xs]]
        bl, br = plane[bottom[ys], left[xs]], plane[bottom[ys], right[xs]]
        g = grads[b, ys, xs]
        slope_y = ((_F(1) - xf) * (bl - tl) + xf * (br - tr)) * g
        slope_x = ((_F(1) - yf) * (tr - tl) + yf * (br - bl)) * g
        yv, xv = ys.astype(_F)[:, None], xs.astype(_F)[:, None]
        if ch > 1:
            dy1, dy2 = slope_y * (_F(height - 1) - yv * h_ratio), slope_y * (yv * h_ratio)
        else:
            dy1 = dy2 = slope_y * _F(0.5) * _F(height - 1)
        if cw > 1:
            dx1, dx2 = slope_x * (_F(width - 1) - xv * w_ratio), slope_x * (xv * w_ratio)
        else:
            dx1 = dx2 = slope_x * _F(0.5) * _F(width - 1)
        out[b] = [dy1.sum(dtype=_F), dx1.sum(dtype=_F), dy2.sum(dtype=_F), dx2.sum(dtype=_F)]
    return out


def _check_method(op_name, method):
    if method not in ("bilinear", "nearest"):
        raise InvalidArgumentError(None, None, f"Value for attr 'method' of \"{method}\" is not in the list of "
                                               f"allowed values: \"bilinear\", \"nearest\"")


def _crop_infer(inputs, attrs):
    image, boxes, box_index, crop_size = inputs
    R.check_dtype_in("CropAndResize", image.dtype, _IMAGE_TYPES, "image")
    _check_method("CropAndResize", attrs.get("method", "bilinear"))
    s = image.shape
    if s.rank is not None and s.rank != 4:
        raise InvalidArgumentError(None, None, f"input image must be 4-D{R.fmt_dims(s)}")
    size = static_value(crop_size)
    dims = [None, None] if size is None else [int(v) for v in np.ravel(size)]
    n = boxes.shape[0] if boxes.shape.rank is not None else None
    depth = s[3] if s.rank is not None else None
    return [Spec(TensorShape([n] + dims + [depth]), _dt.float32)]


def _grad_image_infer(inputs, attrs):
    size = static_value(inputs[3])
    shape = TensorShape([int(v) for v in np.ravel(size)] if size is not None else [None] * 4)
    return [Spec(shape, _dt.as_dtype(attrs.get("T", _dt.float32)))]


def _crop_grad(op, grad):
    image, boxes, box_index = op.inputs[0], op.inputs[1], op.inputs[2]
    method = op.attrs.get("method", "bilinear")
    grad_image = None
    if image.dtype in (_dt.float16, _dt.float32, _dt.float64):
        size = as_int_tensor(image.shape.as_list()) if image.shape.is_fully_defined() else _shape(image)
        grad_image = bind(CropAndResizeGradImage, (grad, boxes, box_index, size), {"T": image.dtype, "method": method})
    grad_boxes = bind(CropAndResizeGradBoxes, (grad, image, boxes, box_index), {"method": method})
    return grad_image, grad_boxes, None, None


def _shape(t):
    from ..array.basic import shape
    return shape(t)


CropAndResizeGradImage = defop(
    "CropAndResizeGradImage", inputs=("grads", "boxes", "box_ind", "image_size"), kernel=_grad_image_kernel,
    infer=_grad_image_infer, grad=UNREGISTERED_GRADIENT, doc="The gradient of CropAndResize wrt its image.")
CropAndResizeGradBoxes = defop(
    "CropAndResizeGradBoxes", inputs=("grads", "image", "boxes", "box_ind"), kernel=_grad_boxes_kernel,
    infer=lambda inputs, attrs: [Spec(inputs[2].shape, _dt.float32)], grad=UNREGISTERED_GRADIENT,
    doc="The gradient of CropAndResize wrt its boxes (the bilinear slope, for either method).")
CropAndResize = defop(
    "CropAndResize", inputs=("image", "boxes", "box_ind", "crop_size"), kernel=_crop_kernel, infer=_crop_infer,
    grad=_crop_grad, doc="Crops boxes out of a batch of images and resizes each to crop_size; float32 out.")


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0, name=None):
    """`tf.image.crop_and_resize`: [num_boxes, crop_height, crop_width, depth] float32 crops."""
    image = image if isinstance(image, Tensor) else as_tensor(image)
    boxes = as_tensor(boxes, _dt.float32) if not isinstance(boxes, Tensor) else boxes
    box_indices = as_int_tensor(box_indices) if not isinstance(box_indices, Tensor) else box_indices
    crop_size = as_int_tensor(crop_size) if not isinstance(crop_size, Tensor) else crop_size
    return bind(CropAndResize, (image, boxes, box_indices, crop_size),
                {"method": method, "extrapolation_value": float(extrapolation_value)})
