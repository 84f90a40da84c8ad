"""3-D convolution and max pooling (NDHWC): Conv3D and its two backprop ops (`tf.nn.conv3d`), MaxPool3D
and its gradients (`tf.nn.max_pool3d`).

As in 2-D (ops/nn/conv.py, ops/nn/windows.py), kernels work on windows: the padded input is viewed as
[N, OD, OH, OW, KD, KH, KW, C] without a copy, a convolution is one matmul over those windows, and
every gradient scatters window values back with one strided slice per window offset. Filters are
[KD, KH, KW, C, O]. What TensorFlow does, restated: padding is "SAME" or "VALID" (no explicit
padding in 3-D), strides are a list of 5 with 1 for batch and channels, and MaxPool3DGrad gives an
output's whole gradient to every input of its window equal to the maximum (ties included), unlike
2-D max pooling, which picks the first.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from ..array import basic as _array
from .. import shape_rules as R
from ..operands import as_tensor, binary_operands
from ..registry import Spec, bind, defop
from .window_matmul import rows_matmul, windows_gram, windows_matmul
from .windows import (check_attr_choice, check_dilations, check_format, check_positive_ksize, max_pool_floor, nan_as_floor,
                      check_positive_strides, check_window_fits, four, out_size, static_sizes)

_SPATIAL = 3


def _geometry(in_dhw, k_dhw, attrs):
    """[(out, pad before, pad after)] per spatial dimension."""
    dil = attrs.get("dilations", (1,) * 5)
    return [out_size(in_dhw[i], k_dhw[i], attrs["strides"][i + 1], dil[i + 1], attrs["padding"])
            for i in range(len(in_dhw))]


def _pad(x, geo, value=0):
    widths = [(0, 0)] + [(b, a) for _, b, a in geo] + [(0, 0)]
    return np.pad(x, widths, constant_values=value) if any(b or a for _, b, a in geo) else x


def _windows(xp, geo, k, attrs):
    """View of the padded input as [N, OD, OH, OW, KD, KH, KW, C] (no copy)."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1,) * 5)
    step = xp.strides
    shape = (xp.shape[0],) + tuple(g[0] for g in geo) + tuple(k) + (xp.shape[4],)
    st = ((step[0],) + tuple(step[i + 1] * strides[i + 1] for i in range(_SPATIAL))
          + tuple(step[i + 1] * dil[i + 1] for i in range(_SPATIAL)) + (step[4],))
    return np.lib.stride_tricks.as_strided(xp, shape, st, writeable=False)


def _scatter(cols, in_shape, geo, k, attrs):
    """Adjoint of `_windows` then cropping: adds each window value back where it was read."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1,) * 5)
    padded = (in_shape[0],) + tuple(in_shape[i + 1] + geo[i][1] + geo[i][2] for i in range(_SPATIAL)) + (in_shape[4],)
    out = np.zeros(padded, dtype=cols.dtype)
    for offset in np.ndindex(*k):
        where = tuple(slice(o * dil[i + 1], o * dil[i + 1] + strides[i + 1] * (geo[i][0] - 1) + 1, strides[i + 1])
                      for i, o in enumerate(offset))
        out[(slice(None),) + where] += cols[(slice(None),) * 4 + offset]
    return out[(slice(None),) + tuple(slice(g[1], g[1] + in_shape[i + 1]) for i, g in enumerate(geo))]


# --- Conv3D ------------------------------------------------------------------------------------------

def _check_depth(c, fc):
    if c != fc:
        raise InvalidArgumentError(None, None, f"input and filter must have the same depth: {c} vs {fc}")


def _conv_kernel(x, f, **attrs):
    _check_depth(x.shape[4], f.shape[3])
    k, o = f.shape[:3], f.shape[4]
    geo = _geometry(x.shape[1:4], k, attrs)
    win = _windows(_pad(x, geo), geo, k, attrs)
    return windows_matmul(win, f.reshape(-1, o), 4).astype(x.dtype, copy=False)  # row blocks: window_matmul.py


def _backprop_input_kernel(input_sizes, f, dy, **attrs):
    in_shape = tuple(int(d) for d in input_sizes)
    k, o = f.shape[:3], f.shape[4]
    geo = _geometry(in_shape[1:4], k, attrs)
    cols = rows_matmul(dy.reshape(-1, o), f.reshape(-1, o).T).reshape(dy.shape[:4] + tuple(k) + (f.shape[3],))
    return _scatter(cols, in_shape, geo, k, attrs).astype(dy.dtype, copy=False)


def _backprop_filter_kernel(x, filter_sizes, dy, **attrs):
    sizes = tuple(int(d) for d in filter_sizes)
    geo = _geometry(x.shape[1:4], sizes[:3], attrs)
    win = _windows(_pad(x, geo), geo, sizes[:3], attrs)
    return windows_gram(win, dy, 4).reshape(sizes).astype(x.dtype, copy=False)


def _check_strides(attrs, what="strides"):
    s = attrs[what]
    if s[0] != 1 or s[4] != 1:
        raise UnimplementedError(None, None, "Current implementation does not yet support strides in the batch "
                                             "and depth dimensions.")


def _conv_infer(inputs, attrs):
    x, f = inputs
    R.check_same_dtype("Conv3D", inputs)
    R.check_dtype_in("Conv3D", x.dtype, R.FLOATS, "input")
    for what, shape in (("input", x.shape), ("filter", f.shape)):
        if shape.rank is not None and shape.rank != 5:
            raise InvalidArgumentError(None, None, R.rank_message(shape.rank, f"{what} must be 5-dimensional",
                                                                  expected=5))
    _check_strides(attrs)
    check_positive_strides(attrs)
    graph = R.graph_shape_check(inputs)
    check_dilations(attrs, graph)
    if x.shape.rank is None:
        return [Spec(TensorShape([None] * 5), x.dtype)]
    fdims = [None] * 5 if f.shape.rank is None else list(f.shape)
    if x.shape[4] is not None and fdims[3] is not None:
        _check_depth(x.shape[4], fdims[3])
    in_dhw = list(x.shape)[1:4]
    if graph:
        check_window_fits(in_dhw, fdims[:3], attrs)
    dims = [None if s is None or k is None else _geometry([s], [k], _one_dim(attrs, i))[0][0]
            for i, (s, k) in enumerate(zip(in_dhw, fdims[:3]))]
    return [Spec(TensorShape([x.shape[0]] + dims + [fdims[4]]), x.dtype)]


def _one_dim(attrs, i):
    """attrs reduced to spatial dimension i (for one output size)."""
    dil = attrs.get("dilations", (1,) * 5)
    return {"strides": [1, attrs["strides"][i + 1]], "dilations": [1, dil[i + 1]], "padding": attrs["padding"]}


def _sizes_infer(sizes_index, dtype_index):
    return lambda inputs, attrs: [Spec(TensorShape(static_sizes(inputs[sizes_index], 5)),
                                       inputs[dtype_index].dtype)]


def _conv_grad(op, g):
    x, f = op.inputs
    return (bind(Conv3DBackpropInputV2, (_array.shape(x), f, g), op.attrs),
            bind(Conv3DBackpropFilterV2, (x, _array.shape(f), g), op.attrs))


def _backprop_input_grad(op, g):
    _, f, dy = op.inputs
    return (None, bind(Conv3DBackpropFilterV2, (g, _array.shape(f), dy), op.attrs), bind(Conv3D, (g, f), op.attrs))


def _backprop_filter_grad(op, g):
    x, _, dy = op.inputs
    return (bind(Conv3DBackpropInputV2, (_array.shape(x), g, dy), op.attrs), None, bind(Conv3D, (x, g), op.attrs))


Conv3D = defop("Conv3D", inputs=("input", "filter"), kernel=_conv_kernel, infer=_conv_infer, grad=_conv_grad)
Conv3DBackpropInputV2 = defop("Conv3DBackpropInputV2", inputs=("input_sizes", "filter", "out_backprop"),
                              kernel=_backprop_input_kernel, infer=_sizes_infer(0, 2), grad=_backprop_input_grad)
Conv3DBackpropFilterV2 = defop("Conv3DBackpropFilterV2", inputs=("input", "filter_sizes", "out_backprop"),
                               kernel=_backprop_filter_kernel, infer=_sizes_infer(1, 0),
                               grad=_backprop_filter_grad)


def _five(value, name, op_name):
    """A list attribute of 5 ints, refused as TensorFlow refuses it (conv3d takes no int)."""
    if isinstance(value, (int, np.integer)):
        raise TypeError(f"Expected list for '{name}' argument to 'conv3d' Op, not {value}.")
    value = [int(v) for v in value]
    if len(value) < 5:
        if state.graph is not None:
            raise ValueError(f"Attr '{name}' of '{op_name}' Op with length {len(value)} shorter than minimum "
                             f"length 5.")
        raise InvalidArgumentError(None, None, f"Length for attr '{name}' of {len(value)} must be at least minimum 5")
    return value


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    """`tf.nn.conv3d`: NDHWC input, [KD, KH, KW, C, O] filters, strides a list of 5."""
    check_format(data_format, "Conv3D", ("NDHWC", "NCDHW"))
    x, f = binary_operands(input, filters, "Conv3D")
    check_attr_choice("Conv3D", "padding", padding, ("SAME", "VALID"))
    attrs = {"strides": _five(strides, "strides", "Conv3D"), "padding": padding,
             "dilations": [1] * 5 if dilations is None else _five(dilations, "dilations", "Conv3D")}
    return bind(Conv3D, (x, f), attrs, name)


# --- MaxPool3D ---------------------------------------------------------------------------------------

def _pool_windows(x, attrs, fill):
    k = attrs["ksize"][1:4]
    geo = _geometry(x.shape[1:4], k, attrs)
    return _windows(_pad(x, geo, fill), geo, k, attrs), geo, k


def _max_pool_kernel(x, **attrs):
    check_positive_ksize(attrs)
    win, _, _ = _pool_windows(nan_as_floor(x), attrs, max_pool_floor(x.dtype))  # NaN skipped, as in TF
    return np.maximum(win.max(axis=(4, 5, 6)), max_pool_floor(x.dtype))


def _max_pool_grad_kernel(x, y, g, **attrs):
    """Every input equal to its window's maximum receives that output's whole gradient (NaN cells, and
    the cells of a window with no finite maximum, equal nothing and receive none)."""
    win, geo, k = _pool_windows(x, attrs, max_pool_floor(x.dtype))
    hits = win == y[:, :, :, :, None, None, None, :]
    cols = np.where(hits, g[:, :, :, :, None, None, None, :], 0).astype(g.dtype)
    return _scatter(cols, x.shape, geo, k, attrs).astype(x.dtype, copy=False)


def _max_pool_grad_grad_kernel(x, y, gg, **attrs):
    """The adjoint of MaxPool3DGrad's routing: per output, the sum of `gg` over its window's maxima."""
    win, geo, k = _pool_windows(x, attrs, max_pool_floor(x.dtype))
    hits = win == y[:, :, :, :, None, None, None, :]
    gg_win = _windows(_pad(gg, geo), geo, k, attrs)
    return np.where(hits, gg_win, 0).sum(axis=(4, 5, 6)).astype(gg.dtype, copy=False)


def _pool_infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("MaxPool3D", x.dtype, (_dt.float16, _dt.float32), "input")
    if x.shape.rank is not None and x.shape.rank != 5:
        raise InvalidArgumentError(None, None, R.rank_message(x.shape.rank, "tensor_in must be 5-dimensional",
                                                              expected=5))
    if attrs["ksize"][0] != 1 or attrs["ksize"][4] != 1:
        raise UnimplementedError(None, None, "Pooling is not yet supported on the batch nor depth dimensions.")
    _check_strides(attrs)
    check_positive_strides(attrs)
    if x.shape.rank is None:
        return [Spec(TensorShape([None] * 5), x.dtype)]
    k = attrs["ksize"][1:4]
    dims = [None if s is None or k[i] <= 0 else _geometry([s], [k[i]], _one_dim(attrs, i))[0][0]
            for i, s in enumerate(list(x.shape)[1:4])]
    return [Spec(TensorShape([x.shape[0]] + dims + [x.shape[4]]), x.dtype)]


def _same_as(index):
    return lambda inputs, attrs: [Spec(inputs[index].shape, inputs[index].dtype)]


MaxPool3D = defop("MaxPool3D", inputs=("input",), kernel=_max_pool_kernel, infer=_pool_infer,
                  grad=lambda op, g: bind(MaxPool3DGrad, (op.inputs[0], op.outputs[0], g), op.attrs))
MaxPool3DGrad = defop("MaxPool3DGrad", inputs=("orig_input", "orig_output", "grad"), kernel=_max_pool_grad_kernel,
                      infer=_same_as(0),
                      grad=lambda op, gg: (None, None, bind(MaxPool3DGradGrad, (*op.inputs[:2], gg), op.attrs)))
MaxPool3DGradGrad = defop("MaxPool3DGradGrad", inputs=("orig_input", "orig_output", "grad"),
                          kernel=_max_pool_grad_grad_kernel, infer=_same_as(1),
                          grad=lambda op, g: (None, None, bind(MaxPool3DGrad, (*op.inputs[:2], g), op.attrs)))


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """`tf.nn.max_pool3d`: NDHWC input; ksize and strides an int or a list of 1, 3 or 5."""
    check_format(data_format, "MaxPool3D", ("NDHWC", "NCDHW"))
    x = as_tensor(input)
    check_attr_choice("MaxPool3D", "padding", padding, ("SAME", "VALID"))
    attrs = {"ksize": four(ksize, "ksize", _SPATIAL), "strides": four(strides, "strides", _SPATIAL),
             "padding": padding}
    return bind(MaxPool3D, (x,), attrs, name)
