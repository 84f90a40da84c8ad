"""LU factorisation (`tf.linalg.lu`, op Lu) and what is built on it: `lu_reconstruct`, `lu_solve`,
`lu_matrix_inverse`.

TensorFlow's conventions, which the three helpers rely on:
  - `lu` packs both factors in one matrix: strictly below the diagonal the unit-lower L (its ones
    not stored), on and above it U;
  - `p` lists, for each row of L @ U, the input row it came from: L @ U == a[..., p, :]
    (partial pivoting, the largest |pivot| in the column, the first one on ties, as LAPACK's getrf).
A zero pivot is TensorFlow's InvalidArgumentError "Input is not invertible.".

XLA has no Lu kernel (TensorFlow 2.21 refuses it under jit_compile), so there is no JAX lowering:
codegen/xla.py refuses the op with TensorFlow's message. The helpers are compositions of ordinary
ops (one_hot, matmul, triangular solves), so they trace, lower and differentiate like their parts.
"""
from __future__ import annotations

import collections

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, NotFoundError
from ...core.shape import TensorShape
from ..array import basic as _array
from . import matrix_parts as _parts
from .solves import _matmul, _matrix_shape, _run, triangular_solve
from ..operands import as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, defop
from ..shape_rules import check_dtype_in

Lu = collections.namedtuple("Lu", ["lu", "p"])

_INDEX_TYPES = (_dt.int32, _dt.int64)


def _lu_infer(inputs, attrs):
    x = inputs[0]
    rank = x.shape.rank  # Lu's own kernel words it without the "0" of the other ops
    s = _matrix_shape("Lu", x, eager_rank_message=f"Input tensor must have rank >= 2, got {rank}")
    index_type = attrs.get("output_idx_type", _dt.int32)
    check_dtype_in("Lu", index_type, _INDEX_TYPES, "input", attr="output_idx_type")
    if x.dtype is _dt.float16:  # listed in the op's types, but TensorFlow registers no half kernel
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node Lu}}}} = "
                                        f"Lu[T=DT_HALF, output_idx_type=DT_{index_type.name.upper()}]")
    return [Spec(s, x.dtype), Spec(TensorShape(None) if s.rank is None else s[:-1], index_type)]


def _lu_kernel(x, output_idx_type=_dt.int32):
    """Row-by-row Gaussian elimination with partial pivoting, vectorised over the batch axes."""
    n = x.shape[-1]
    batch = x.shape[:-2]
    a = np.array(x, copy=True).reshape((int(np.prod(batch)), n, n))
    perm = np.tile(np.arange(n), (a.shape[0], 1))
    rows = np.arange(a.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(a[:, k:, k]), axis=1)
        a[rows, [k] * len(rows)], a[rows, pivot] = a[rows, pivot].copy(), a[rows, [k] * len(rows)].copy()
        perm[rows, k], perm[rows, pivot] = perm[rows, pivot], perm[rows, k].copy()
        head = a[:, k, k]
        if np.any(head == 0):
            raise InvalidArgumentError(None, None, "Input is not invertible. [Op:Lu]")
        a[:, k + 1:, k] /= head[:, None]
        a[:, k + 1:, k + 1:] -= a[:, k + 1:, k, None] * a[:, None, k, k + 1:]
    return a.reshape(x.shape), perm.reshape(batch + (n,)).astype(output_idx_type.np_dtype)


def _unit_lower(lower_upper):
    strict = _parts.band_part(lower_upper, -1, 0)
    return _parts.set_diag(strict, _array.ones_like(_parts.diag_part(lower_upper)))


# TensorFlow 2.21 registers no gradient for Lu: differentiating through the factorisation is its
# LookupError. lu_solve / lu_matrix_inverse / lu_reconstruct are ordinary ops of the packed factor,
# so their gradients with respect to `lu` (and the right-hand side) exist, as in TensorFlow.
LuOp = defop("Lu", inputs=("input",), kernel=_lu_kernel, infer=_lu_infer, grad=UNREGISTERED_GRADIENT,
             multi_output=True)


def _permutation_matrix(perm, dtype):
    """P with P @ m == m[..., perm, :] (one row of the identity per entry of perm)."""
    n = perm.shape[-1] if perm.shape.rank is not None else None
    if n is None:  # known only at run time (a tf.function traced with None dimensions)
        n = _array.shape(perm)[-1]
    from ..array.sequences import one_hot
    return one_hot(perm, n, dtype=dtype)


# --- Public functions ------------------------------------------------------------------------------

def lu(input, output_idx_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's argument name
    """`tf.linalg.lu`: Lu(lu, p) with L @ U == input[..., p, :] (see the module docstring)."""
    index_type = _dt.as_dtype(output_idx_type)
    packed, perm = _run(LuOp, (as_tensor(input),), {"output_idx_type": index_type})
    return Lu(packed, perm)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """`tf.linalg.lu_reconstruct`: the matrix whose `tf.linalg.lu` is (lower_upper, perm)."""
    lower_upper = as_tensor(lower_upper)
    perm = as_tensor(perm)
    product = _matmul(_unit_lower(lower_upper), _parts.band_part(lower_upper, 0, -1))
    return _matmul(_permutation_matrix(perm, product.dtype), product, transpose_a=True)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """`tf.linalg.lu_solve`: x with input @ x == rhs, from the input's `tf.linalg.lu`."""
    lower_upper = as_tensor(lower_upper)
    rhs = as_tensor(rhs, dtype=lower_upper.dtype)
    perm = as_tensor(perm)
    n, rows = lower_upper.shape[-1], rhs.shape[-2] if rhs.shape.rank is not None else None
    if n is not None and rows is not None and n != rows:
        # TensorFlow's own words (it compares lower_upper's last axis with the rows of rhs)
        raise ValueError("`lower_upper.shape[-1]` must equal `rhs.shape[-1]`.")
    permuted = _matmul(_permutation_matrix(perm, lower_upper.dtype), rhs)
    y = triangular_solve(_unit_lower(lower_upper), permuted, lower=True)
    return triangular_solve(_parts.band_part(lower_upper, 0, -1), y, lower=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """`tf.linalg.lu_matrix_inverse`: the inverse of the matrix whose `tf.linalg.lu` is given."""
    lower_upper = as_tensor(lower_upper)
    eye = _parts.eye(_array.shape(lower_upper)[-1], batch_shape=_array.shape(lower_upper)[:-2],
                     dtype=lower_upper.dtype)
    return lu_solve(lower_upper, perm, eye)
