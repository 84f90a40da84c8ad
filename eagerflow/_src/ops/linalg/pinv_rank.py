"""`tf.linalg.pinv` and `tf.linalg.matrix_rank`: both read the singular values (SVD), composed from
ops so they trace and differentiate through the decomposition."""
from __future__ import annotations

import numpy as np

from ..operands import as_tensor
from ..array import basic as _array
from . import decompositions as _decompositions
from ..math import elementwise as _math
from . import matmul as _matmul
from ..math import reduce as _reduce


def pinv(a, rcond=None, validate_args=False, name=None):
    """`tf.linalg.pinv`: the Moore-Penrose pseudo-inverse through the SVD; singular values below
    rcond * max(s) count as zero (rcond defaults to 10 * max(m, n) * eps, as in TensorFlow)."""
    x = as_tensor(a)
    m, n = x.shape[-2], x.shape[-1]
    if rcond is None:
        rcond = 10.0 * max(m, n) * np.finfo(x.dtype.np_dtype).eps
    s, u, v = _decompositions.svd(x)
    cutoff = as_tensor(rcond, x.dtype) * _reduce.reduce_max(s, axis=-1, keepdims=True)
    keep = _math.greater(s, cutoff)
    s_inv = _array.where(keep, _array.ones_like(s) / _array.where(keep, s, _array.ones_like(s)), _array.zeros_like(s))
    return _matmul.matmul(v * _array.expand_dims(s_inv, -2), u, transpose_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """`tf.linalg.matrix_rank`: the number of singular values above `tol` (default
    max(s) * max(m, n) * eps), as int32."""
    x = as_tensor(a)
    s = _decompositions.svd(x, compute_uv=False)
    if tol is None:
        eps = np.finfo(x.dtype.np_dtype).eps
        tol = _reduce.reduce_max(s, axis=-1, keepdims=True) * as_tensor(max(x.shape[-2], x.shape[-1]) * eps, x.dtype)
    else:
        tol = as_tensor(tol, x.dtype)
    from ...core import dtypes as _dt
    return _reduce.reduce_sum(_math.cast(_math.greater(s, tol), _dt.int32), axis=-1)
