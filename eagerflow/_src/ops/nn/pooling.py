"""2-D pooling (NHWC): MaxPool, AvgPool and their gradients, and the public max_pool/avg_pool
(1-D pooling runs as 2-D pooling of height 1).

ksize and strides are attrs of 4 ints ([1, kh, kw, 1]). MaxPoolGrad routes each output's gradient
to the first maximum of its window; MaxPoolGradGrad (the adjoint of that routing) makes second
derivatives exact. SAME average pooling divides by the number of real (unpadded) cells.
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..array import basic as _array
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop
from .block_threads import run_blocks
from .windows import (check_format, check_positive_ksize, check_positive_strides, check_strides, four, geometry, pad_spatial, padding_attrs, scatter_windows,
                      max_pool_floor, nan_as_floor, spatial_infer, static_sizes, window_view)
from ..lazy_jax import jax_module, jnp, lax  # callables that import JAX on first use only


def _pool_k(attrs):
    return attrs["ksize"][1], attrs["ksize"][2]


POOL_BLOCK_BYTES = 1 << 18  # input per block of images: a block's rows stay in cache between its two passes


def _max_pool_kernel(x, **attrs):
    """The maximum of each window, taken separably: first over the KH rows of each output row (strided
    slices of whole padded rows, long contiguous runs), then over the KW columns of that [N, OH, W, C]
    result. Large batches go in blocks of images shared with helper threads (ops/nn/block_threads.py).
    NaN cells are skipped and a window starts from the dtype's lowest finite value, as in TensorFlow:
    for NumPy's floats `fmax` does both in the same passes (it keeps the number of a NaN/number pair,
    and the last pass against the floor turns an all-NaN or all -inf window into the floor)."""
    check_positive_ksize(attrs)
    k = _pool_k(attrs)
    geo = geometry(x.shape[1:3], k, attrs)
    floor = max_pool_floor(x.dtype)
    numpy_float = np.dtype(x.dtype).kind == "f"
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    if numpy_float and k == (strides[1], strides[2]) and dil[1] == dil[2] == 1 and geo[0][1:] == geo[1][1:] == (0, 0):
        return _max_pool_tiles(x, k, geo[0][0], geo[1][0], floor)
    combine = np.fmax if numpy_float else np.maximum
    xp = pad_spatial(x if numpy_float else nan_as_floor(x), geo, floor)
    (oh, _, _), (ow, _, _) = geo
    rows = [slice(i * dil[1], i * dil[1] + strides[1] * (oh - 1) + 1, strides[1]) for i in range(k[0])]
    cols = [slice(j * dil[2], j * dil[2] + strides[2] * (ow - 1) + 1, strides[2]) for j in range(k[1])]
    out = np.empty((x.shape[0], oh, ow, x.shape[3]), x.dtype)
    per_image = max(1, xp[:1].nbytes)
    step = max(1, POOL_BLOCK_BYTES // per_image)
    starts = list(range(0, x.shape[0], step))

    def pool(b):
        images = slice(starts[b], starts[b] + step)
        part = xp[images]
        if oh == 0 or ow == 0:
            return
        if len(rows) == 1:
            by_rows = part[:, rows[0]]
        else:
            by_rows = combine(part[:, rows[0]], part[:, rows[1]])
            for r in rows[2:]:
                combine(by_rows, part[:, r], out=by_rows)
        target = out[images]
        if len(cols) == 1:
            np.copyto(target, by_rows[:, :, cols[0]])
        else:
            combine(by_rows[:, :, cols[0]], by_rows[:, :, cols[1]], out=target)
            for c in cols[2:]:
                combine(target, by_rows[:, :, c], out=target)
        combine(target, floor, out=target)
    run_blocks(pool, len(starts), (x.shape, k))
    return out


def _max_pool_tiles(x, k, oh, ow, floor):
    """`_max_pool_kernel` for windows that tile the input (VALID, stride = window, a float dtype), by
    `max_of_tiles` on blocks of images. One call for a small input (most of a batch of one's cost was
    the general path's set-up); larger batches go in blocks of images shared with helper threads."""
    n, _, _, c = x.shape
    out = np.empty((n, oh, ow, c), x.dtype)
    if out.size == 0:
        return out
    step = max(1, POOL_BLOCK_BYTES // max(1, x[:1].nbytes))

    def pool(start):
        max_of_tiles(x[start:start + step], k, out[start:start + step], floor)

    if step >= n:
        pool(0)
    else:
        starts = range(0, n, step)
        run_blocks(lambda b: pool(starts[b]), len(starts), (x.shape, k))
    return out


def max_of_tiles(part, k, target, floor=None):
    """Writes into `target` ([N, OH, OW, C], C-contiguous) the maximum of each KH x KW tile of `part`
    ([N, H, W, C] of a float dtype; rows and columns past OH * KH, OW * KW are ignored), skipping NaN
    cells; then, if `floor` is given, raises every result to it (an all-NaN or all -inf tile gives the
    floor, as TensorFlow's CPU kernel does). The input is viewed as [N, OH, KH, OW * KW * C] (no copy):
    the maximum over its KH axis runs along rows of OW * KW * C contiguous values, then over the KW
    groups of C in each output cell. A fused convolution whose products are not blocked (grouped, or of
    another dtype than its input) pools its whole result with this (ops/nn/conv_pool.py)."""
    kh, kw = k
    n, oh, ow, c = target.shape
    if target.size == 0:
        return
    rows = part[:, :oh * kh, :ow * kw].reshape(n, oh, kh, ow * kw * c)
    if kh == 1:
        by_rows = rows[:, :, 0]
    else:
        by_rows = np.fmax(rows[:, :, 0], rows[:, :, 1])
        for i in range(2, kh):
            np.fmax(by_rows, rows[:, :, i], out=by_rows)
    cells = by_rows.reshape(n, oh, ow, kw * c)
    if kw == 1:
        np.copyto(target, cells)
    else:
        np.fmax(cells[..., :c], cells[..., c:2 * c], out=target)
        for j in range(2, kw):
            np.fmax(target, cells[..., j * c:(j + 1) * c], out=target)
    if floor is not None:
        np.fmax(target, floor, out=target)


def _scan_argmax(x, geo, k, attrs):
    """`_argmax_in_window` for windows without padding, in one pass per window offset over
    output-sized arrays: a later cell takes over only when strictly greater than the best so far, so
    the first maximum wins ties, NaN never wins, and a NaN first cell keeps the gradient (it starts as
    +inf here, which nothing exceeds). Arithmetic, not masks: a select on a random mask is ten times
    slower than a multiply."""
    win = window_view(x, geo, k, attrs)
    best = win[:, :, :, 0, 0, :].copy()
    is_float = np.dtype(x.dtype).kind not in "iub"
    if is_float:
        nan = np.isnan(best)
        if nan.any():
            best[nan] = np.inf
    keep_larger = np.fmax if is_float else np.maximum
    index = np.zeros(best.shape, np.int8 if k[0] * k[1] < 128 else np.int64)
    step = np.empty_like(index)
    for offset in range(1, k[0] * k[1]):
        cell = win[:, :, :, offset // k[1], offset % k[1], :]
        greater = cell > best
        keep_larger(best, cell, out=best)
        np.subtract(offset, index, out=step, dtype=index.dtype)
        step *= greater
        index += step
    return index


def _argmax_in_window(x, attrs):
    """Per output cell, the flat (kh * KW + kw) offset its gradient goes to, as TensorFlow's CPU kernel
    picks it: scanning the window's real (unpadded) cells in order from the first, a cell wins only by
    comparing strictly greater. So the first maximum wins ties, NaN never wins, and a window whose first
    real cell is NaN (nothing compares greater than NaN) routes to that cell."""
    k = _pool_k(attrs)
    geo = geometry(x.shape[1:3], k, attrs)
    if not any(before or after for _, before, after in geo):
        return _scan_argmax(x, geo, k, attrs), geo, k
    is_float = np.dtype(x.dtype).kind not in "iub"
    flat = lambda w: w.reshape(w.shape[:3] + (k[0] * k[1],) + w.shape[5:])
    raw = flat(window_view(pad_spatial(x, geo, max_pool_floor(x.dtype)), geo, k, attrs))
    real = np.ones(x.shape[1:3] + (1,), bool)[None]
    real = np.broadcast_to(flat(window_view(pad_spatial(real, geo, False), geo, k, attrs)), raw.shape)
    key = np.where(np.isnan(raw), -np.inf, raw) if is_float else raw
    key = np.where(real, key, key.min(axis=3, keepdims=True))  # padding never outranks a real cell
    first_max = np.argmax(real & (key == key.max(axis=3, keepdims=True)), axis=3)
    if not is_float:
        return first_max, geo, k
    first_real = np.argmax(real, axis=3)
    first_is_nan = np.isnan(np.take_along_axis(raw, first_real[:, :, :, None, :], axis=3)[:, :, :, 0, :])
    return np.where(first_is_nan, first_real, first_max), geo, k


def _max_pool_grad_kernel(x, y, g, **attrs):
    idx, geo, k = _argmax_in_window(x, attrs)
    if not any(before or after for _, before, after in geo):  # each offset's share added straight into place
        strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
        (oh, _, _), (ow, _, _) = geo
        dx = np.zeros(x.shape, g.dtype)
        # g * mask, unless g holds inf or NaN (0 * inf is NaN, where the other cells must get 0)
        share = (lambda hit: g * hit) if np.isfinite(g).all() else (lambda hit: np.where(hit, g, np.zeros((), g.dtype)))
        for i in range(k[0] if oh and ow else 0):
            for j in range(k[1]):
                r0, c0 = i * dil[1], j * dil[2]
                dx[:, r0:r0 + strides[1] * (oh - 1) + 1:strides[1], c0:c0 + strides[2] * (ow - 1) + 1:strides[2], :] \
                    += share(idx == i * k[1] + j)
        return dx.astype(x.dtype, copy=False)
    cols = np.zeros(g.shape[:3] + k + g.shape[3:], dtype=g.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            cols[:, :, :, i, j, :] = np.where(idx == i * k[1] + j, g, 0)
    return scatter_windows(cols, x.shape, geo, k, attrs).astype(x.dtype, copy=False)


def _max_pool_grad_grad_kernel(x, y, gg, **attrs):
    """The gradient's own adjoint: read `gg` at each window's argmax (an output-shaped result)."""
    idx, geo, k = _argmax_in_window(x, attrs)
    win = window_view(pad_spatial(gg, geo), geo, k, attrs)
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
    check_positive_ksize(attrs)
    k = _pool_k(attrs)
    geo = geometry(x.shape[1:3], k, attrs)
    total = window_view(pad_spatial(x, geo), geo, k, attrs).sum(axis=(3, 4))
    counts = _pool_counts(x.shape[1:3], k, geo, attrs)
    return (total / np.maximum(counts, 1)[None, :, :, None]).astype(x.dtype, copy=False)


def _avg_pool_grad_kernel(orig_shape, g, **attrs):
    shape = tuple(int(d) for d in orig_shape)
    k = _pool_k(attrs)
    geo = geometry(shape[1:3], k, attrs)
    share = g / np.maximum(_pool_counts(shape[1:3], k, geo, attrs), 1)[None, :, :, None]
    cols = np.broadcast_to(share[:, :, :, None, None, :], g.shape[:3] + k + g.shape[3:])
    return scatter_windows(cols, shape, geo, k, attrs).astype(g.dtype, copy=False)


def _pool_infer(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, R.REAL_NUMBERS if op_name == "MaxPool" else R.FLOATS,
                         "input" if op_name == "MaxPool" else "value")
        if x.shape.rank is not None and x.shape.rank != 4:
            raise InvalidArgumentError(None, None, R.rank_message(
                x.shape.rank, "Input must be 4 or 5-dimensional" if op_name == "MaxPool"
                else f"input must be 4-dimensional{R.fmt_dims(x.shape)}"))
        _check_window_dims(attrs)
        check_strides(attrs)
        check_positive_strides(attrs)
        if x.shape.rank is None:
            return [Spec(TensorShape([None] * 4), x.dtype)]
        return [Spec(TensorShape(spatial_infer(list(x.shape), _pool_k(attrs), attrs) + [x.shape[3]]), x.dtype)]
    return infer


def _check_window_dims(attrs):
    if attrs["ksize"][0] != 1:
        raise UnimplementedError(None, None, "Pooling is not yet supported on the batch dimension.")
    if attrs["ksize"][3] != 1:
        raise UnimplementedError(None, None, "Pooling is not yet supported on the batch nor depth dimensions.")


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
                    infer=lambda inputs, attrs: [Spec(TensorShape(static_sizes(inputs[0])), inputs[1].dtype)],
                    grad=lambda op, gg: (None, bind(AvgPool, (gg,), op.attrs)))

# ----------------------------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------------------------


def _pool(opdef, input, ksize, strides, padding, data_format, fn_name):
    """`fn_name` ending in "2d": the input must have rank 4 (the op's rule says so); otherwise rank 3
    is pooled as 1-D."""
    check_format(data_format)
    x = input if isinstance(input, Tensor) else as_tensor(input)
    rank = x.shape.rank
    if rank == 3 and not fn_name.endswith("2d"):  # 1-D pooling: [N, W, C] runs as [N, 1, W, C]
        k, s = four(ksize, "ksize", 1), four(strides, "strides", 1)
        attrs = {"ksize": [1, 1] + k[1:], "strides": [1, 1] + s[1:]}
        attrs.update(padding_attrs(padding, opdef.name))
        if attrs["padding"] == "EXPLICIT":
            raise ValueError("explicit padding is not supported for 1-D pooling")
        shape = x.shape.as_list()
        y = bind(opdef, (_array.reshape(x, [-1 if shape[0] is None else shape[0], 1] + [
            -1 if d is None else d for d in shape[1:]]),), attrs)
        ys = y.shape.as_list()
        return _array.reshape(y, [-1 if ys[0] is None else ys[0]] + [-1 if d is None else d for d in ys[2:]])
    if rank is not None and rank != 4 and not fn_name.endswith("2d"):
        raise ValueError(f"`{fn_name}` supports inputs of rank 3 or 4 in eagerflow; got rank {rank}")
    attrs = {"ksize": four(ksize, "ksize"), "strides": four(strides, "strides")}
    attrs.update(padding_attrs(padding, opdef.name))
    if attrs["padding"] == "EXPLICIT":
        raise ValueError(f"`{fn_name}` does not support explicit padding in eagerflow")
    _check_window_dims(attrs)
    check_strides(attrs)
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

# --- JAX lowerings (jit_compile=True, codegen/xla.py): lax.reduce_window; the gradient ops are its
# vector-Jacobian (and Jacobian-vector) products. ---


def _jax_window_args(shape, attrs):
    k = _pool_k(attrs)
    geo = geometry(shape[1:3], k, attrs)
    return ((1, k[0], k[1], 1), (1, attrs["strides"][1], attrs["strides"][2], 1),
            [(0, 0), (geo[0][1], geo[0][2]), (geo[1][1], geo[1][2]), (0, 0)], geo, k)


def _jax_max_pool(x, **attrs):
    window, strides, pads, _, _ = _jax_window_args(x.shape, attrs)
    # NOTE: the real lax.max (not the lazy stand-in): JAX recognises it and can differentiate the max window
    floor = np.array(max_pool_floor(x.dtype), x.dtype)
    if np.dtype(x.dtype).kind not in "iub":
        x = jnp.where(jnp.isnan(x), floor, x)  # NaN cells are skipped, as in the NumPy kernel
    # the -inf start keeps JAX's differentiable max-window form; the floor applies after
    start = np.array(-np.inf if np.dtype(x.dtype).kind not in "iub" else floor, x.dtype)
    return jnp.maximum(lax.reduce_window(x, start, jax_module().lax.max, window, strides, pads), floor)


def _jax_avg_pool(x, **attrs):
    window, strides, pads, geo, k = _jax_window_args(x.shape, attrs)
    total = lax.reduce_window(x, np.array(0, x.dtype), jax_module().lax.add, window, strides, pads)
    counts = np.maximum(_pool_counts(x.shape[1:3], k, geo, attrs), 1)[None, :, :, None]
    return (total / counts.astype(x.dtype)).astype(x.dtype)


def _jax_max_pool_grad(x, y, g, **attrs):
    return jax_module().vjp(lambda v: _jax_max_pool(v, **attrs), x)[1](g)[0]


def _jax_max_pool_grad_grad(x, y, gg, **attrs):
    return jax_module().jvp(lambda v: _jax_max_pool(v, **attrs), (x,), (gg,))[1]


def _jax_avg_pool_grad(orig_shape, g, **attrs):
    zeros = jnp.zeros(tuple(int(d) for d in orig_shape), g.dtype)
    return jax_module().vjp(lambda v: _jax_avg_pool(v, **attrs), zeros)[1](g)[0]


MaxPool.jax = _jax_max_pool
MaxPoolGrad.jax = _jax_max_pool_grad
MaxPoolGradGrad.jax = _jax_max_pool_grad_grad
AvgPool.jax = _jax_avg_pool
AvgPoolGrad.jax = _jax_avg_pool_grad
