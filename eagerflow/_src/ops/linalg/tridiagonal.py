"""Tridiagonal systems (`tf.linalg.tridiagonal_solve`, `tf.linalg.tridiagonal_matmul`): ops
TridiagonalSolve and TridiagonalMatMul, with TensorFlow's gradient rules.

Diagonals come in TensorFlow's compact form [..., 3, M]: the superdiagonal (its last entry unused),
the main diagonal, the subdiagonal (its first entry unused). With partial pivoting (the default) a
solve is a dense LU solve per matrix; without, it is the Thomas algorithm, which gives NaN on a zero
pivot as TensorFlow's does.
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop
from ..array import basic as _array_ops
from . import diagonals as _diagonals
from ..array import joining as _joining
from . import solves as _linalg
from ..math import elementwise as _math
from ..array import padding as _padding
from ..math import reduce as _reduce
from ..lazy_jax import jnp  # callables that import JAX on first use only


def _dense(diags):
    sup, main, sub = diags[..., 0, :], diags[..., 1, :], diags[..., 2, :]
    m = main.shape[-1]
    a = np.zeros(main.shape + (m,), np.result_type(diags.dtype, np.float32))
    idx = np.arange(m)
    a[..., idx, idx] = main
    a[..., idx[:-1], idx[:-1] + 1] = sup[..., :-1]
    a[..., idx[1:], idx[1:] - 1] = sub[..., 1:]
    return a


def _thomas(diags, rhs):
    sup, main, sub = (diags[..., i, :].astype(np.float64 if diags.dtype.kind == "f" else diags.dtype)
                      for i in range(3))
    m = main.shape[-1]
    c, d = np.zeros_like(sup), np.zeros(rhs.shape, np.result_type(rhs.dtype, sup.dtype))
    with np.errstate(divide="ignore", invalid="ignore"):
        c[..., 0] = sup[..., 0] / main[..., 0]
        d[..., 0, :] = rhs[..., 0, :] / main[..., 0, None]
        for i in range(1, m):
            denom = main[..., i] - sub[..., i] * c[..., i - 1]
            c[..., i] = sup[..., i] / denom
            d[..., i, :] = (rhs[..., i, :] - sub[..., i, None] * d[..., i - 1, :]) / denom[..., None]
        x = np.empty_like(d)
        x[..., m - 1, :] = d[..., m - 1, :]
        for i in range(m - 2, -1, -1):
            x[..., i, :] = d[..., i, :] - c[..., i, None] * x[..., i + 1, :]
    return x


def _solve_kernel(diagonals, rhs, partial_pivoting=True, perturb_singular=False):
    if diagonals.shape[-1] == 0:
        return rhs.copy()
    if not partial_pivoting:
        return _thomas(diagonals, rhs).astype(rhs.dtype, copy=False)
    try:
        return np.linalg.solve(_dense(diagonals), rhs).astype(rhs.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError(None, None, "The matrix is not invertible.") from None


def _solve_infer(inputs, attrs):
    diags, rhs = inputs
    R.check_same_dtype("TridiagonalSolve", inputs)
    R.check_dtype_in("TridiagonalSolve", diags.dtype, R.FLOAT_COMPLEX[1:], "diagonals")
    return [Spec(rhs.shape, rhs.dtype)]


def _transposed(diags):
    """The diagonals of A^T: the super- and subdiagonals swap, shifted by one."""
    sup, main, sub = diags[..., 0, :], diags[..., 1, :], diags[..., 2, :]
    rank = diags.shape.rank
    pad_right = [[0, 0]] * (rank - 2) + [[0, 1]]
    pad_left = [[0, 0]] * (rank - 2) + [[1, 0]]
    return _joining.stack([_padding.pad(sub[..., 1:], pad_right), main, _padding.pad(sup[..., :-1], pad_left)], -2)


def _three_diagonals_of_product(x, y):
    """The compact diagonals of x @ adjoint(y), for [..., M, K] x and y (the diagonals' gradient)."""
    rank = x.shape.rank
    main = _reduce.reduce_sum(x * y, -1)
    sup = _reduce.reduce_sum(x[..., :-1, :] * y[..., 1:, :], -1)
    sub = _reduce.reduce_sum(x[..., 1:, :] * y[..., :-1, :], -1)
    pad_right = [[0, 0]] * (rank - 2) + [[0, 1]]
    pad_left = [[0, 0]] * (rank - 2) + [[1, 0]]
    return _joining.stack([_padding.pad(sup, pad_right), main, _padding.pad(sub, pad_left)], -2)


def _solve_grad(op, g):
    """TensorFlow's rule: grad_rhs solves A^T z = g; grad_diagonals = -diagonals of z x^T."""
    diags = op.inputs[0]
    grad_rhs = bind(TridiagonalSolve, (_transposed(diags), g), op.attrs)
    return -_three_diagonals_of_product(grad_rhs, op.outputs[0]), grad_rhs


TridiagonalSolve = defop("TridiagonalSolve", inputs=("diagonals", "rhs"), kernel=_solve_kernel, infer=_solve_infer,
                         grad=_solve_grad)


def _matmul_kernel(superdiag, maindiag, subdiag, rhs):
    sup, main, sub = superdiag[..., 0, :, None], maindiag[..., 0, :, None], subdiag[..., 0, :, None]
    out = main * rhs
    out[..., :-1, :] += sup[..., :-1, :] * rhs[..., 1:, :]
    out[..., 1:, :] += sub[..., 1:, :] * rhs[..., :-1, :]
    return out.astype(rhs.dtype, copy=False)


def _matmul_infer(inputs, attrs):
    R.check_same_dtype("TridiagonalMatMul", inputs)
    R.check_dtype_in("TridiagonalMatMul", inputs[0].dtype, R.FLOAT_COMPLEX[1:], "superdiag")
    return [Spec(inputs[3].shape, inputs[3].dtype)]


def _shift_up(x):
    """x[i] <- x[i + 1] along axis -2, zero last."""
    rank = x.shape.rank
    return _padding.pad(x[..., 1:, :], [[0, 0]] * (rank - 2) + [[0, 1], [0, 0]])


def _shift_down(x):
    rank = x.shape.rank
    return _padding.pad(x[..., :-1, :], [[0, 0]] * (rank - 2) + [[1, 0], [0, 0]])


def _matmul_grad(op, g):
    """y[i] = sup[i] rhs[i+1] + main[i] rhs[i] + sub[i] rhs[i-1]: each input's share (TensorFlow's rule)."""
    sup, main, sub, rhs = op.inputs
    rhs_c = _math.conj(rhs) if rhs.dtype.is_complex else rhs

    def as_column(d):
        col = _linalg.matrix_transpose(d)
        return _math.conj(col) if d.dtype.is_complex else col

    def as_row(v):
        return _array_ops.expand_dims(v, -2)
    grad_sup = as_row(_reduce.reduce_sum(_shift_up(rhs_c) * g, -1))
    grad_main = as_row(_reduce.reduce_sum(rhs_c * g, -1))
    grad_sub = as_row(_reduce.reduce_sum(_shift_down(rhs_c) * g, -1))
    grad_rhs = _shift_down(as_column(sup) * g) + as_column(main) * g + _shift_up(as_column(sub) * g)
    return grad_sup, grad_main, grad_sub, grad_rhs


TridiagonalMatMul = defop("TridiagonalMatMul", inputs=("superdiag", "maindiag", "subdiag", "rhs"),
                          kernel=_matmul_kernel, infer=_matmul_infer, grad=_matmul_grad)


def _compact(diagonals, diagonals_format):
    if diagonals_format == "compact":
        d = as_tensor(diagonals)
        if d.shape.rank is not None and d.shape.rank >= 2 and d.shape[-2] not in (None, 3):
            raise ValueError(f"Expected 3 diagonals got {d.shape[-2]}")
        return d
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        return _joining.stack([as_tensor(v) for v in diagonals], -2)
    if diagonals_format == "matrix":
        m = as_tensor(diagonals)
        return _diagonals.diag_part(m, k=(-1, 1), align="LEFT_RIGHT")
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    """`tf.linalg.tridiagonal_solve`: x with A x = rhs for tridiagonal A (see the module docstring)."""
    d = _compact(diagonals, diagonals_format)
    r = as_tensor(rhs, d.dtype)
    if transpose_rhs:
        r = _linalg.matrix_transpose(r) if r.shape.rank != 1 else r
    if conjugate_rhs and r.dtype.is_complex:
        r = _math.conj(r)
    vector = r.shape.rank == d.shape.rank - 1
    if vector:
        r = _array_ops.expand_dims(r, -1)
    if d.shape.rank is not None and r.shape.rank is not None:
        m_lhs, m_rhs = d.shape[-1], r.shape[-2]
        if m_lhs is not None and m_rhs is not None and m_lhs != m_rhs:
            raise ValueError(f"Expected number of left-hand sided and right-hand sides to be equal, got {m_lhs} "
                             f"and {m_rhs}")
    x = bind(TridiagonalSolve, (d, r), {"partial_pivoting": bool(partial_pivoting),
                                        "perturb_singular": bool(perturb_singular)})
    return _array_ops.squeeze(x, [-1]) if vector else x


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """`tf.linalg.tridiagonal_matmul`: A @ rhs for tridiagonal A."""
    d = _compact(diagonals, diagonals_format)
    r = as_tensor(rhs, d.dtype)
    parts = [_array_ops.expand_dims(d[..., i, :], -2) for i in range(3)]
    return bind(TridiagonalMatMul, (*parts, r))


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_dense(diags):
    sup, main, sub = diags[..., 0, :], diags[..., 1, :], diags[..., 2, :]
    m = main.shape[-1]
    return (main[..., :, None] * np.eye(m).astype(main.dtype) + sup[..., :, None] * np.eye(m, k=1).astype(main.dtype)
            + sub[..., :, None] * np.eye(m, k=-1).astype(main.dtype))


def _jax_matmul(superdiag, maindiag, subdiag, rhs):
    main = maindiag[..., 0, :, None] * rhs
    up = jnp.concatenate([superdiag[..., 0, :-1, None] * rhs[..., 1:, :], jnp.zeros_like(rhs[..., :1, :])], -2)
    down = jnp.concatenate([jnp.zeros_like(rhs[..., :1, :]), subdiag[..., 0, 1:, None] * rhs[..., :-1, :]], -2)
    return main + up + down


TridiagonalSolve.jax = lambda diagonals, rhs, partial_pivoting=True, perturb_singular=False: \
    jnp.module().linalg.solve(_jax_dense(diagonals), rhs)
TridiagonalMatMul.jax = _jax_matmul
