"""2-D convolution and pooling (NHWC): Conv2D, its two backprop ops, MaxPool, AvgPool and grads.

Kernels work on windows, never on single pixels: `_windows` views the padded input as
[N, OH, OW, KH, KW, C] with stride tricks (no copy), a convolution is then one matmul over the
flattened windows (im2col), and every "scatter back into the input" (input gradients, pooling
gradients) is a loop over the KH*KW window offsets, each a strided slice of the whole batch.

Padding follows TensorFlow exactly: SAME gives ceil(in / stride) outputs and splits the padding
with the extra cell on the bottom/right; VALID gives ceil((in - k_eff + 1) / stride); EXPLICIT
takes the user's [[top, bottom], [left, right]].
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError, UnimplementedError
from ..core.shape import TensorShape
from ..core.tensor import Tensor
from . import array as _array
from . import shape_rules as R
from .operands import as_int_tensor, as_tensor, binary_operands
from .registry import Spec, bind, defop, static_value

_CONV_TYPES = (_dt.float16, _dt.float32, _dt.float64, _dt.int32)

# ----------------------------------------------------------------------------------------------
# Geometry: output sizes, padding, window views
# ----------------------------------------------------------------------------------------------


def _out_size(size, k, stride, dilation, padding, explicit=(0, 0)):
    """(output size, pad before, pad after) for one spatial dimension, as TensorFlow computes it."""
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + eff - size, 0)
        return out, total // 2, total - total // 2
    before, after = explicit if padding == "EXPLICIT" else (0, 0)
    out = (size + before + after - eff + stride) // stride
    if out < 0:
        raise InvalidArgumentError(None, None, f"Computed output size would be negative: {out} [input_size: "
                                               f"{size}, effective_filter_size: {eff}, stride: {stride}]")
    return out, before, after


def _geometry(in_hw, k_hw, attrs):
    """[(out, before, after)] for height and width, from an op's attrs."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    padding = attrs["padding"]
    explicit = attrs.get("explicit_paddings") or (0,) * 8
    return [_out_size(in_hw[i], k_hw[i], strides[i + 1], dil[i + 1], padding,
                      (explicit[2 * i + 2], explicit[2 * i + 3])) for i in range(2)]


def _pad(x, geo, value=0):
    (_, t, b), (_, lt, r) = geo
    if not (t or b or lt or r):
        return x
    return np.pad(x, ((0, 0), (t, b), (lt, r), (0, 0)), constant_values=value)


def _windows(xp, geo, k_hw, attrs):
    """View of padded input `xp` as [N, OH, OW, KH, KW, C] (no copy)."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    n, _, _, c = xp.shape
    sn, sh, sw, sc = xp.strides
    shape = (n, geo[0][0], geo[1][0], k_hw[0], k_hw[1], c)
    st = (sn, sh * strides[1], sw * strides[2], sh * dil[1], sw * dil[2], sc)
    return np.lib.stride_tricks.as_strided(xp, shape, st, writeable=False)


def _scatter_windows(cols, in_shape, geo, k_hw, attrs):
    """Adjoint of `_windows` followed by cropping: adds each window value [N,OH,OW,KH,KW,C] back
    into the input position it was read from; returns an array of `in_shape`."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    n, h, w, c = in_shape
    (oh, t, b), (ow, lt, r) = geo
    out = np.zeros((n, h + t + b, w + lt + r, c), dtype=cols.dtype)
    for i in range(k_hw[0]):
        r0 = i * dil[1]
        for j in range(k_hw[1]):
            c0 = j * dil[2]
            out[:, r0:r0 + strides[1] * (oh - 1) + 1:strides[1], c0:c0 + strides[2] * (ow - 1) + 1:strides[2], :] \
                += cols[:, :, :, i, j, :]
    return out[:, t:t + h, lt:lt + w, :]


def _spatial_infer(in_shape, k_hw, attrs):
    """Output [N, OH, OW] dims for a shape rule (None where unknown)."""
    dims = []
    for i in range(2):
        size, k = in_shape[i + 1], k_hw[i]
        if size is None or k is None:
            dims.append(None)
            continue
        explicit = attrs.get("explicit_paddings") or (0,) * 8
        dims.append(_out_size(size, k, attrs["strides"][i + 1], attrs.get("dilations", (1, 1, 1, 1))[i + 1],
                              attrs["padding"], (explicit[2 * i + 2], explicit[2 * i + 3]))[0])
    return [in_shape[0]] + dims


def _check_strides(attrs, what="strides"):
    s = attrs[what]
    if s[0] != 1 or s[3] != 1:
        raise UnimplementedError(None, None, "Current implementation does not yet support strides in the batch "
                                             "and depth dimensions.")

# ----------------------------------------------------------------------------------------------
# Conv2D and its gradients. Filters are [KH, KW, C / groups, O]; groups = C / filter depth.
# ----------------------------------------------------------------------------------------------


def _groups(c, fc):
    if fc == 0 or c % fc:
        raise InvalidArgumentError(None, None, f"input depth must be evenly divisible by filter depth: {c} vs {fc}")
    return c // fc


def _conv_kernel(x, f, **attrs):
    kh, kw, fc, o = f.shape
    geo = _geometry(x.shape[1:3], (kh, kw), attrs)
    groups = _groups(x.shape[3], fc)
    win = _windows(_pad(x, geo), geo, (kh, kw), attrs)
    n, oh, ow = win.shape[:3]
    og = o // groups
    outs = []
    for g in range(groups):  # one matmul per group (usually exactly one)
        cols = win[..., g * fc:(g + 1) * fc].reshape(n * oh * ow, kh * kw * fc)
        outs.append(cols @ f[..., g * og:(g + 1) * og].reshape(kh * kw * fc, og))
    out = outs[0] if groups == 1 else np.concatenate(outs, axis=1)
    return out.reshape(n, oh, ow, o).astype(x.dtype, copy=False)


def _conv_backprop_input_kernel(input_sizes, f, dy, **attrs):
    in_shape = tuple(int(d) for d in input_sizes)
    kh, kw, fc, o = f.shape
    geo = _geometry(in_shape[1:3], (kh, kw), attrs)
    groups = _groups(in_shape[3], fc)
    n, oh, ow, _ = dy.shape
    og = o // groups
    parts = []
    for g in range(groups):
        w = f[..., g * og:(g + 1) * og].reshape(kh * kw * fc, og)
        parts.append((dy[..., g * og:(g + 1) * og].reshape(-1, og) @ w.T).reshape(n, oh, ow, kh, kw, fc))
    cols = parts[0] if groups == 1 else np.concatenate(parts, axis=-1)
    return _scatter_windows(cols, in_shape, geo, (kh, kw), attrs).astype(dy.dtype, copy=False)


def _conv_backprop_filter_kernel(x, filter_sizes, dy, **attrs):
    kh, kw, fc, o = (int(d) for d in filter_sizes)
    geo = _geometry(x.shape[1:3], (kh, kw), attrs)
    groups = _groups(x.shape[3], fc)
    win = _windows(_pad(x, geo), geo, (kh, kw), attrs)
    m = win.shape[0] * win.shape[1] * win.shape[2]
    og = o // groups
    parts = []
    for g in range(groups):
        cols = win[..., g * fc:(g + 1) * fc].reshape(m, kh * kw * fc)
        parts.append((cols.T @ dy[..., g * og:(g + 1) * og].reshape(m, og)).reshape(kh, kw, fc, og))
    out = parts[0] if groups == 1 else np.concatenate(parts, axis=-1)
    return out.astype(x.dtype, copy=False)


def _check_conv_inputs(op_name, x_shape, f_shape, dtype):
    R.check_dtype_in(op_name, dtype, _CONV_TYPES, "input")
    if x_shape.rank is not None and x_shape.rank != 4:
        raise InvalidArgumentError(None, None, f"convolution input must be 4-dimensional: {R.fmt_dims(x_shape)}")
    if f_shape.rank is not None and f_shape.rank != 4:
        raise InvalidArgumentError(None, None, f"convolution filter must be 4-dimensional: {R.fmt_dims(f_shape)}")


def _conv_infer(inputs, attrs):
    x, f = inputs
    R.check_same_dtype("Conv2D", inputs)
    _check_conv_inputs("Conv2D", x.shape, f.shape, x.dtype)
    _check_strides(attrs)
    if x.shape.rank is None:
        return [Spec(TensorShape([None] * 4), x.dtype)]
    fdims = [None] * 4 if f.shape.rank is None else list(f.shape)
    if x.shape[3] is not None and fdims[2] is not None:
        _groups(x.shape[3], fdims[2])
    return [Spec(TensorShape(_spatial_infer(list(x.shape), fdims[:2], attrs) + [fdims[3]]), x.dtype)]


def _sizes_of(t, rank=4):
    value = static_value(t)
    return [None] * rank if value is None else [int(d) for d in np.ravel(value)]


def _backprop_input_infer(inputs, attrs):
    sizes, f, dy = inputs
    R.check_same_dtype("Conv2DBackpropInput", (f, dy))
    return [Spec(TensorShape(_sizes_of(sizes)), dy.dtype)]


def _backprop_filter_infer(inputs, attrs):
    x, sizes, dy = inputs
    R.check_same_dtype("Conv2DBackpropFilter", (x, dy))
    return [Spec(TensorShape(_sizes_of(sizes)), dy.dtype)]


def _conv_grad(op, g):
    x, f = op.inputs
    return (bind(Conv2DBackpropInput, (_array.shape(x), f, g), op.attrs),
            bind(Conv2DBackpropFilter, (x, _array.shape(f), g), op.attrs))


def _backprop_input_grad(op, g):
    """Conv2DBackpropInput is linear in filter and out_backprop: differentiate each as a Conv2D."""
    _, f, dy = op.inputs
    return (None, bind(Conv2DBackpropFilter, (g, _array.shape(f), dy), op.attrs), bind(Conv2D, (g, f), op.attrs))


def _backprop_filter_grad(op, g):
    x, _, dy = op.inputs
    return (bind(Conv2DBackpropInput, (_array.shape(x), g, dy), op.attrs), None, bind(Conv2D, (x, g), op.attrs))


Conv2D = defop("Conv2D", inputs=("input", "filter"), kernel=_conv_kernel, infer=_conv_infer, grad=_conv_grad)
Conv2DBackpropInput = defop("Conv2DBackpropInput", inputs=("input_sizes", "filter", "out_backprop"),
                            kernel=_conv_backprop_input_kernel, infer=_backprop_input_infer,
                            grad=_backprop_input_grad)
Conv2DBackpropFilter = defop("Conv2DBackpropFilter", inputs=("input", "filter_sizes", "out_backprop"),
                             kernel=_conv_backprop_filter_kernel, infer=_backprop_filter_infer,
                             grad=_backprop_filter_grad)

# ----------------------------------------------------------------------------------------------
# Pooling. ksize and strides are attrs of 4 ints ([1, kh, kw, 1]).
# ----------------------------------------------------------------------------------------------


def _pool_k(attrs):
    return attrs["ksize"][1], attrs["ksize"][2]


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _max_pool_kernel(x, **attrs):
    k = _pool_k(attrs)
    geo = _geometry(x.shape[1:3], k, attrs)
    return _windows(_pad(x, geo, _lowest(x.dtype)), geo, k, attrs).max(axis=(3, 4))


def _argmax_in_window(x, attrs):
    """Per output cell, the flat (kh * KW + kw) offset of the first maximum in its window."""
    k = _pool_k(attrs)
    geo = _geometry(x.shape[1:3], k, attrs)
    win = _windows(_pad(x, geo, _lowest(x.dtype)), geo, k, attrs)
    n, oh, ow, kh, kw, c = win.shape
    return np.argmax(win.reshape(n, oh, ow, kh * kw, c), axis=3), geo, k


def _max_pool_grad_kernel(x, y, g, **attrs):
    idx, geo, k = _argmax_in_window(x, attrs)
    cols = np.zeros(g.shape[:3] + k + g.shape[3:], dtype=g.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            cols[:, :, :, i, j, :] = np.where(idx == i * k[1] + j, g, 0)
    return _scatter_windows(cols, x.shape, geo, k, attrs).astype(x.dtype, copy=False)


def _max_pool_grad_grad_kernel(x, y, gg, **attrs):
    """The gradient's own adjoint: read `gg` at each window's argmax (an output-shaped result)."""
    idx, geo, k = _argmax_in_window(x, attrs)
    win = _windows(_pad(gg, geo), geo, k, attrs)
    n, oh, ow, kh, kw, c = win.shape
    return np.take_along_axis(win.reshape(n, oh, ow, kh * kw, c), idx[:, :, :, None, :], axis=3)[:, :, :, 0, :]


def _pool_counts(in_hw, k, geo, attrs):
    """[OH, OW] number of real (unpadded) cells in each window: SAME averages only those."""
    counts = []
    for d in range(2):
        out, before, _ = geo[d]
        start = np.arange(out) * attrs["strides"][d + 1] - before
        lo, hi = np.maximum(start, 0), np.minimum(start + k[d], in_hw[d])
        counts.append(np.maximum(hi - lo, 0))
    return np.outer(counts[0], counts[1])


def _avg_pool_kernel(x, **attrs):
    k = _pool_k(attrs)
    geo = _geometry(x.shape[1:3], k, attrs)
    total = _windows(_pad(x, geo), geo, k, attrs).sum(axis=(3, 4))
    counts = _pool_counts(x.shape[1:3], k, geo, attrs)
    return (total / np.maximum(counts, 1)[None, :, :, None]).astype(x.dtype, copy=False)


def _avg_pool_grad_kernel(orig_shape, g, **attrs):
    shape = tuple(int(d) for d in orig_shape)
    k = _pool_k(attrs)
    geo = _geometry(shape[1:3], k, attrs)
    share = g / np.maximum(_pool_counts(shape[1:3], k, geo, attrs), 1)[None, :, :, None]
    cols = np.broadcast_to(share[:, :, :, None, None, :], g.shape[:3] + k + g.shape[3:])
    return _scatter_windows(cols, shape, geo, k, attrs).astype(g.dtype, copy=False)


def _pool_infer(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, R.REAL_NUMBERS if op_name == "MaxPool" else R.FLOATS, "input")
        if x.shape.rank is not None and x.shape.rank != 4:
            raise InvalidArgumentError(None, None, f"input must be 4-dimensional{R.fmt_dims(x.shape)}")
        if attrs["ksize"][0] != 1 or attrs["ksize"][3] != 1:
            raise UnimplementedError(None, None, "Pooling is not yet supported on the batch nor depth dimensions.")
        _check_strides(attrs)
        if x.shape.rank is None:
            return [Spec(TensorShape([None] * 4), x.dtype)]
        return [Spec(TensorShape(_spatial_infer(list(x.shape), _pool_k(attrs), attrs) + [x.shape[3]]), x.dtype)]
    return infer


def _same_as_input(index):
    return lambda inputs, attrs: [Spec(inputs[index].shape, inputs[index].dtype)]


MaxPool = defop("MaxPool", inputs=("input",), kernel=_max_pool_kernel, infer=_pool_infer("MaxPool"),
                grad=lambda op, g: bind(MaxPoolGrad, (op.inputs[0], op.outputs[0], g), op.attrs))
MaxPoolGrad = defop("MaxPoolGrad", inputs=("orig_input", "orig_output", "grad"), kernel=_max_pool_grad_kernel,
                    infer=_same_as_input(0),
                    grad=lambda op, gg: (None, None, bind(MaxPoolGradGrad, (*op.inputs[:2], gg), op.attrs)))
MaxPoolGradGrad = defop("MaxPoolGradGrad", inputs=("orig_input", "orig_output", "grad"),
                        kernel=_max_pool_grad_grad_kernel, infer=_same_as_input(1),
                        grad=lambda op, g: (None, None, bind(MaxPoolGrad, (*op.inputs[:2], g), op.attrs)))
AvgPool = defop("AvgPool", inputs=("value",), kernel=_avg_pool_kernel, infer=_pool_infer("AvgPool"),
                grad=lambda op, g: bind(AvgPoolGrad, (_array.shape(op.inputs[0]), g), op.attrs))
AvgPoolGrad = defop("AvgPoolGrad", inputs=("orig_input_shape", "grad"), kernel=_avg_pool_grad_kernel,
                    infer=lambda inputs, attrs: [Spec(TensorShape(_sizes_of(inputs[0])), inputs[1].dtype)],
                    grad=lambda op, gg: (None, bind(AvgPool, (gg,), op.attrs)))

# ----------------------------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------------------------


def _four(value, name, n=2):
    """An int or a list of 1, n or n + 2 ints -> the full [1, ..., 1] attribute list."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, Tensor):
        value = static_value(value)
    if np.ndim(value) == 0:
        return [1] + [int(value)] * n + [1]
    value = [int(v) for v in value]
    if len(value) == 1:
        return [1] + value * n + [1]
    if len(value) == n:
        return [1] + value + [1]
    if len(value) == n + 2:
        return value
    raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of length {len(value)}")


def _padding_attrs(padding):
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"`padding` must be either 'VALID', 'SAME', or a list of paddings. "
                             f"Received: padding={padding}")
        return {"padding": p}
    pairs = [[int(a), int(b)] for a, b in padding]
    if len(pairs) != 4 or pairs[0] != [0, 0] or pairs[3] != [0, 0]:
        raise ValueError(f"When `padding` is a list it must have 4 [before, after] pairs with zeros for the "
                         f"batch and channel dimensions. Received: padding={padding}")
    return {"padding": "EXPLICIT", "explicit_paddings": [v for p in pairs for v in p]}


def _check_format(data_format):
    if data_format not in (None, "NHWC", "NWC", "NDHWC"):
        raise UnimplementedError(None, None, f"eagerflow implements the channels-last layout only; got "
                                             f"data_format={data_format!r}")


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """`tf.nn.conv2d`: NHWC input, [KH, KW, C / groups, O] filters."""
    _check_format(data_format)
    x, f = binary_operands(input, filters, "Conv2D")
    attrs = {"strides": _four(strides, "strides"), "dilations": _four(dilations, "dilations")}
    attrs.update(_padding_attrs(padding))
    _check_strides(attrs)
    return bind(Conv2D, (x, f), attrs)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC", dilations=None,
                     name=None):
    """`tf.nn.conv2d_transpose`: the gradient of conv2d with respect to its input (filters are
    [KH, KW, out_channels, in_channels])."""
    _check_format(data_format)
    x, f = binary_operands(input, filters, "Conv2DBackpropInput")
    attrs = {"strides": _four(strides, "strides"), "dilations": _four(dilations, "dilations")}
    attrs.update(_padding_attrs(padding))
    return bind(Conv2DBackpropInput, (as_int_tensor(output_shape), f, x), attrs)


def _pool(opdef, input, ksize, strides, padding, data_format, fn_name):
    _check_format(data_format)
    x = input if isinstance(input, Tensor) else as_tensor(input)
    rank = x.shape.rank
    if rank == 3:  # 1-D pooling: [N, W, C] runs as [N, 1, W, C]
        k, s = _four(ksize, "ksize", 1), _four(strides, "strides", 1)
        attrs = {"ksize": [1, 1] + k[1:], "strides": [1, 1] + s[1:]}
        attrs.update(_padding_attrs(padding))
        if attrs["padding"] == "EXPLICIT":
            raise ValueError("explicit padding is not supported for 1-D pooling")
        shape = x.shape.as_list()
        y = bind(opdef, (_array.reshape(x, [-1 if shape[0] is None else shape[0], 1] + [
            -1 if d is None else d for d in shape[1:]]),), attrs)
        ys = y.shape.as_list()
        return _array.reshape(y, [-1 if ys[0] is None else ys[0]] + [-1 if d is None else d for d in ys[2:]])
    if rank is not None and rank != 4:
        raise ValueError(f"`{fn_name}` supports inputs of rank 3 or 4 in eagerflow; got rank {rank}")
    attrs = {"ksize": _four(ksize, "ksize"), "strides": _four(strides, "strides")}
    attrs.update(_padding_attrs(padding))
    if attrs["padding"] == "EXPLICIT":
        raise ValueError(f"`{fn_name}` does not support explicit padding in eagerflow")
    if attrs["ksize"][0] != 1 or attrs["ksize"][3] != 1:
        raise UnimplementedError(None, None, "Pooling is not yet supported on the batch nor depth dimensions.")
    _check_strides(attrs)
    return bind(opdef, (x,), attrs)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    return _pool(MaxPool, input, ksize, strides, padding, data_format, "max_pool2d")


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    return _pool(AvgPool, input, ksize, strides, padding, data_format, "avg_pool2d")


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """`tf.nn.max_pool`: picks 1-D or 2-D pooling from the input's rank."""
    return _pool(MaxPool, input, ksize, strides, padding, data_format, "max_pool")


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    return _pool(AvgPool, input, ksize, strides, padding, data_format, "avg_pool")


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """`tf.nn.conv1d`: [N, W, C] input and [K, C, O] filters, run as a 2-D convolution of height 1."""
    _check_format(data_format)
    x, f = binary_operands(input, filters, "Conv2D")
    s = _four(stride, "stride", 1)
    d = _four(dilations, "dilations", 1)
    attrs = {"strides": [1, 1, s[1], 1], "dilations": [1, 1, d[1], 1]}
    attrs.update(_padding_attrs(padding))
    if attrs["padding"] == "EXPLICIT":
        raise ValueError("conv1d takes 'SAME' or 'VALID' padding")
    xs, fs = x.shape.as_list(), f.shape.as_list()
    x4 = _array.reshape(x, [-1 if xs[0] is None else xs[0], 1] + [-1 if v is None else v for v in xs[1:]])
    f4 = _array.reshape(f, [1] + [-1 if v is None else v for v in fs])
    y = bind(Conv2D, (x4, f4), attrs)
    ys = y.shape.as_list()
    return _array.reshape(y, [-1 if ys[0] is None else ys[0]] + [-1 if v is None else v for v in ys[2:]])
