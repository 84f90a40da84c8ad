"""`tf.linalg.banded_triangular_solve` (op BandedTriangularSolve): a triangular solve with the matrix
given by its K bands, [..., K, N], in TensorFlow's layout, which is the LEFT_RIGHT packing of
`tf.linalg.diag_part`:
  - lower: row 0 is the diagonal, row k the k-th subdiagonal, right-aligned (A[i, i-k] = bands[k, i]);
  - upper: the last row is the diagonal, row K-1-k the k-th superdiagonal, left-aligned
    (A[i, i+k] = bands[K-1-k, i]).
Band entries that fall outside the matrix are ignored, and so are bands beyond the N-th.
The gradient is TensorFlow's: a banded solve with the adjoint for the rhs, and the dense matrix
gradient read back in band form with diag_part. XLA has no kernel for it (TF 2.21 refuses it under
jit_compile): no JAX lowering.
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from .solves import _LINALG_TYPES, _run, building_graph
from ..operands import as_tensor
from ..registry import Spec, defop
from . import diagonals as _diagonals
from . import solves as _linalg
from ..math import elementwise as _math
from . import matmul as _matmul


def _err(message):
    return InvalidArgumentError(None, None, message)


def _banded_infer(inputs, attrs):
    bands, rhs = inputs
    R.check_dtype_in("BandedTriangularSolve", bands.dtype, _LINALG_TYPES, "matrix")
    R.check_same_dtype("BandedTriangularSolve", inputs)
    sa, sb = bands.shape, rhs.shape
    if sa.rank is None or sb.rank is None:
        return [Spec(TensorShape(None), bands.dtype)]
    graph = building_graph(bands, rhs)  # TensorFlow's shape function words these differently
    for i, s in enumerate((sa, sb)):
        if s.rank < 2:
            raise _err(f"Shape must be at least rank 2 but is rank {s.rank}" if graph
                       else f"In[{i}] ndims must be >= 2: {s.rank}")
    n, rows = sa[-1], sb[-2]
    if n is not None and rows is not None and n != rows:
        if graph:
            raise _err(f"Dimensions must be equal, but are {n} and {rows}")
        raise _err(f"In[0] mismatch In[1] shape: {n} vs. {rows}: {R.fmt_dims(sa)} {R.fmt_dims(sb)} "
                   f"{int(attrs.get('lower', True))} {int(attrs.get('adjoint', False))}")
    try:
        batch = R.broadcast_shape(sa[:-2], sb[:-2])
    except InvalidArgumentError:
        raise _err(f"In[0] and In[1] must have compatible batch dimensions: {R.fmt_dims(sa)} vs. "
                   f"{R.fmt_dims(sb)}") from None
    return [Spec(batch.concatenate([n if n is not None else rows, sb[-1]]), bands.dtype)]


def _dense_from_bands(bands, lower):
    """The N x N triangular matrix the bands describe (see the module docstring)."""
    k_count, n = bands.shape[-2], bands.shape[-1]
    a = np.zeros(bands.shape[:-2] + (n, n), bands.dtype)
    for k in range(min(k_count, n)):
        i = np.arange(k, n) if lower else np.arange(0, n - k)
        if lower:
            a[..., i, i - k] = bands[..., k, i]
        else:
            a[..., i, i + k] = bands[..., k_count - 1 - k, i]
    return a


def _banded_kernel(bands, rhs, lower=True, adjoint=False):
    a = _dense_from_bands(bands, lower)
    if a.shape[-1] and np.any(np.diagonal(a, axis1=-2, axis2=-1) == 0):
        raise _err("Input matrix is not invertible.")
    if adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    rhs = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    with np.errstate(all="ignore"):
        return np.linalg.solve(a, rhs).astype(bands.dtype) if a.shape[-1] else np.array(rhs, copy=True)


def _banded_grad(op, g):
    bands, rhs = op.inputs
    x = op.outputs[0]
    lower, adjoint = op.attrs.get("lower", True), op.attrs.get("adjoint", False)
    grad_rhs = banded_triangular_solve(bands, g, lower=lower, adjoint=not adjoint)
    x_h, grad_rhs_h = _linalg.adjoint(x), _linalg.adjoint(grad_rhs)
    dense = -_matmul.matmul(x, grad_rhs_h) if adjoint else -_matmul.matmul(grad_rhs, x_h)
    k_count = bands.shape[-2]
    if k_count is None:
        raise NotImplementedError("BandedTriangularSolve's gradient needs a known number of bands")
    band = (-(k_count - 1), 0) if lower else (0, k_count - 1)
    grad_bands = _diagonals.diag_part(dense, k=band, align="LEFT_RIGHT")
    return _math.sum_to(grad_bands, bands), _math.sum_to(grad_rhs, rhs)


BandedTriangularSolve = defop("BandedTriangularSolve", inputs=("matrix", "rhs"), kernel=_banded_kernel,
                              infer=_banded_infer, grad=_banded_grad)


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """`tf.linalg.banded_triangular_solve`: x with A @ x == rhs (or adjoint(A) @ x), A given by bands."""
    bands = as_tensor(bands)
    rhs = as_tensor(rhs)
    return _run(BandedTriangularSolve, (bands, rhs), {"lower": bool(lower), "adjoint": bool(adjoint)})


