"""Image resizing (`tf.image.resize`): ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic, ResizeArea
and their gradients (ResizeArea has none, as in TensorFlow).

Every resize is separable, so each is written as two small per-axis matrices (resize_weights.py):
output = Wy @ image @ Wx^T over every (batch, channel) plane. Bilinear rows hold two interpolation
weights, nearest rows a single 1. The gradient is then exactly the transposed product, with no scatter.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop, static_value
from ..lazy_jax import jnp  # callables that import JAX on first use only
from .resize_weights import (_area_matrix, _bicubic_matrix, _bilinear_matrix, _nearest_matrix,
                             _triangle_matrices)

_F32 = np.float32


def _apply(images, wy, wx, dtype):
    """Wy @ plane @ Wx^T for every [batch, :, :, channel] plane of an NHWC array."""
    planes = np.moveaxis(images, 3, 1).astype(dtype, copy=False)  # N, C, H, W
    out = wy.astype(dtype) @ planes @ wx.T.astype(dtype)
    return np.ascontiguousarray(np.moveaxis(out, 1, 3))


def _out_hw(size):
    h, w = (int(v) for v in np.ravel(size))
    if h <= 0 or w <= 0:
        raise InvalidArgumentError(None, None, "output dimensions must be positive")
    return h, w


def _work_dtype(dtype):
    return np.float64 if dtype == np.float64 else np.float32


def _bilinear_kernel(images, size, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = images.shape[1:3], _out_hw(size)
    wy = _bilinear_matrix(h, oh, align_corners, half_pixel_centers)
    wx = _bilinear_matrix(w, ow, align_corners, half_pixel_centers)
    return _apply(images, wy, wx, _work_dtype(images.dtype)).astype(np.float32, copy=False)


def _bilinear_grad_kernel(grads, original, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = original.shape[1:3], grads.shape[1:3]
    wy = _bilinear_matrix(h, oh, align_corners, half_pixel_centers)
    wx = _bilinear_matrix(w, ow, align_corners, half_pixel_centers)
    return _apply(grads, wy.T, wx.T, _work_dtype(original.dtype)).astype(original.dtype, copy=False)


def _nearest_kernel(images, size, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = images.shape[1:3], _out_hw(size)
    rows = _nearest_matrix(h, oh, align_corners, half_pixel_centers).argmax(axis=1)
    cols = _nearest_matrix(w, ow, align_corners, half_pixel_centers).argmax(axis=1)
    return images[:, rows][:, :, cols]  # a gather: exact for every dtype


def _nearest_grad_kernel(grads, size, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = _out_hw(size), grads.shape[1:3]
    wy = _nearest_matrix(h, oh, align_corners, half_pixel_centers)
    wx = _nearest_matrix(w, ow, align_corners, half_pixel_centers)
    return _apply(grads, wy.T, wx.T, _work_dtype(grads.dtype)).astype(grads.dtype, copy=False)


def _size_dims(size_tensor):
    """The output's height and width when known; a negative one is left unknown, for the kernel to
    refuse (TensorFlow's graph shape function lets it through)."""
    value = static_value(size_tensor)
    return [None, None] if value is None else [int(v) if v >= 0 else None for v in np.ravel(value)]


def _resize_infer(op_name, out_dtype=None):
    def infer(inputs, attrs):
        images, size = inputs
        R.check_dtype_in(op_name, images.dtype, R.REAL_NUMBERS, "images")
        s = images.shape
        if s.rank is not None and s.rank != 4:
            raise InvalidArgumentError(None, None, f"input must be 4-dimensional{R.fmt_dims(s)}")
        n, c = (None, None) if s.rank is None else (s[0], s[3])
        hw = _size_dims(size)
        if any(d is not None and d <= 0 for d in hw):  # the kernel's check (a graph fails when it runs)
            R.refuse("output dimensions must be positive")
            hw = [None, None]
        return [Spec(TensorShape([n] + hw + [c]), out_dtype or images.dtype)]
    return infer


def _hw(t):
    """[height, width] of an NHWC tensor as int32: static when known (as TensorFlow's gradients do)."""
    dims = t.shape.as_list()[1:3] if t.shape.rank == 4 else [None]
    if None not in dims:
        return as_int_tensor(dims)
    return _array.shape(t)[1:3]


ResizeBilinearGrad = defop(
    "ResizeBilinearGrad", inputs=("grads", "original_image"), kernel=_bilinear_grad_kernel,
    infer=lambda inputs, attrs: [Spec(inputs[1].shape, inputs[1].dtype)],
    grad=lambda op, gg: (bind(ResizeBilinear, (gg, _hw(op.inputs[0])), op.attrs), None))
ResizeBilinear = defop(
    "ResizeBilinear", inputs=("images", "size"), kernel=_bilinear_kernel,
    infer=_resize_infer("ResizeBilinear", _dt.float32),
    grad=lambda op, g: (bind(ResizeBilinearGrad, (g, op.inputs[0]), op.attrs), None))


def _nearest_grad_infer(inputs, attrs):
    g = inputs[0].shape
    n, c = (None, None) if g.rank is None else (g[0], g[3])
    return [Spec(TensorShape([n] + _size_dims(inputs[1]) + [c]), inputs[0].dtype)]


ResizeNearestNeighborGrad = defop(
    "ResizeNearestNeighborGrad", inputs=("grads", "size"), kernel=_nearest_grad_kernel, infer=_nearest_grad_infer,
    grad=lambda op, gg: (bind(ResizeNearestNeighbor, (gg, _hw(op.inputs[0])), op.attrs), None))
ResizeNearestNeighbor = defop(
    "ResizeNearestNeighbor", inputs=("images", "size"), kernel=_nearest_kernel,
    infer=_resize_infer("ResizeNearestNeighbor"),
    grad=lambda op, g: (bind(ResizeNearestNeighborGrad, (g, _hw(op.inputs[0])), op.attrs), None))

def _matrix_kernel(matrix):
    def kernel(images, size, align_corners=False, half_pixel_centers=True):
        (h, w), (oh, ow) = images.shape[1:3], _out_hw(size)
        wy, wx = matrix(h, oh, align_corners, half_pixel_centers), matrix(w, ow, align_corners, half_pixel_centers)
        return _apply(images, wy, wx, _work_dtype(images.dtype)).astype(np.float32, copy=False)
    return kernel


def _matrix_grad_kernel(matrix):
    def kernel(grads, original, align_corners=False, half_pixel_centers=True):
        (h, w), (oh, ow) = original.shape[1:3], grads.shape[1:3]
        wy, wx = matrix(h, oh, align_corners, half_pixel_centers), matrix(w, ow, align_corners, half_pixel_centers)
        return _apply(grads, wy.T, wx.T, _work_dtype(original.dtype)).astype(original.dtype, copy=False)
    return kernel


def _matrix_resize_ops(name, matrix, doc):
    """A resize written as per-axis matrices and its gradient (the transposed matrices)."""
    grad_op = defop(
        f"{name}Grad", inputs=("grads", "original_image"), kernel=_matrix_grad_kernel(matrix),
        infer=lambda inputs, attrs: [Spec(inputs[1].shape, inputs[1].dtype)],
        grad=lambda op, gg: (bind(forward, (gg, _hw(op.inputs[0])), op.attrs), None))
    forward = defop(
        name, inputs=("images", "size"), kernel=_matrix_kernel(matrix), infer=_resize_infer(name, _dt.float32),
        grad=lambda op, g: (bind(grad_op, (g, op.inputs[0]), op.attrs), None), doc=doc)
    return forward, grad_op


ResizeBicubic, ResizeBicubicGrad = _matrix_resize_ops(
    "ResizeBicubic", _bicubic_matrix, "Bicubic resize (Keys, a = -0.5, half-pixel centers), float32 out.")
# TensorFlow registers no gradient for ResizeArea: differentiating through it is a LookupError, as there.
ResizeArea = defop(
    "ResizeArea", inputs=("images", "size"), kernel=_matrix_kernel(_area_matrix),
    infer=_resize_infer("ResizeArea", _dt.float32), grad=UNREGISTERED_GRADIENT,
    doc="Area-averaging resize, float32 out.")

# ScaleAndTranslate: what `resize(..., antialias=True)` runs. Each output cell averages the input
# under a triangle kernel widened by the downscaling factor (so no input cell is skipped), with the
# weights renormalised where the kernel leaves the image.


def _check_kernel_type(kernel_type):
    if kernel_type != "triangle":
        raise InvalidArgumentError(None, None, f"eagerflow implements kernel_type 'triangle' only, got "
                                               f"{kernel_type!r}")


def _scale_translate_kernel(images, size, scale, translation, kernel_type="triangle", antialias=True):
    _check_kernel_type(kernel_type)
    wy, wx = _triangle_matrices(images.shape[1:3], _out_hw(size), scale, translation, antialias)
    return _apply(images, wy, wx, _work_dtype(images.dtype)).astype(np.float32, copy=False)


def _scale_translate_grad_kernel(grads, original, scale, translation, kernel_type="triangle", antialias=True):
    _check_kernel_type(kernel_type)
    wy, wx = _triangle_matrices(original.shape[1:3], grads.shape[1:3], scale, translation, antialias)
    return _apply(grads, wy.T, wx.T, _work_dtype(original.dtype)).astype(original.dtype, copy=False)


ScaleAndTranslateGrad = defop(
    "ScaleAndTranslateGrad", inputs=("grads", "original_image", "scale", "translation"),
    kernel=_scale_translate_grad_kernel, infer=lambda inputs, attrs: [Spec(inputs[1].shape, inputs[1].dtype)],
    grad=lambda op, gg: (bind(ScaleAndTranslate, (gg, _hw(op.inputs[0]), *op.inputs[2:]), op.attrs),
                         None, None, None))
ScaleAndTranslate = defop(
    "ScaleAndTranslate", inputs=("images", "size", "scale", "translation"), kernel=_scale_translate_kernel,
    infer=lambda inputs, attrs: _resize_infer("ScaleAndTranslate", _dt.float32)(inputs[:2], attrs),
    grad=lambda op, g: (bind(ScaleAndTranslateGrad, (g, op.inputs[0], *op.inputs[2:]), op.attrs),
                        None, None, None))


def _antialiased(images, size):
    """resize(..., antialias=True): scale = new size / old size, no translation."""
    hw = _hw(images)
    scale = _math.cast(size, _dt.float32) / _math.cast(hw, _dt.float32)
    translation = as_tensor(np.zeros(2, np.float32))
    return bind(ScaleAndTranslate, (images, size, scale, translation), {"kernel_type": "triangle", "antialias": True})


# ----------------------------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------------------------


class ResizeMethod:
    """`tf.image.ResizeMethod`: the method names `resize` accepts."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_HALF_PIXEL = {"half_pixel_centers": True}


def _size_tensor(size):
    """`size` as an int32 [2] tensor: a list may mix Python ints and scalar tensors."""
    if isinstance(size, (list, tuple)):
        if len(size) != 2:
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        if any(isinstance(v, Tensor) or hasattr(type(v), "_as_tensor") for v in size):
            parts = [_math.cast(as_int_tensor(v), _dt.int32) for v in size]
            return _joining.stack(parts)
    t = as_int_tensor(size)
    if t.shape.rank is not None and (t.shape.rank != 1 or t.shape[0] not in (None, 2)):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if t.dtype is not _dt.int32:
        t = _math.cast(t, _dt.int32)
    return t


def _aspect_preserving_size(images, size):
    """The largest size within `size` that keeps the input's aspect ratio (TensorFlow rounds
    scale * dim half-to-even in float32)."""
    value = static_value(size)
    h, w = images.shape[1], images.shape[2]
    if value is None or h is None or w is None:
        raise ValueError("preserve_aspect_ratio=True needs static image and target sizes in eagerflow")
    nh, nw = (int(v) for v in np.ravel(value))
    factor = min(_F32(nh) / _F32(h), _F32(nw) / _F32(w))
    return as_int_tensor([int(np.round(_F32(factor) * _F32(h))), int(np.round(_F32(factor) * _F32(w)))])


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    """`tf.image.resize` for [N, H, W, C] or [H, W, C] images. Bilinear output is float32 (as in
    TensorFlow); nearest keeps the input dtype."""
    images = images if isinstance(images, Tensor) else as_tensor(images)
    rank = images.shape.rank
    if rank not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    if rank == 3:
        images = _array.expand_dims(images, 0)  # (not a reshape: height and width may both be unknown)
    size = _size_tensor(size)
    if preserve_aspect_ratio:
        size = _aspect_preserving_size(images, size)
    method = str(method).lower()
    if method == ResizeMethod.BILINEAR:
        out = _antialiased(images, size) if antialias else bind(ResizeBilinear, (images, size), _HALF_PIXEL)
    elif method == ResizeMethod.NEAREST_NEIGHBOR:
        out = bind(ResizeNearestNeighbor, (images, size), _HALF_PIXEL)
    elif method == ResizeMethod.BICUBIC and not antialias:
        out = bind(ResizeBicubic, (images, size), _HALF_PIXEL)
    elif method == ResizeMethod.AREA:
        out = bind(ResizeArea, (images, size), {})
    elif method in vars(ResizeMethod).values():
        raise NotImplementedError(f"tf.image.resize(method={method!r}) is not implemented in eagerflow")
    else:
        raise ValueError(f"Resize method is not implemented: {method}")
    if rank == 3:
        out = _array.squeeze(out, [0])
    return out


# --- JAX lowerings (jit_compile=True, codegen/xla.py): the kernels' own weight matrices (built with
# NumPy from the static sizes: XLA needs them known, as TensorFlow's XLA does) applied by XLA, so
# the numbers are the kernels' (align_corners/half_pixel_centers included), not jax.image.resize's. ---


def _jax_apply(images, wy, wx, dtype):
    planes = jnp.moveaxis(images, 3, 1).astype(dtype)  # N, C, H, W
    return jnp.moveaxis(jnp.asarray(wy, dtype) @ planes @ jnp.asarray(wx.T, dtype), 1, 3)


def _jax_bilinear(images, size, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = images.shape[1:3], _out_hw(size)
    wy = _bilinear_matrix(h, oh, align_corners, half_pixel_centers)
    wx = _bilinear_matrix(w, ow, align_corners, half_pixel_centers)
    return _jax_apply(images, wy, wx, _work_dtype(images.dtype)).astype(np.float32)


def _jax_bilinear_grad(grads, original, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = original.shape[1:3], grads.shape[1:3]
    wy = _bilinear_matrix(h, oh, align_corners, half_pixel_centers)
    wx = _bilinear_matrix(w, ow, align_corners, half_pixel_centers)
    return _jax_apply(grads, wy.T, wx.T, _work_dtype(original.dtype)).astype(original.dtype)


def _jax_nearest(images, size, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = images.shape[1:3], _out_hw(size)
    rows = _nearest_matrix(h, oh, align_corners, half_pixel_centers).argmax(axis=1)
    cols = _nearest_matrix(w, ow, align_corners, half_pixel_centers).argmax(axis=1)
    return jnp.asarray(images)[:, rows][:, :, cols]


def _jax_nearest_grad(grads, size, align_corners=False, half_pixel_centers=True):
    (h, w), (oh, ow) = _out_hw(size), grads.shape[1:3]
    wy = _nearest_matrix(h, oh, align_corners, half_pixel_centers)
    wx = _nearest_matrix(w, ow, align_corners, half_pixel_centers)
    return _jax_apply(grads, wy.T, wx.T, _work_dtype(grads.dtype)).astype(grads.dtype)


def _jax_scale_translate(images, size, scale, translation, kernel_type="triangle", antialias=True):
    _check_kernel_type(kernel_type)
    wy, wx = _triangle_matrices(images.shape[1:3], _out_hw(size), scale, translation, antialias)
    return _jax_apply(images, wy, wx, _work_dtype(images.dtype)).astype(np.float32)


def _jax_scale_translate_grad(grads, original, scale, translation, kernel_type="triangle", antialias=True):
    _check_kernel_type(kernel_type)
    wy, wx = _triangle_matrices(original.shape[1:3], grads.shape[1:3], scale, translation, antialias)
    return _jax_apply(grads, wy.T, wx.T, _work_dtype(original.dtype)).astype(original.dtype)


ResizeBilinear.jax = _jax_bilinear
ResizeBilinearGrad.jax = _jax_bilinear_grad
ResizeNearestNeighbor.jax = _jax_nearest
ResizeNearestNeighborGrad.jax = _jax_nearest_grad
ScaleAndTranslate.jax = _jax_scale_translate
ScaleAndTranslateGrad.jax = _jax_scale_translate_grad


def _jax_matrix(matrix):
    def lower(images, size, align_corners=False, half_pixel_centers=True):
        (h, w), (oh, ow) = images.shape[1:3], _out_hw(size)
        wy, wx = matrix(h, oh, align_corners, half_pixel_centers), matrix(w, ow, align_corners, half_pixel_centers)
        return _jax_apply(images, wy, wx, _work_dtype(images.dtype)).astype(np.float32)
    return lower


def _jax_matrix_grad(matrix):
    def lower(grads, original, align_corners=False, half_pixel_centers=True):
        (h, w), (oh, ow) = original.shape[1:3], grads.shape[1:3]
        wy, wx = matrix(h, oh, align_corners, half_pixel_centers), matrix(w, ow, align_corners, half_pixel_centers)
        return _jax_apply(grads, wy.T, wx.T, _work_dtype(original.dtype)).astype(original.dtype)
    return lower


ResizeBicubic.jax = _jax_matrix(_bicubic_matrix)
ResizeBicubicGrad.jax = _jax_matrix_grad(_bicubic_matrix)
ResizeArea.jax = _jax_matrix(_area_matrix)
