"""Inverses, determinants, solves and Cholesky (`tf.linalg`); QR, SVD and eigh are in ops/linalg/decompositions.py.

Each op is one `defop` (TensorFlow's op type, a NumPy/LAPACK kernel over the last two axes with the
leading axes as a batch, a shape/dtype rule, a gradient written with ops). The gradient rules follow
the standard matrix-calculus results (the same ones TensorFlow's linalg_grad uses) and are checked by
finite differences in tests/gradcheck/test_linalg_grads.py; they are for real dtypes.

The band, diagonal and trace ops live in ops/linalg/matrix_parts.py; norms and clipping in ops/linalg/norms.py.
The helpers at the top (`_matrix_shape`, `_mT`, `_run`) are shared with ops/linalg/decompositions.py.
"""
from __future__ import annotations

import collections

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..validation import check_rule
from ..registry import Spec, bind, defop
from ..array import basic as _array
from ..math import elementwise as _math
from . import matmul as _matmul_mod
from . import matrix_parts as _parts
from ..math import reduce as _reduce
from ..lazy_jax import jax_module, jnp  # callables that import JAX on first use only

_NO_ATTRS: dict = {}
# TensorFlow's order in the "allowed values" messages of these ops.
_LINALG_TYPES = (_dt.float64, _dt.float32, _dt.float16, _dt.complex64, _dt.complex128)

# TensorFlow returns these two as named tuples (the other decompositions are plain tuples).
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


def _err(message):
    return InvalidArgumentError(None, None, message)


def building_graph(*tensors) -> bool:
    """Whether a shape rule runs for graph building (TensorFlow's shape functions word their refusals
    differently from its kernels: "Shape must be at least rank 2 but is rank 1" there, "Input tensor
    0 must have rank >= 2, got 1" here)."""
    return state.graph is not None or any(getattr(t, "is_symbolic", False) for t in tensors)


def _matrix_shape(op_name, x, square=True, arg=0, eager_rank_message=None):
    """The rank and squareness checks every op here starts with (TensorFlow's wording, the shape
    function's while building a graph, the kernel's eagerly)."""
    R.check_dtype_in(op_name, x.dtype, _LINALG_TYPES, "input")
    s = x.shape
    if s.rank is None:
        return s
    graph = building_graph(x)
    if s.rank < 2:
        if graph:
            raise _err(f"Shape must be at least rank 2 but is rank {s.rank}")
        raise _err(eager_rank_message or f"Input tensor {arg} must have rank >= 2, got {s.rank}")
    if square and s[-1] is not None and s[-2] is not None and s[-1] != s[-2]:
        if graph:  # the determinants compare columns with rows, the other ops rows with columns
            a, b = (s[-1], s[-2]) if op_name in ("MatrixDeterminant", "LogMatrixDeterminant") else (s[-2], s[-1])
            raise _err(f"Dimensions must be equal, but are {a} and {b}")
        raise _err("Input matrix must be square.")
    return s


def _same_shape_rule(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        return [Spec(_matrix_shape(op_name, x), x.dtype)]
    return infer


def _batch_shape(s):
    return TensorShape(None) if s.rank is None else s[:-2]


def _mT(x):
    """Swaps the last two axes (a real matrix's adjoint)."""
    r = x.shape.rank
    if r is None:
        raise ValueError("a matrix of unknown rank")
    return _array.transpose(x, list(range(r - 2)) + [r - 1, r - 2])


def _scalar_to_matrix(t):
    return _array.expand_dims(_array.expand_dims(t, -1), -1)


def _run(opdef, inputs, attrs=_NO_ATTRS):
    """Linear algebra is not on the eager hot path: eagerly the shape rule always runs first, so a bad
    dtype or shape raises TensorFlow's error before LAPACK sees it. While a graph is built, bind runs
    the rule itself and reports a refusal as TensorFlow's graph mode does (TypeError for a dtype,
    ValueError for a shape); a pre-check here would raise the eager InvalidArgumentError instead."""
    if state.graph is None and not any(getattr(t, "is_symbolic", False) for t in inputs):
        check_rule(opdef, inputs, attrs)
    return bind(opdef, inputs, attrs)


# --- MatrixInverse, MatrixDeterminant, LogMatrixDeterminant ------------------------------------

def _inverse_kernel(x, adjoint=False):
    if adjoint:
        x = np.conj(np.swapaxes(x, -1, -2))
    try:
        return np.linalg.inv(x).astype(x.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise _err("Input is not invertible.") from None


def _inverse_grad(op, g):
    """d(A^-1) = -A^-1 dA A^-1, so dL/dA = -C^T G C^T (C = A^-1), or -C G^T C for the adjoint form."""
    c = op.outputs[0]
    if op.attrs.get("adjoint", False):
        return -_matmul(c, _matmul(g, c, transpose_a=True))
    return -_matmul(c, _matmul(g, c, transpose_b=True), transpose_a=True)


MatrixInverse = defop("MatrixInverse", inputs=("input",), kernel=_inverse_kernel,
                      infer=_same_shape_rule("MatrixInverse"), grad=_inverse_grad)


def _det_infer(inputs, attrs):
    x = inputs[0]
    return [Spec(_batch_shape(_matrix_shape("MatrixDeterminant", x)), x.dtype)]


def _det_kernel(x):
    return np.asarray(np.linalg.det(x)).astype(x.dtype, copy=False)


MatrixDeterminant = defop(
    "MatrixDeterminant", inputs=("input",), kernel=_det_kernel, infer=_det_infer,
    grad=lambda op, g: _scalar_to_matrix(g * op.outputs[0]) * _mT(inv(op.inputs[0])))


def _slogdet_infer(inputs, attrs):
    x = inputs[0]
    batch = _batch_shape(_matrix_shape("LogMatrixDeterminant", x))
    return [Spec(batch, x.dtype), Spec(batch, x.dtype)]


def _slogdet_kernel(x):
    sign, logabs = np.linalg.slogdet(x)
    return np.asarray(sign).astype(x.dtype), np.asarray(logabs).astype(x.dtype)


LogMatrixDeterminant_op = defop(
    "LogMatrixDeterminant", inputs=("input",), kernel=_slogdet_kernel, infer=_slogdet_infer, multi_output=True,
    grad=lambda op, g_sign, g_logabs: _scalar_to_matrix(g_logabs) * _mT(inv(op.inputs[0])))


# --- MatrixSolve, MatrixTriangularSolve ----------------------------------------------------------

def _solve_infer(op_name):
    def infer(inputs, attrs):
        a, b = inputs
        R.check_same_dtype(op_name, inputs)
        sa = _matrix_shape(op_name, a)
        sb = b.shape
        if sa.rank is not None and sb.rank is not None:
            if sb.rank != sa.rank:
                raise _err("All input tensors must have the same rank.")
            if sa[-2] is not None and sb[-2] is not None and sa[-2] != sb[-2]:
                if building_graph(a, b):
                    raise _err(f"Dimensions must be equal, but are {sa[-2]} and {sb[-2]}")
                raise _err("Input matrix and rhs are incompatible.")
            return [Spec(R.broadcast_shape(sa[:-2], sb[:-2]).concatenate([sa[-1], sb[-1]]), a.dtype)]
        return [Spec(TensorShape(None), a.dtype)]
    return infer


def _solve_kernel(a, b, adjoint=False):
    if adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    try:
        return np.linalg.solve(a, b).astype(a.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise _err("Input matrix is not invertible.") from None


def _solve_grad(op, g):
    """X = A^-1 B: dL/dB = A^-T G and dL/dA = -(dL/dB) X^T (mirrored for the adjoint form)."""
    a, _ = op.inputs
    x = op.outputs[0]
    adjoint = op.attrs.get("adjoint", False)
    grad_b = solve(a, g, adjoint=not adjoint)
    grad_a = -_matmul(x, grad_b, transpose_b=True) if adjoint else -_matmul(grad_b, x, transpose_b=True)
    return _math.sum_to(grad_a, a), _math.sum_to(grad_b, op.inputs[1])


MatrixSolve = defop("MatrixSolve", inputs=("matrix", "rhs"), kernel=_solve_kernel,
                    infer=_solve_infer("MatrixSolve"), grad=_solve_grad)


def _triangular_solve_kernel(a, b, lower=True, adjoint=False):
    # Only the named triangle is read, as in TensorFlow: the other one is masked out first.
    a = np.tril(a) if lower else np.triu(a)
    return _solve_kernel(a, b, adjoint)


def _triangular_solve_grad(op, g):
    a, _ = op.inputs
    c = op.outputs[0]
    lower, adjoint = op.attrs.get("lower", True), op.attrs.get("adjoint", False)
    grad_b = triangular_solve(a, g, lower=lower, adjoint=not adjoint)
    grad_a = -_matmul(c, grad_b, transpose_b=True) if adjoint else -_matmul(grad_b, c, transpose_b=True)
    grad_a = _parts.band_part(grad_a, -1, 0) if lower else _parts.band_part(grad_a, 0, -1)
    return _math.sum_to(grad_a, a), _math.sum_to(grad_b, op.inputs[1])


MatrixTriangularSolve = defop("MatrixTriangularSolve", inputs=("matrix", "rhs"), kernel=_triangular_solve_kernel,
                              infer=_solve_infer("MatrixTriangularSolve"), grad=_triangular_solve_grad)


# --- Cholesky -----------------------------------------------------------------------------------

def _cholesky_kernel(x):
    try:
        return np.linalg.cholesky(x).astype(x.dtype, copy=False)
    except np.linalg.LinAlgError:
        pass
    # TensorFlow (CPU) fills a matrix that is not positive definite with NaN below the diagonal
    # instead of raising; the good matrices of a batch keep their factor.
    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.empty_like(flat)
    nan_lower = np.where(np.tril(np.ones(x.shape[-2:], bool)), np.nan, 0).astype(x.dtype)
    for i, m in enumerate(flat):
        try:
            out[i] = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            out[i] = nan_lower
    return out.reshape(x.shape)


def _cholesky_grad(op, g):
    """With A = L L^T: dL/dA = 1/2 sym(L^-T Phi(L^T G) L^-1), Phi keeping the lower triangle with a
    halved diagonal (Murray, 2016; TensorFlow's rule)."""
    chol = op.outputs[0]
    eye = _parts.eye_like(chol)
    chol_inv = triangular_solve(chol, eye, lower=True)
    middle = _matmul(chol, g, transpose_a=True)
    middle = _parts.band_part(middle, -1, 0) - as_tensor(0.5, middle.dtype) * _parts.band_part(middle, 0, 0)
    grad = _matmul(chol_inv, _matmul(middle, chol_inv), transpose_a=True)
    return as_tensor(0.5, grad.dtype) * (grad + _mT(grad))


Cholesky = defop("Cholesky", inputs=("input",), kernel=_cholesky_kernel, infer=_same_shape_rule("Cholesky"),
                 grad=_cholesky_grad)


# --- Public functions ----------------------------------------------------------------------------

def inv(input, adjoint=False, name=None):  # noqa: A002 - TensorFlow's argument name
    """`tf.linalg.inv`: the inverse of each square matrix in the last two axes."""
    return _run(MatrixInverse, (as_tensor(input),), {"adjoint": True} if adjoint else _NO_ATTRS)


def det(input, name=None):  # noqa: A002
    """`tf.linalg.det`: the determinant of each square matrix."""
    return _run(MatrixDeterminant, (as_tensor(input),))


def slogdet(input, name=None):  # noqa: A002
    """`tf.linalg.slogdet`: (sign, log|det|), TensorFlow's LogMatrixDeterminant named tuple."""
    sign, logabs = _run(LogMatrixDeterminant_op, (as_tensor(input),))
    return LogMatrixDeterminant(sign, logabs)


def logdet(matrix, name=None):
    """`tf.linalg.logdet`: log det of Hermitian positive definite matrices, through Cholesky."""
    chol = cholesky(matrix)
    return as_tensor(2.0, chol.dtype) * _reduce.reduce_sum(_math.log(_parts.diag_part(chol)), axis=-1)


def solve(matrix, rhs, adjoint=False, name=None):
    """`tf.linalg.solve`: X with A X = B (or A^H X = B when `adjoint`)."""
    a = as_tensor(matrix)
    b = as_tensor(rhs, a.dtype)
    return _run(MatrixSolve, (a, b), {"adjoint": True} if adjoint else _NO_ATTRS)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """`tf.linalg.triangular_solve`: reads only the lower (or upper) triangle of `matrix`."""
    a = as_tensor(matrix)
    b = as_tensor(rhs, a.dtype)
    return _run(MatrixTriangularSolve, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)})


def cholesky_solve(chol, rhs, name=None):
    """`tf.linalg.cholesky_solve`: solves A X = B given A's Cholesky factor (two triangular solves)."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True)


def cholesky(input, name=None):  # noqa: A002
    """`tf.linalg.cholesky`: the lower-triangular L with L L^H = A (only A's lower triangle is read)."""
    return _run(Cholesky, (as_tensor(input),))


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """`tf.linalg.lstsq`: least squares through the regularised normal equations, as TensorFlow's
    `fast=True` path computes it (built from ops, so it traces and differentiates). `fast=False`
    gives the same solution for well-conditioned problems."""
    a = as_tensor(matrix)
    b = as_tensor(rhs, a.dtype)
    if a.shape.rank is not None and b.shape.rank is not None and a.shape.rank != b.shape.rank:
        raise InvalidArgumentError(None, None, f"In[0] and In[1] has different ndims: {R.fmt_dims(a.shape)} vs. "
                                               f"{R.fmt_dims(b.shape)} [Op:MatMul]")
    m, n = a.shape[-2], a.shape[-1]
    l2 = as_tensor(l2_regularizer, a.dtype)
    if m is not None and n is not None and m < n:  # under-determined: the minimum-norm solution
        gram = _matmul(a, a, transpose_b=True)
        return _matmul(a, cholesky_solve(cholesky(gram + l2 * _parts.eye_like(gram)), b), transpose_a=True)
    gram = _matmul(a, a, transpose_a=True)
    return cholesky_solve(cholesky(gram + l2 * _parts.eye_like(gram)), _matmul(a, b, transpose_a=True))


def adjoint(matrix, name=None):
    """`tf.linalg.adjoint`: the conjugate transpose of the last two axes."""
    return _math.conj(_mT(as_tensor(matrix)))


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """`tf.linalg.matrix_transpose`: swaps the last two axes."""
    return adjoint(a) if conjugate else _mT(as_tensor(a))


def _matmul(a, b, transpose_a=False, transpose_b=False):
    return _matmul_mod.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)


# --- JAX lowerings (jit_compile=True, codegen/xla.py). Under XLA a singular matrix gives inf/NaN
# instead of the kernels' "not invertible" error (TensorFlow's XLA does not check either). ---


def _jax_adjoint(x):
    return jnp.conj(jnp.swapaxes(x, -1, -2))


def _jax_slogdet(x):
    sign, logabs = jax_module().numpy.linalg.slogdet(x)
    return sign.astype(x.dtype), logabs.astype(x.dtype)


def _jax_triangular_solve(a, b, lower=True, adjoint=False):
    a = jnp.tril(a) if lower else jnp.triu(a)
    return jax_module().numpy.linalg.solve(_jax_adjoint(a) if adjoint else a, b).astype(a.dtype)


MatrixInverse.jax = lambda x, adjoint=False: jax_module().numpy.linalg.inv(_jax_adjoint(x) if adjoint else x)
MatrixDeterminant.jax = lambda x: jax_module().numpy.linalg.det(x).astype(x.dtype)
LogMatrixDeterminant_op.jax = _jax_slogdet
MatrixSolve.jax = lambda a, b, adjoint=False: jax_module().numpy.linalg.solve(_jax_adjoint(a) if adjoint else a, b)
MatrixTriangularSolve.jax = _jax_triangular_solve
Cholesky.jax = lambda x: jax_module().numpy.linalg.cholesky(x)
