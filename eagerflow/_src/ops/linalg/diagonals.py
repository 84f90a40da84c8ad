"""Diagonals of matrices: `tf.linalg.diag` (MatrixDiagV3), `diag_part` (MatrixDiagPartV3) and
`set_diag` (MatrixSetDiagV3), for one diagonal `k` or a band of them, `k=(low, high)`; and
`tensor_diag` / `tensor_diag_part`, the same on rank-2k tensors (composed from diag and reshape).

A band is stored as rows, from diagonal `high` down to `low`, each `max_diag_len` long; a diagonal
shorter than that is padded on one side, chosen by `align` ("RIGHT_LEFT": superdiagonals padded on the
left, subdiagonals on the right, TensorFlow's default). Offsets and sizes are attributes (TensorFlow
passes them as tensors), so they must be known when the op is built.
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..operands import as_tensor
from ..validation import check_rule
from ..registry import Spec, bind, defop, static_value
from ..array import basic as _array
from ..lazy_jax import jnp  # callables that import JAX on first use only

_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _err(message):
    return InvalidArgumentError(None, None, message)


def _offsets(k):
    """(low, high) from a scalar k or a pair; TensorFlow's error when low > high."""
    v = static_value(k) if isinstance(k, Tensor) else k
    if v is None:
        raise NotImplementedError("the diagonal offset k must be known when the op is built")
    v = np.ravel(np.asarray(v))
    lo, hi = (int(v[0]), int(v[0])) if v.size == 1 else (int(v[0]), int(v[1]))
    if lo > hi:
        raise _err(f"lower_diag_index must not be larger than upper_diag_index: {lo} > {hi}")
    return lo, hi


def _check_offsets(m, n, lo, hi):
    for which, d in (("lower", lo), ("upper", hi)):
        if m is not None and n is not None and d != 0 and not -m < d < n:
            raise _err(f"{which}_diag_index is out of bound: {d}. It must be between {-m} and {n}")


def _positions(rows, cols, d):
    """Row and column indices of diagonal d of a rows x cols matrix."""
    i = np.arange(max(0, min(rows + min(d, 0), cols - max(d, 0))))
    return i - min(d, 0), i + max(d, 0)


def _max_len(rows, cols, lo, hi):
    return max(0, min(rows + min(hi, 0), cols - max(lo, 0)))


def _pad_front(d, length, max_len, align):
    """How many padding entries come before diagonal d's values in its row."""
    sup, sub = align.split("_")
    left = (d >= 0 and sup == "LEFT") or (d <= 0 and sub == "LEFT")
    return 0 if left else max_len - length


def _attrs(lo, hi, align, **more):
    if align not in _ALIGNS:
        raise ValueError(f"align must be one of {list(_ALIGNS)}, got {align!r}")
    return {"lower": lo, "upper": hi, "align": align, **more}


# --- MatrixDiagPartV3 -------------------------------------------------------------------------------

def _diag_part_kernel(x, lower=0, upper=0, align="RIGHT_LEFT", padding_value=0):
    m, n = x.shape[-2], x.shape[-1]
    _check_offsets(m, n, lower, upper)
    max_len = _max_len(m, n, lower, upper)
    out = np.full(x.shape[:-2] + (upper - lower + 1, max_len), padding_value, dtype=x.dtype)
    for j, d in enumerate(range(upper, lower - 1, -1)):
        r, c = _positions(m, n, d)
        front = _pad_front(d, len(r), max_len, align)
        out[..., j, front:front + len(r)] = x[..., r, c]
    return out if lower != upper else out[..., 0, :]


def _diag_part_infer(inputs, attrs):
    x = inputs[0]
    s = x.shape
    if s.rank is not None and s.rank < 2:
        raise _err(f"input must be at least 2-dim, received shape: {s.as_list()}")
    if s.rank is None:
        return [Spec(s, x.dtype)]
    lo, hi = attrs.get("lower", 0), attrs.get("upper", 0)
    m, n = s[-2], s[-1]
    _check_offsets(m, n, lo, hi)
    length = None if m is None or n is None else _max_len(m, n, lo, hi)
    band = [] if lo == hi else [hi - lo + 1]
    return [Spec(s[:-2].concatenate(band + [length]), x.dtype)]


def _band_k(op):
    lo, hi = op.attrs.get("lower", 0), op.attrs.get("upper", 0)
    return (lo, hi), op.attrs.get("align", "RIGHT_LEFT")


MatrixDiagPartV3 = defop(
    "MatrixDiagPartV3", inputs=("input",), kernel=_diag_part_kernel, infer=_diag_part_infer,
    grad=lambda op, g: set_diag(_array.zeros_like(op.inputs[0]), g, k=_band_k(op)[0], align=_band_k(op)[1]))


# --- MatrixDiagV3 ------------------------------------------------------------------------------------

def _diag_sizes(max_len, lo, hi, num_rows, num_cols):
    """TensorFlow's output size: the smallest matrix holding the band, square when no size is given."""
    min_rows, min_cols = max_len - min(hi, 0), max_len + max(lo, 0)
    if num_rows < 0 and num_cols < 0:
        size = max(min_rows, min_cols)
        return size, size
    return (num_rows if num_rows >= 0 else min_rows), (num_cols if num_cols >= 0 else min_cols)


def _check_diag_sizes(rows, cols, lo, hi, max_len):
    if _max_len(rows, cols, lo, hi) != max_len:
        raise _err("The number of rows or columns is not consistent with the specified d_lower, d_upper, and "
                   "diagonal.")


def _diag_kernel(d, lower=0, upper=0, align="RIGHT_LEFT", num_rows=-1, num_cols=-1, padding_value=0):
    band = d if lower != upper else d[..., None, :]
    if band.shape[-2] != upper - lower + 1:
        raise _err(f"The number of diagonals provided in the input does not match the lower_diag_index and "
                   f"upper_diag_index range. Expected {upper - lower + 1} but got {band.shape[-2]}")
    max_len = band.shape[-1]
    rows, cols = _diag_sizes(max_len, lower, upper, num_rows, num_cols)
    _check_diag_sizes(rows, cols, lower, upper, max_len)
    out = np.full(band.shape[:-2] + (rows, cols), padding_value, dtype=d.dtype)
    for j, k in enumerate(range(upper, lower - 1, -1)):
        r, c = _positions(rows, cols, k)
        front = _pad_front(k, len(r), max_len, align)
        out[..., r, c] = band[..., j, front:front + len(r)]
    return out


def _diag_infer(inputs, attrs):
    d = inputs[0]
    s = d.shape
    lo, hi = attrs.get("lower", 0), attrs.get("upper", 0)
    need = 1 if lo == hi else 2
    if s.rank is not None and s.rank < need:
        raise _err(f"diagonal must be at least {need}-dim, received shape: {s.as_list()}")
    if s.rank is None:
        return [Spec(TensorShape(None), d.dtype)]
    batch = s[:-need]
    if s[-1] is None:
        return [Spec(batch.concatenate([None, None]), d.dtype)]
    rows, cols = _diag_sizes(s[-1], lo, hi, attrs.get("num_rows", -1), attrs.get("num_cols", -1))
    _check_diag_sizes(rows, cols, lo, hi, s[-1])
    return [Spec(batch.concatenate([rows, cols]), d.dtype)]


MatrixDiagV3 = defop(
    "MatrixDiagV3", inputs=("diagonal",), kernel=_diag_kernel, infer=_diag_infer,
    grad=lambda op, g: diag_part(g, k=_band_k(op)[0], align=_band_k(op)[1]))


# --- MatrixSetDiagV3 ------------------------------------------------------------------------------------

def _set_diag_kernel(x, d, lower=0, upper=0, align="RIGHT_LEFT"):
    m, n = x.shape[-2], x.shape[-1]
    _check_offsets(m, n, lower, upper)
    band = d if lower != upper else d[..., None, :]
    max_len = _max_len(m, n, lower, upper)
    if band.shape[-2:] != (upper - lower + 1, max_len):
        raise ValueError(f"diagonal of shape {list(d.shape)} for a band of shape {[upper - lower + 1, max_len]}")
    out = x.copy()
    for j, k in enumerate(range(upper, lower - 1, -1)):
        r, c = _positions(m, n, k)
        front = _pad_front(k, len(r), max_len, align)
        out[..., r, c] = band[..., j, front:front + len(r)]
    return out


def _set_diag_infer(inputs, attrs):
    x, d = inputs
    want = _diag_part_infer((x,), attrs)[0].shape
    if want.rank is not None and d.shape.rank is not None and not want.is_compatible_with(d.shape):
        raise _err(f"diagonal must have shape {want.as_list()}, got {d.shape.as_list()}")
    if d.dtype is not x.dtype:
        raise _err(f"diagonal has dtype {d.dtype.name}, the input {x.dtype.name}")
    return [Spec(x.shape, x.dtype)]


MatrixSetDiagV3 = defop(
    "MatrixSetDiagV3", inputs=("input", "diagonal"), kernel=_set_diag_kernel, infer=_set_diag_infer,
    grad=lambda op, g: (set_diag(g, _array.zeros_like(op.inputs[1]), k=_band_k(op)[0], align=_band_k(op)[1]),
                        diag_part(g, k=_band_k(op)[0], align=_band_k(op)[1])))


# --- Public functions ------------------------------------------------------------------------------------

def _run(opdef, inputs, attrs):
    check_rule(opdef, inputs, attrs)
    return bind(opdef, inputs, attrs)


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """`tf.linalg.diag`: (a batch of) matrices with `diagonal` on diagonal k (or the band k=(low,
    high)), `padding_value` elsewhere."""
    lo, hi = _offsets(k)
    attrs = _attrs(lo, hi, align, num_rows=int(num_rows), num_cols=int(num_cols))
    if padding_value != 0:
        attrs["padding_value"] = padding_value
    return _run(MatrixDiagV3, (as_tensor(diagonal),), attrs)


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """`tf.linalg.diag_part`: diagonal k (or the band k=(low, high)) of each matrix."""
    lo, hi = _offsets(k)
    attrs = _attrs(lo, hi, align)
    if padding_value != 0:
        attrs["padding_value"] = padding_value
    return _run(MatrixDiagPartV3, (as_tensor(input),), attrs)


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """`tf.linalg.set_diag`: `input` with diagonal k (or the band k=(low, high)) replaced."""
    x = as_tensor(input)
    lo, hi = _offsets(k)
    return _run(MatrixSetDiagV3, (x, as_tensor(diagonal, x.dtype)), _attrs(lo, hi, align))


def tensor_diag(diagonal, name=None):
    """`tf.linalg.tensor_diag`: a rank-2k tensor with `diagonal` (rank k) on its diagonal."""
    d = as_tensor(diagonal)
    shape = d.shape.as_list()
    if None in shape:
        raise NotImplementedError("tf.linalg.tensor_diag needs a fully known shape")
    size = int(np.prod(shape))
    flat = diag(_array.reshape(d, [size]))
    return _array.reshape(flat, shape + shape)


def tensor_diag_part(input, name=None):  # noqa: A002
    """`tf.linalg.tensor_diag_part`: the diagonal of a rank-2k tensor of shape s + s."""
    x = as_tensor(input)
    shape = x.shape.as_list()
    k = len(shape) // 2
    if None in shape or len(shape) % 2 or shape[:k] != shape[k:]:
        raise ValueError(f"tensor_diag_part needs a fully known shape of the form s + s, got {shape}")
    size = int(np.prod(shape[:k]))
    return _array.reshape(diag_part(_array.reshape(x, [size, size])), shape[:k])


# --- JAX lowerings (jit_compile=True, codegen/xla.py): the kernels' loops over the band, with
# gathers and scatters at the same (static) positions. ---


def _jax_diag_part(x, lower=0, upper=0, align="RIGHT_LEFT", padding_value=0):
    m, n = x.shape[-2], x.shape[-1]
    max_len = _max_len(m, n, lower, upper)
    out = jnp.full(x.shape[:-2] + (upper - lower + 1, max_len), padding_value, dtype=x.dtype)
    for j, d in enumerate(range(upper, lower - 1, -1)):
        r, c = _positions(m, n, d)
        front = _pad_front(d, len(r), max_len, align)
        out = out.at[..., j, front:front + len(r)].set(x[..., r, c])
    return out if lower != upper else out[..., 0, :]


def _jax_fill_band(out, d, lower, upper, align):
    """`out` with the band `d` (one diagonal per row, padded by `align`) written on its diagonals."""
    band = d if lower != upper else d[..., None, :]
    rows, cols = out.shape[-2], out.shape[-1]
    max_len = band.shape[-1]
    for j, k in enumerate(range(upper, lower - 1, -1)):
        r, c = _positions(rows, cols, k)
        front = _pad_front(k, len(r), max_len, align)
        out = out.at[..., r, c].set(band[..., j, front:front + len(r)])
    return out


def _jax_diag(d, lower=0, upper=0, align="RIGHT_LEFT", num_rows=-1, num_cols=-1, padding_value=0):
    batch = d.shape[:-1] if lower == upper else d.shape[:-2]
    rows, cols = _diag_sizes(d.shape[-1], lower, upper, num_rows, num_cols)
    return _jax_fill_band(jnp.full(batch + (rows, cols), padding_value, dtype=d.dtype), d, lower, upper, align)


MatrixDiagPartV3.jax = _jax_diag_part
MatrixDiagV3.jax = _jax_diag
MatrixSetDiagV3.jax = lambda x, d, lower=0, upper=0, align="RIGHT_LEFT": _jax_fill_band(
    jnp.asarray(x), d, lower, upper, align)
