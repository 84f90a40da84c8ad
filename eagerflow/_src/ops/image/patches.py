"""`tf.image.extract_patches`: ExtractImagePatches.

Every output cell (row r, column c) holds the ksize_rows x ksize_cols window whose top-left input
pixel is (r * stride - pad_top, c * stride - pad_left), sampled every `rate` pixels, flattened as
(window row, window column, channel); pixels in the SAME padding read as zero. One table of flat
input positions (-1 for padding), built from the static sizes, drives the kernel (a gather), the
JAX lowering (the same gather under XLA, which TensorFlow's XLA also compiles) and the gradient
(UnsortedSegmentSum of the incoming gradient over that table: the op is linear, so its gradient
is a scatter-add, and differentiable again).
"""
from __future__ import annotations

import functools

import numpy as np

from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop


def _check_attrs(ksizes, strides, rates, padding):
    for name, values in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
        if len(values) < 4:
            raise InvalidArgumentError(None, None, f"Length for attr '{name}' of {len(values)} must be at least "
                                                   f"minimum 4")
    for name, values in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
        if values[0] != 1 or values[3] != 1:
            raise UnimplementedError(None, None, f"Only support {name} across space.")
    if padding not in ("SAME", "VALID"):
        raise InvalidArgumentError(None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list of "
                                               f"allowed values: \"SAME\", \"VALID\"")


def _axis(size, k, stride, rate, padding):
    """(output size, pad before) along one axis, in TensorFlow's rule."""
    effective = (k - 1) * rate + 1
    if padding == "VALID":
        out = (size - effective + stride) // stride
        if out < 0:
            raise InvalidArgumentError(None, None, f"Computed output size would be negative: {out} [input_size: "
                                                   f"{size}, effective_filter_size: {effective}, stride: {stride}]")
        return out, 0
    out = (size + stride - 1) // stride
    return out, max((out - 1) * stride + effective - size, 0) // 2


@functools.lru_cache(maxsize=64)
def _positions(height, width, ksizes, strides, rates, padding):
    """[out_rows, out_cols, k_rows, k_cols] flat input positions (row * width + col), -1 in padding."""
    out_r, pad_t = _axis(height, ksizes[1], strides[1], rates[1], padding)
    out_c, pad_l = _axis(width, ksizes[2], strides[2], rates[2], padding)
    rows = (np.arange(out_r)[:, None] * strides[1] - pad_t + np.arange(ksizes[1])[None, :] * rates[1])
    cols = (np.arange(out_c)[:, None] * strides[2] - pad_l + np.arange(ksizes[2])[None, :] * rates[2])
    r = rows[:, None, :, None]
    c = cols[None, :, None, :]
    inside = (r >= 0) & (r < height) & (c >= 0) & (c < width)
    table = np.where(inside, r * width + c, -1).astype(np.int32)
    table.setflags(write=False)
    return table


def _table(images_shape, ksizes, strides, rates, padding):
    _check_attrs(ksizes, strides, rates, padding)
    return _positions(int(images_shape[1]), int(images_shape[2]), tuple(ksizes), tuple(strides), tuple(rates),
                      padding)


def _kernel(images, ksizes, strides, rates, padding):
    x = np.asarray(images)
    if x.ndim != 4:
        raise InvalidArgumentError(None, None, f"input must be 4-dimensional{list(x.shape)}")
    table = _table(x.shape, ksizes, strides, rates, padding)
    n, h, w, ch = x.shape
    flat = np.concatenate([x.reshape(n, h * w, ch), np.zeros((n, 1, ch), x.dtype)], axis=1)  # index -1: zero
    out_r, out_c, kr, kc = table.shape
    return flat[:, table.reshape(-1)].reshape(n, out_r, out_c, kr * kc * ch)


def _infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("ExtractImagePatches", x.dtype, R.REAL_NUMBERS, "images")
    ksizes, strides, rates, padding = attrs["ksizes"], attrs["strides"], attrs["rates"], attrs["padding"]
    _check_attrs(ksizes, strides, rates, padding)
    s = x.shape
    if s.rank is None:
        return [Spec(TensorShape([None] * 4), x.dtype)]
    if s.rank != 4:
        raise InvalidArgumentError(None, None, f"Shape must be rank 4 but is rank {s.rank}")
    dims = []
    for axis in (1, 2):
        dims.append(None if s[axis] is None else _axis(s[axis], ksizes[axis], strides[axis], rates[axis], padding)[0])
    depth = None if s[3] is None else s[3] * ksizes[1] * ksizes[2]
    return [Spec(TensorShape([s[0]] + dims + [depth]), x.dtype)]


def _grad(op, grad):
    """Scatter-add of the patches' gradient back onto the pixels they were read from."""
    from ..array import basic as A
    from ..math.segments import unsorted_segment_sum
    x = op.inputs[0]
    hw = x.shape.as_list()[1:3] if x.shape.rank == 4 else [None, None]
    if None in hw:
        raise ValueError("the gradient of extract_patches needs the image's height and width when tracing")
    height, width = hw
    table = _table([None, height, width, None], **{k: op.attrs[k] for k in ("ksizes", "strides", "rates", "padding")})
    shape = A.shape(x)
    batch, channels = shape[0:1], shape[3:4]
    from ..array.joining import concat
    cells = A.reshape(grad, concat([batch, as_tensor(np.array([table.size], np.int32)), channels], axis=0))
    cells = A.transpose(cells, [1, 0, 2])  # [cells, batch, channels]
    pixels = unsorted_segment_sum(cells, as_tensor(table.reshape(-1)), height * width)
    pixels = A.transpose(pixels, [1, 0, 2])
    return (A.reshape(pixels, shape),)


ExtractImagePatches = defop(
    "ExtractImagePatches", inputs=("images",), kernel=_kernel, infer=_infer, grad=_grad,
    doc="Patches of an NHWC image as the depth of each output cell.")


def _jax(images, ksizes, strides, rates, padding):
    from ..lazy_jax import jnp
    table = _table(images.shape, ksizes, strides, rates, padding)
    n, h, w, ch = images.shape
    flat = jnp.concatenate([jnp.reshape(images, (n, h * w, ch)), jnp.zeros((n, 1, ch), images.dtype)], axis=1)
    out_r, out_c, kr, kc = table.shape
    return jnp.reshape(flat[:, table.reshape(-1)], (n, out_r, out_c, kr * kc * ch))


ExtractImagePatches.jax = _jax


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """`tf.image.extract_patches`: [batch, out_rows, out_cols, size_rows * size_cols * depth]."""
    images = images if isinstance(images, Tensor) else as_tensor(images)
    return bind(ExtractImagePatches, (images,), {"ksizes": [int(v) for v in sizes], "strides": [int(v) for v in strides],
                                                 "rates": [int(v) for v in rates], "padding": padding})
