"""`tf.nn.max_pool_with_argmax`: 2-D max pooling (NHWC) that also returns where each maximum came from
(ops MaxPoolWithArgmax and its gradient MaxPoolGradWithArgmax).

Each output cell's argmax is the flat index of the input cell it took, `(y * width + x) * channels + c`,
or `((b * height + y) * width + x) * channels + c` with include_batch_in_index. The cell is the one
TensorFlow's CPU kernel picks (pooling.py's `_argmax_in_window`: the first maximum of the window's real
cells; a window whose first cell is NaN keeps it), and the output is that cell's value, so unlike
MaxPool a NaN there is the output. The gradient adds each output's gradient into the input cell its
argmax names. TensorFlow registers no gradient for the gradient op: differentiating twice is its
LookupError.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop
from .pooling import _argmax_in_window
from .windows import check_attr_choice, check_positive_ksize, check_positive_strides, four, spatial_infer

_ARGMAX_TYPES = (_dt.int32, _dt.int64)


def _flat_argmax(x, attrs):
    """(the input cell of each output cell as flat indices into one batch element, the batch index)."""
    offset, geo, k = _argmax_in_window(x, attrs)
    n, oh, ow, c = offset.shape
    stride_h, stride_w = attrs["strides"][1], attrs["strides"][2]
    row = (np.arange(oh) * stride_h - geo[0][1])[None, :, None, None] + offset // k[1]
    col = (np.arange(ow) * stride_w - geo[1][1])[None, None, :, None] + offset % k[1]
    height, width = x.shape[1], x.shape[2]
    within = (row * width + col) * c + np.arange(c)[None, None, None, :]
    batch = np.broadcast_to(np.arange(n)[:, None, None, None], within.shape)
    return within, batch


def _kernel(x, ksize, strides, padding, Targmax=_dt.int64, include_batch_in_index=False):  # noqa: N803
    """(Its attributes are named, with TensorFlow's defaults, so a loaded node that leaves them out works.)"""
    attrs = {"ksize": ksize, "strides": strides, "padding": padding}
    check_positive_ksize(attrs)
    within, batch = _flat_argmax(x, attrs)
    per_batch = int(np.prod(x.shape[1:]))
    output = x.reshape(x.shape[0], per_batch)[batch, within]
    argmax = within + batch * per_batch if include_batch_in_index else within
    return output, argmax.astype(_dt.as_dtype(Targmax).np_dtype)


def _grad_kernel(x, grad, argmax, ksize, strides, padding, include_batch_in_index=False):
    """Each output's gradient added into the input cell its argmax names (an index within the batch
    element, or within the whole input with include_batch_in_index)."""
    per_batch = int(np.prod(x.shape[1:]))
    index = argmax.astype(np.int64)
    if not include_batch_in_index:
        index = index + (np.arange(x.shape[0]) * per_batch)[:, None, None, None]
    out = np.zeros(x.size, dtype=grad.dtype)
    np.add.at(out, index.reshape(-1), grad.reshape(-1))
    return out.reshape(x.shape).astype(x.dtype, copy=False)


def _check_window(attrs):
    ksize, strides = attrs["ksize"], attrs["strides"]
    if ksize[0] != 1 or strides[0] != 1:
        raise UnimplementedError(None, None, "Pooling is not yet supported on the batch dimension.")
    if ksize[3] != 1 or strides[3] != 1:
        raise UnimplementedError(None, None, "MaxPooling supports exactly one of pooling across depth or pooling "
                                             "across width/height.")
    bad = [v for v in ksize if v <= 0]
    if bad:
        raise InvalidArgumentError(None, None, f"ksize must be a positive int32 value, got:{bad[0]}")
    check_positive_strides(attrs)


def _infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("MaxPoolWithArgmax", x.dtype, R.REAL_NUMBERS, "input")
    argmax_type = _dt.as_dtype(attrs.get("Targmax", _dt.int64))
    R.check_dtype_in("MaxPoolWithArgmax", argmax_type, _ARGMAX_TYPES, "input", attr="Targmax")
    check_attr_choice("MaxPoolWithArgmax", "padding", attrs["padding"], ("SAME", "VALID"))
    if x.shape.rank is not None and x.shape.rank != 4:
        raise InvalidArgumentError(None, None, "tensor_in must be 4-dimensional")
    _check_window(attrs)
    shape = TensorShape([None] * 4) if x.shape.rank is None else \
        TensorShape(spatial_infer(list(x.shape), (attrs["ksize"][1], attrs["ksize"][2]), attrs) + [x.shape[3]])
    return [Spec(shape, x.dtype), Spec(shape, argmax_type)]


def _grad(op, g_output, g_argmax):
    if g_output is None:
        return (None,)
    return bind(MaxPoolGradWithArgmax, (op.inputs[0], g_output, op.outputs[1]), _grad_attrs(op.attrs))


def _grad_attrs(attrs):
    return {key: attrs[key] for key in ("ksize", "strides", "padding", "include_batch_in_index") if key in attrs}


def _grad_infer(inputs, attrs):
    R.check_dtype_in("MaxPoolGradWithArgmax", inputs[0].dtype, R.REAL_NUMBERS, "input")
    return [Spec(inputs[0].shape, inputs[0].dtype)]


MaxPoolWithArgmax = defop("MaxPoolWithArgmax", inputs=("input",), kernel=_kernel, infer=_infer, grad=_grad,
                          multi_output=True)
MaxPoolGradWithArgmax = defop("MaxPoolGradWithArgmax", inputs=("input", "grad", "argmax"), kernel=_grad_kernel,
                              infer=_grad_infer, grad=UNREGISTERED_GRADIENT)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", output_dtype=_dt.int64,  # noqa: A002
                         include_batch_in_index=False, name=None):
    """`tf.nn.max_pool_with_argmax` (TensorFlow 2's): (the max-pooled input, the flat index of each maximum)."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    x = input if isinstance(input, Tensor) else as_tensor(input)
    attrs = {"ksize": four(ksize, "ksize"), "strides": four(strides, "strides"), "padding": padding,
             "Targmax": _dt.as_dtype(output_dtype), "include_batch_in_index": bool(include_batch_in_index)}
    output, argmax = bind(MaxPoolWithArgmax, (x,), attrs)
    return output, argmax
