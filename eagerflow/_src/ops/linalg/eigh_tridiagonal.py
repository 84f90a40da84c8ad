"""`tf.linalg.eigh_tridiagonal`: eigenvalues (and optionally eigenvectors) of one Hermitian
tridiagonal matrix, main diagonal `alpha` [n] and superdiagonal `beta` [n-1] (the subdiagonal is
conj(beta)).

TensorFlow's implementation is Python (bisection, then inverse iteration for the vectors); ours is
a composition of ordinary ops: the dense matrix built with `tf.linalg.diag`, then the self-adjoint
eigendecomposition (SelfAdjointEigV2). The eigenvalues are the same, ascending and real (float64 for
complex128 input); eigenvectors, as columns, are unique up to a phase. Being ordinary ops, it traces,
lowers under jit_compile and differentiates through eigh.
`select`: 'a' all, 'i' the indices select_range[0]..select_range[1] inclusive, 'v' the values in the
half-open interval (select_range[0], select_range[1]].
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from .. import shape_rules as R
from ..operands import as_tensor
from ..array import basic as _array
from ..math import complex as _complex
from . import decompositions as _decompositions
from . import diagonals as _diagonals
from ..math import elementwise as _math
from ..array import slicing as _slicing


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """`tf.linalg.eigh_tridiagonal` (see the module docstring)."""
    if select not in ("a", "i", "v"):
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")  # TensorFlow's text, stray quote too
    alpha = as_tensor(alpha)
    beta = as_tensor(beta, dtype=alpha.dtype)
    if not (alpha.dtype.is_floating or alpha.dtype.is_complex):
        raise ValueError(f"data type <class 'numpy.{alpha.dtype.np_dtype.name}'> not inexact")
    n, m = alpha.shape, beta.shape
    if n.rank is not None and m.rank is not None and (
            n.rank != 1 or m.rank != 1 or (n[0] is not None and m[0] is not None and m[0] != max(n[0] - 1, 0))):
        raise InvalidArgumentError(None, None, f"Incompatible shapes: {R.fmt_dims(n)} vs. {R.fmt_dims(m)}")
    matrix = _diagonals.diag(alpha)
    if n[0] is None or n[0] > 1:
        matrix = matrix + _diagonals.diag(beta, k=1) + _diagonals.diag(_math.conj(beta), k=-1)
    values, vectors = _decompositions.eigh(matrix)
    if alpha.dtype.is_complex:
        values = _complex.real(values)
    if select == "i":
        lo, hi = (int(np.asarray(_value(b))) for b in select_range)
        values, vectors = values[lo:hi + 1], vectors[:, lo:hi + 1]
    elif select == "v":
        lo, hi = (as_tensor(b, dtype=values.dtype) for b in select_range)
        keep = _math.logical_and(_math.greater(values, lo), _math.less_equal(values, hi))
        columns = _slicing.boolean_mask(_array.transpose(vectors), keep)  # the kept eigenvectors, as rows
        values, vectors = _slicing.boolean_mask(values, keep), _array.transpose(columns)
    return values if eigvals_only else (values, vectors)


def _value(x):
    return x.numpy() if hasattr(x, "numpy") else x


