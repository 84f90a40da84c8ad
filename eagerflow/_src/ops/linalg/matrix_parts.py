"""Bands of matrices (`tf.linalg.band_part`), and what is composed from diagonals and matmul:
`tf.eye`, `tf.linalg.trace`, `tf.linalg.matvec`. The diagonal ops themselves are in ops/linalg/diagonals.py
(re-exported here for the modules that reach them through this one).
"""
from __future__ import annotations

import numbers

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.tensor import Tensor
from ..operands import as_tensor
from ..validation import check_rule
from ..registry import Spec, bind, defop, static_value
from .diagonals import diag, diag_part, set_diag  # noqa: F401
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from . import matmul as _matmul
from ..math import reduce as _reduce
from ..array import sequences as _sequences
from ..lazy_jax import jnp  # callables that import JAX on first use only


def _err(message):
    return InvalidArgumentError(None, None, message)


# --- MatrixBandPart -------------------------------------------------------------------------------

def _matrix_rank_check(s, what="input"):
    if s.rank is not None and s.rank < 2:
        raise _err(f"{what} must be at least 2-dim, received shape: {s.as_list()}")


def _check_band(rows, cols, lo, hi):
    if rows is not None and lo > rows:
        raise _err(f"num_lower must be negative or less or equal to number of rows ({rows}) got: {lo}")
    if cols is not None and hi > cols:
        raise _err(f"num_upper must be negative or less or equal to number of columns ({cols}) got: {hi}")


def _band_kernel(x, num_lower, num_upper):
    lo, hi = int(num_lower), int(num_upper)
    m, n = x.shape[-2], x.shape[-1]
    _check_band(m, n, lo, hi)
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((lo < 0) | (i - j <= lo)) & ((hi < 0) | (j - i <= hi))
    return np.where(keep, x, np.zeros((), x.dtype))


def _band_infer(inputs, attrs):
    x, lo, hi = inputs
    _matrix_rank_check(x.shape)
    lo_v, hi_v = static_value(lo), static_value(hi)
    if x.shape.rank is not None and lo_v is not None and hi_v is not None:
        _check_band(x.shape[-2], x.shape[-1], int(lo_v), int(hi_v))
    return [Spec(x.shape, x.dtype)]


MatrixBandPart = defop(
    "MatrixBandPart", inputs=("input", "num_lower", "num_upper"), kernel=_band_kernel, infer=_band_infer,
    grad=lambda op, g: (bind(MatrixBandPart, (g, op.inputs[1], op.inputs[2])), None, None))


# --- Public functions ------------------------------------------------------------------------------

def _run(opdef, inputs, attrs):
    check_rule(opdef, inputs, attrs)
    return bind(opdef, inputs, attrs)


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """`tf.linalg.band_part`: keeps `num_lower` sub- and `num_upper` super-diagonals (negative:
    the whole triangle); zeros elsewhere."""
    x = as_tensor(input)
    lo = as_tensor(num_lower, _dt.int64)
    hi = as_tensor(num_upper, _dt.int64)
    return _run(MatrixBandPart, (x, lo, hi), {})


def trace(x, name=None):
    """`tf.linalg.trace`: the sum of the main diagonal of each matrix."""
    return _reduce.reduce_sum(diag_part(x), axis=-1)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """`tf.linalg.matvec`: matrix times vector, batched (`a` [..., M, N], `b` [..., N])."""
    a = as_tensor(a)
    b = as_tensor(b, a.dtype)
    product = _matmul.matmul(a, _array.expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return _array.squeeze(product, axis=-1)


def _static_size(value):
    """An int when the size is known while building (a Python int, an eager or constant tensor)."""
    v = static_value(value) if isinstance(value, Tensor) else value
    return None if v is None else int(v)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dt.float32, name=None):
    """`tf.eye`: identity matrices, `num_rows` x `num_columns`, stacked to `batch_shape`. Sizes known
    only at run time (`tf.eye(tf.shape(x)[0])` in a tf.function) build it by comparing two ranges."""
    dtype = _dt.as_dtype(dtype)
    shown_columns = num_rows if num_columns is None else num_columns
    if any(not isinstance(n, (Tensor, numbers.Integral)) and not hasattr(type(n), "_as_tensor")
           for n in (num_rows, shown_columns)):
        raise TypeError(f"Arguments `num_rows` and `num_columns` must be positive integer values. Received: "
                        f"num_rows={num_rows}, num_columns={shown_columns}")
    rows = _static_size(num_rows)
    cols = rows if num_columns is None else _static_size(num_columns)
    batch_value = static_value(batch_shape) if isinstance(batch_shape, Tensor) else batch_shape
    if rows is None or cols is None or (batch_shape is not None and batch_value is None):
        return _dynamic_eye(num_rows, num_rows if num_columns is None else num_columns, batch_shape, dtype)
    batch = [] if batch_shape is None else [int(d) for d in np.ravel(np.asarray(batch_value))]
    ones = _array.ones(batch + [min(rows, cols)] if rows >= 0 and cols >= 0 else [min(rows, cols)], dtype=dtype)
    return diag(ones, num_rows=rows, num_cols=cols)


def _dynamic_eye(num_rows, num_columns, batch_shape, dtype):
    i = _array.expand_dims(_sequences.range(as_tensor(num_rows, _dt.int32)), -1)
    j = _array.expand_dims(_sequences.range(as_tensor(num_columns, _dt.int32)), 0)
    out = _math.cast(_math.equal(i, j), dtype)
    if batch_shape is None:
        return out
    shape = _joining.concat([_math.cast(as_tensor(batch_shape), _dt.int32), _array.shape(out)], axis=0)
    return _array.broadcast_to(out, shape)


def eye_like(matrix):
    """The identity of a square matrix's size and dtype (used by gradient rules)."""
    n = matrix.shape[-1] if matrix.shape.rank is not None else None
    return eye(_array.shape(matrix)[-1] if n is None else n, dtype=matrix.dtype)


# --- JAX lowering (jit_compile=True, codegen/xla.py); the band limits are known at trace time ---


def _jax_band(x, num_lower, num_upper):
    lo, hi = int(num_lower), int(num_upper)
    i, j = np.arange(x.shape[-2])[:, None], np.arange(x.shape[-1])[None, :]
    keep = ((lo < 0) | (i - j <= lo)) & ((hi < 0) | (j - i <= hi))
    return jnp.where(keep, x, jnp.zeros((), x.dtype))


MatrixBandPart.jax = _jax_band
