"""2-D convolution (NHWC): Conv2D and its two backprop ops, and the public conv1d/conv2d/conv2d_transpose.

A convolution is one matmul over the flattened windows of the padded input (im2col, see
ops/nn/windows.py), run in row blocks (ops/nn/window_matmul.py); its input gradient scatters the
windows back. Pooling lives in ops/nn/pooling.py.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..array import basic as _array
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor, binary_operands
from ..registry import Spec, bind, defop
from . import window_matmul
from .block_threads import run_blocks
from .window_matmul import rows_matmul, windows_gram, windows_matmul
from .windows import (check_dilations, check_format, check_window_fits, check_positive_strides, check_strides, four, geometry, pad_spatial, padding_attrs, scatter_windows,
                      spatial_infer, static_sizes, window_view)
from ..lazy_jax import jax_module, lax  # callables that import JAX on first use only

_CONV_TYPES = (_dt.float16, _dt.float32, _dt.float64, _dt.int32)

# ----------------------------------------------------------------------------------------------
# Conv2D and its gradients. Filters are [KH, KW, C / groups, O]; groups = C / filter depth.
# ----------------------------------------------------------------------------------------------


def _groups(c, fc):
    if fc == 0 or c % fc:
        raise InvalidArgumentError(None, None, f"input depth must be evenly divisible by filter depth: {c} vs {fc}")
    return c // fc


_FUSION = []


def _fusion():
    """The fused kernels' modules, imported on first use: most programs never fuse (generated code only)."""
    if not _FUSION:
        import types
        from . import conv_epilogue, conv_pool
        _FUSION.append(types.SimpleNamespace(channel_epilogue=conv_epilogue.channel_epilogue, conv_pool=conv_pool))
    return _FUSION[0]


def _conv_kernel(x, f, *operands, out=None, epilogue=(), pool=None, **attrs):
    """Conv2D; with `epilogue` (generated code only, codegen/epilogue.py), also the per-channel steps
    that followed it in the graph, applied block by block (ops/nn/conv_epilogue.py) to the result;
    with `pool` ((kh, kw), generated code only), also the tiling MaxPool that read the result, block by
    block (ops/nn/conv_pool.py): the pooled result is returned."""
    kh, kw, fc, o = f.shape
    geo = geometry(x.shape[1:3], (kh, kw), attrs)
    groups = _groups(x.shape[3], fc)
    whole = groups == 1 and f.dtype == x.dtype  # the usual case: the row blocks write the result itself
    fusion = _fusion() if epilogue or pool else None
    finish = None
    if epilogue:
        rows = x.shape[0] * geo[0][0] * geo[1][0]
        finish = fusion.channel_epilogue(epilogue, operands, o, x.dtype,
                                         rows // (pool[0] * pool[1]) if pool and whole else rows)
    win = window_view(pad_spatial(x, geo), geo, (kh, kw), attrs)
    pooled = None
    if pool is not None:
        pooled = out if out is not None else \
            np.empty((x.shape[0], geo[0][0] // pool[0], geo[1][0] // pool[1], o), x.dtype)
        if whole:
            after_pool = finish is not None and fusion.conv_pool.chain_commutes_with_max(epilogue, operands)
            return fusion.conv_pool.pooled_windows_matmul(win, f.reshape(kh * kw * fc, o), pool, pooled, finish,
                                                          after_pool)
        out = None  # the whole result goes to an array of its own, pooled at the end
    if whole:
        return windows_matmul(win, f.reshape(kh * kw * fc, o), 3, out=out, finish=finish)
    og = o // groups
    outs = [windows_matmul(win[..., g * fc:(g + 1) * fc], f[..., g * og:(g + 1) * og].reshape(kh * kw * fc, og), 3)
            for g in range(groups)]  # one matmul per group, in row blocks
    result = (outs[0] if groups == 1 else np.concatenate(outs, axis=-1)).astype(x.dtype, copy=False)
    if out is None:
        out = np.ascontiguousarray(result)
    else:
        np.copyto(out, result)
    if finish is not None and out.size:
        finish(out.reshape(-1, o))
    return out if pooled is None else fusion.conv_pool.pool_result(out, pool, pooled)


_conv_kernel.fills_out = True  # generated code may hand it a spare output buffer (codegen/buffers.py)


def _conv_backprop_input_kernel(input_sizes, f, dy, **attrs):
    in_shape = tuple(int(d) for d in input_sizes)
    kh, kw, fc, o = f.shape
    geo = geometry(in_shape[1:3], (kh, kw), attrs)
    for i, (computed, _, _) in enumerate(geo):  # TensorFlow's reference kernel's check and words
        if computed != dy.shape[i + 1]:
            raise InvalidArgumentError(
                None, None, f"Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = "
                            f"{dy.shape[i + 1]}, computed = {computed} spatial_dim: {i + 1} input: {in_shape[i + 1]} "
                            f"filter: {(kh, kw)[i]} output: {dy.shape[i + 1]} stride: {attrs['strides'][i + 1]} "
                            f"dilation: {attrs.get('dilations', (1, 1, 1, 1))[i + 1]}")
    groups = _groups(in_shape[3], fc)
    n, oh, ow, _ = dy.shape
    if groups == 1 and fc > window_matmul.SHALLOW_DEPTH and oh * ow * o * fc <= window_matmul.MACS_PER_CALL:
        return _input_gradient_by_offsets(dy, f, in_shape, geo, attrs).astype(dy.dtype, copy=False)
    og = o // groups
    parts = []
    for g in range(groups):
        w = f[..., g * og:(g + 1) * og].reshape(kh * kw * fc, og)
        parts.append(rows_matmul(dy[..., g * og:(g + 1) * og].reshape(-1, og), w.T).reshape(n, oh, ow, kh, kw, fc))
    cols = parts[0] if groups == 1 else np.concatenate(parts, axis=-1)
    return scatter_windows(cols, in_shape, geo, (kh, kw), attrs).astype(dy.dtype, copy=False)


def _input_gradient_by_offsets(dy, f, in_shape, geo, attrs):
    """Conv2D's input gradient as one product per window offset, `dy @ f[i, j].T` ([rows, C]), added
    into the input positions that offset read: each addition covers whole rows of C values, where
    scattering one [rows, KH, KW, C] product window by window moves C values at a time. Blocks of
    whole images (each product under the BLAS's threading threshold) share the calling thread and
    helper threads; they add into disjoint images."""
    kh, kw, c, o = f.shape
    n, oh, ow, _ = dy.shape
    (_, top, bottom), (_, left, right) = geo
    h, w = in_shape[1:3]
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    out = np.zeros((n, h + top + bottom, w + left + right, c), np.result_type(dy.dtype, f.dtype))
    if oh == 0 or ow == 0:
        return out[:, top:top + h, left:left + w, :]
    taps = [np.ascontiguousarray(f[i, j].T) for i in range(kh) for j in range(kw)]  # [O, C] each
    step = max(1, window_matmul.MACS_PER_CALL // (oh * ow * o * c))
    starts = range(0, n, step)

    def add_block(b):
        images = slice(starts[b], starts[b] + step)
        rows = dy[images].reshape(-1, o)
        count = rows.shape[0] // (oh * ow)
        for i in range(kh):
            for j in range(kw):
                part = window_matmul._product(rows, taps[i * kw + j]).reshape(count, oh, ow, c)
                r0, c0 = i * dil[1], j * dil[2]
                out[images, r0:r0 + strides[1] * (oh - 1) + 1:strides[1],
                    c0:c0 + strides[2] * (ow - 1) + 1:strides[2], :] += part
    run_blocks(add_block, len(starts), (dy.shape, f.shape))
    return out[:, top:top + h, left:left + w, :]


def _conv_backprop_filter_kernel(x, filter_sizes, dy, **attrs):
    kh, kw, fc, o = (int(d) for d in filter_sizes)
    geo = geometry(x.shape[1:3], (kh, kw), attrs)
    groups = _groups(x.shape[3], fc)
    win = window_view(pad_spatial(x, geo), geo, (kh, kw), attrs)
    og = o // groups
    parts = [windows_gram(win[..., g * fc:(g + 1) * fc], dy[..., g * og:(g + 1) * og], 3).reshape(kh, kw, fc, og)
             for g in range(groups)]
    out = parts[0] if groups == 1 else np.concatenate(parts, axis=-1)
    return out.astype(x.dtype, copy=False)


def _check_conv_inputs(op_name, x_shape, f_shape, dtype):
    R.check_dtype_in(op_name, dtype, _CONV_TYPES, "input")
    for what, shape in (("input", x_shape), ("filter", f_shape)):
        if shape.rank is not None and shape.rank != 4:
            raise InvalidArgumentError(None, None, R.rank_message(
                shape.rank, f"{what} must be 4-dimensional{R.fmt_dims(shape)}" if what == "input"
                else f"{what} must be 4-dimensional: {R.fmt_dims(shape)}"))


def _conv_infer(inputs, attrs):
    x, f = inputs
    R.check_same_dtype("Conv2D", inputs)
    _check_conv_inputs("Conv2D", x.shape, f.shape, x.dtype)
    check_strides(attrs)
    check_positive_strides(attrs)
    graph = R.graph_shape_check(inputs)
    check_dilations(attrs, graph)
    if x.shape.rank is None:
        return [Spec(TensorShape([None] * 4), x.dtype)]
    fdims = [None] * 4 if f.shape.rank is None else list(f.shape)
    if x.shape[3] is not None and fdims[2] is not None:
        if graph and (fdims[2] == 0 or x.shape[3] % fdims[2]):
            raise InvalidArgumentError(None, None, f"Depth of input ({x.shape[3]}) is not a multiple of input "
                                                   f"depth of filter ({fdims[2]})")
        _groups(x.shape[3], fdims[2])
    if graph:
        check_window_fits(list(x.shape)[1:3], fdims[:2], attrs)
    return [Spec(TensorShape(spatial_infer(list(x.shape), fdims[:2], attrs) + [fdims[3]]), x.dtype)]


def _backprop_input_infer(inputs, attrs):
    sizes, f, dy = inputs
    R.check_same_dtype("Conv2DBackpropInput", (f, dy))
    return [Spec(TensorShape(static_sizes(sizes)), dy.dtype)]


def _backprop_filter_infer(inputs, attrs):
    x, sizes, dy = inputs
    R.check_same_dtype("Conv2DBackpropFilter", (x, dy))
    return [Spec(TensorShape(static_sizes(sizes)), dy.dtype)]


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
# Public functions
# ----------------------------------------------------------------------------------------------


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """`tf.nn.conv2d`: NHWC input, [KH, KW, C / groups, O] filters."""
    check_format(data_format, "Conv2D")
    x, f = binary_operands(input, filters, "Conv2D")
    attrs = {"strides": four(strides, "strides"), "dilations": four(dilations, "dilations")}
    attrs.update(padding_attrs(padding, "Conv2D"))
    check_strides(attrs)
    return bind(Conv2D, (x, f), attrs)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC", dilations=None,
                     name=None):
    """`tf.nn.conv2d_transpose`: the gradient of conv2d with respect to its input (filters are
    [KH, KW, out_channels, in_channels])."""
    check_format(data_format, "Conv2DBackpropInput")
    x, f = binary_operands(input, filters, "Conv2DBackpropInput")
    attrs = {"strides": four(strides, "strides"), "dilations": four(dilations, "dilations")}
    attrs.update(padding_attrs(padding, "Conv2DBackpropInput"))
    return bind(Conv2DBackpropInput, (as_int_tensor(output_shape), f, x), attrs)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """`tf.nn.conv1d`: [N, W, C] input and [K, C, O] filters, run as a 2-D convolution of height 1.
    Unlike conv2d, TensorFlow converts the two arguments separately (neither borrows the other's
    dtype), so `conv1d(float_tensor, [[[2]]])` is Conv2D's dtype mismatch, not an int-to-float cast."""
    check_format(data_format)
    x, f = as_tensor(input), as_tensor(filters)
    R.check_same_dtype("Conv2D", (x, f))  # the eager kernel alone would run on mixed dtypes
    s = four(stride, "stride", 1)
    d = four(dilations, "dilations", 1)
    attrs = {"strides": [1, 1, s[1], 1], "dilations": [1, 1, d[1], 1]}
    attrs.update(padding_attrs(padding, "Conv2D"))
    if attrs["padding"] == "EXPLICIT":
        raise ValueError("conv1d takes 'SAME' or 'VALID' padding")
    xs, fs = x.shape.as_list(), f.shape.as_list()
    x4 = _array.reshape(x, [-1 if xs[0] is None else xs[0], 1] + [-1 if v is None else v for v in xs[1:]])
    f4 = _array.reshape(f, [1] + [-1 if v is None else v for v in fs])
    y = bind(Conv2D, (x4, f4), attrs)
    ys = y.shape.as_list()
    return _array.reshape(y, [-1 if ys[0] is None else ys[0]] + [-1 if v is None else v for v in ys[2:]])

# --- JAX lowerings (jit_compile=True, codegen/xla.py): lax.conv_general_dilated; the two backprop
# ops are its vector-Jacobian products (XLA emits the transposed convolutions). ---


def _jax_conv(x, f, **attrs):
    kh, kw, fc, _ = f.shape
    geo = geometry(x.shape[1:3], (kh, kw), attrs)
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    return lax.conv_general_dilated(x, f, (strides[1], strides[2]), [(g[1], g[2]) for g in geo],
                                    rhs_dilation=(dil[1], dil[2]), dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                    feature_group_count=_groups(x.shape[3], fc))


def _jax_conv_backprop_input(input_sizes, f, dy, **attrs):
    shape = tuple(int(d) for d in input_sizes)
    _, vjp = jax_module().vjp(lambda x: _jax_conv(x, f, **attrs), jax_module().numpy.zeros(shape, dy.dtype))
    return vjp(dy)[0]


def _jax_conv_backprop_filter(x, filter_sizes, dy, **attrs):
    shape = tuple(int(d) for d in filter_sizes)
    _, vjp = jax_module().vjp(lambda f: _jax_conv(x, f, **attrs), jax_module().numpy.zeros(shape, dy.dtype))
    return vjp(dy)[0]


Conv2D.jax = _jax_conv
Conv2DBackpropInput.jax = _jax_conv_backprop_input
Conv2DBackpropFilter.jax = _jax_conv_backprop_filter
