"""Matrix decompositions (`tf.linalg.qr`, `svd`, `eigh`, `eigvalsh`): one `defop` each, with the
gradient rules for real dtypes (TensorFlow's QrGrad, SvdGrad and SelfAdjointEigV2 gradient), checked by
finite differences in tests/gradcheck/test_linalg_grads.py. Shared helpers come from ops/linalg/solves.py.
"""
from __future__ import annotations

import collections

import numpy as np

from ...core.shape import TensorShape
from .solves import _matmul, _matrix_shape, _mT, _run, triangular_solve
from ..operands import as_tensor
from ..registry import Spec, defop
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from . import matrix_parts as _parts
from ..lazy_jax import jax_module  # imports JAX on first use only

# TensorFlow returns QR's factors as a named tuple (SVD and eigh give plain tuples).
Qr = collections.namedtuple("Qr", ["q", "r"])


# --- Qr --------------------------------------------------------------------------------------------

def _qr_infer(inputs, attrs):
    x = inputs[0]
    s = _matrix_shape("Qr", x, square=False)
    if s.rank is None:
        return [Spec(s, x.dtype), Spec(s, x.dtype)]
    m, n = s[-2], s[-1]
    k = None if m is None or n is None else min(m, n)
    batch = s[:-2]
    if attrs.get("full_matrices", False):
        return [Spec(batch.concatenate([m, m]), x.dtype), Spec(batch.concatenate([m, n]), x.dtype)]
    return [Spec(batch.concatenate([m, k]), x.dtype), Spec(batch.concatenate([k, n]), x.dtype)]


def _qr_kernel(x, full_matrices=False):
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype, copy=False), r.astype(x.dtype, copy=False)


def _qr_grad(op, dq, dr):
    """The QR gradient (TensorFlow's QrGrad, real case): the square-or-tall rule, and for a wide
    matrix [X | Y] the rule applied to X (whose R is square) with Y's part added."""
    a = op.inputs[0]
    q, r = op.outputs
    m, n = a.shape[-2], a.shape[-1]
    if m is None or n is None:
        raise NotImplementedError("QrGrad not implemented with dynamic shapes.")
    if m >= n:
        if op.attrs.get("full_matrices", False) and m > n:
            raise NotImplementedError("QrGrad not implemented when nrows > ncols and full_matrices is true.")
        return _qr_grad_square_or_tall(q, r, dq, dr)
    y = a[..., :, m:]
    dv = dr[..., :, m:]
    dx = _qr_grad_square_or_tall(q, r[..., :, :m], dq + _matmul(y, dv, transpose_b=True), dr[..., :, :m])
    return _joining.concat([dx, _matmul(q, dv)], axis=-1)


def _qr_grad_square_or_tall(q, r, dq, dr):
    """For m >= n with R square (Walter & Lehmann)."""
    qdq = _matmul(q, dq, transpose_a=True)
    rdr = _matmul(r, dr, transpose_b=True)
    tril = _parts.band_part(qdq - _mT(qdq) + rdr - _mT(rdr), -1, 0)

    def times_r_inv_t(x):  # x R^-T, a triangular solve with R (upper)
        return _mT(triangular_solve(r, _mT(x), lower=False))
    grad_a = _matmul(q, dr + times_r_inv_t(tril))
    grad_b = times_r_inv_t(dq - _matmul(q, qdq))
    return grad_a + grad_b


Qr_op = defop("Qr", inputs=("input",), kernel=_qr_kernel, infer=_qr_infer, grad=_qr_grad, multi_output=True)


# --- Svd, SelfAdjointEigV2 ------------------------------------------------------------------------

def _svd_infer(inputs, attrs):
    x = inputs[0]
    s = _matrix_shape("Svd", x, square=False)
    if s.rank is None:
        return [Spec(TensorShape(None), x.dtype)] * 3
    m, n = s[-2], s[-1]
    k = None if m is None or n is None else min(m, n)
    batch = s[:-2]
    if not attrs.get("compute_uv", True):
        return [Spec(batch.concatenate([k]), x.dtype), Spec(TensorShape([0]), x.dtype),
                Spec(TensorShape([0]), x.dtype)]
    full = attrs.get("full_matrices", False)
    return [Spec(batch.concatenate([k]), x.dtype), Spec(batch.concatenate([m, m if full else k]), x.dtype),
            Spec(batch.concatenate([n, n if full else k]), x.dtype)]


def _svd_kernel(x, full_matrices=False, compute_uv=True):
    if not compute_uv:
        s = np.linalg.svd(x, compute_uv=False)
        return s.astype(x.dtype, copy=False), np.zeros(0, x.dtype), np.zeros(0, x.dtype)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(x.dtype), u.astype(x.dtype), np.swapaxes(vh, -1, -2).conj().astype(x.dtype)


def _safe_reciprocal(x):
    return _math.div_no_nan(_array.ones_like(x), x)


def _svd_grad(op, grad_s, grad_u, grad_v):
    """The SVD's gradient (Townsend, 2016; TensorFlow's SvdGrad), written for a wide matrix; a tall
    one is handled through its transpose. Real dtypes."""
    a = op.inputs[0]
    grad_s_mat = _parts.diag(grad_s)
    if not op.attrs.get("compute_uv", True):
        s, u, v = svd(a, compute_uv=True)
        return _matmul(u, _matmul(grad_s_mat, v, transpose_b=True))
    m, n = a.shape[-2], a.shape[-1]
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix "
                                  "shape.")
    s, u, v = op.outputs
    transposed = m > n
    if transposed:
        m, n = n, m
        u, v, grad_u, grad_v = v, u, grad_v, grad_u
    full = op.attrs.get("full_matrices", False)
    if full and n - m > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True")
    s_mat = _parts.diag(s)
    s_2 = _math.square(s)
    f = _parts.set_diag(_safe_reciprocal(_array.expand_dims(s_2, -2) - _array.expand_dims(s_2, -1)),
                        _array.zeros_like(s))
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    f_u = f * _matmul(u, grad_u, transpose_a=True)
    f_v = f * _matmul(v1, grad_v1, transpose_a=True)
    inner = grad_s_mat + _matmul(f_u + _mT(f_u), s_mat) + _matmul(s_mat, f_v + _mT(f_v))
    grad_a = _matmul(u, _matmul(inner, v1, transpose_b=True))
    if m != n:
        gv1t = _mT(grad_v1)
        term2 = gv1t - _matmul(_matmul(gv1t, v1), v1, transpose_b=True)
        if full:
            v2, grad_v2 = v[..., :, m:n], grad_v[..., :, m:n]
            term2 = term2 - _matmul(_matmul(v1, grad_v2, transpose_a=True), v2, transpose_b=True)
        grad_a = grad_a + _matmul(_matmul(u, _parts.diag(_safe_reciprocal(s))), term2)
    return _mT(grad_a) if transposed else grad_a


Svd = defop("Svd", inputs=("input",), kernel=_svd_kernel, infer=_svd_infer, grad=_svd_grad, multi_output=True)


def _eigh_infer(inputs, attrs):
    x = inputs[0]
    s = _matrix_shape("SelfAdjointEigV2", x)
    if s.rank is None:
        return [Spec(TensorShape(None), x.dtype), Spec(TensorShape(None), x.dtype)]
    if not attrs.get("compute_v", True):
        return [Spec(s[:-1], x.dtype), Spec(TensorShape([0]), x.dtype)]
    return [Spec(s[:-1], x.dtype), Spec(s, x.dtype)]


def _eigh_kernel(x, compute_v=True):
    # Only the lower triangle is read (TensorFlow and LAPACK's "L").
    if not compute_v:
        return np.linalg.eigvalsh(x, UPLO="L").astype(x.dtype), np.zeros(0, x.dtype)
    e, v = np.linalg.eigh(x, UPLO="L")
    return e.astype(x.dtype), v.astype(x.dtype)


def _eigh_grad(op, grad_e, grad_v):
    """Gradient of a symmetric eigendecomposition into the lower triangle that was read."""
    a = op.inputs[0]
    if not op.attrs.get("compute_v", True):
        _, v = eigh(a)
        inner = _parts.diag(grad_e)
    else:
        e, v = op.outputs
        f = _parts.set_diag(_safe_reciprocal(_array.expand_dims(e, -2) - _array.expand_dims(e, -1)),
                            _array.zeros_like(e))
        inner = _parts.diag(grad_e) + f * _matmul(v, grad_v, transpose_a=True)
    grad_a = _matmul(v, _matmul(inner, v, transpose_b=True))
    grad_a = _parts.band_part(grad_a + _mT(grad_a), -1, 0)
    return _parts.set_diag(grad_a, as_tensor(0.5, grad_a.dtype) * _parts.diag_part(grad_a))


SelfAdjointEigV2 = defop("SelfAdjointEigV2", inputs=("input",), kernel=_eigh_kernel, infer=_eigh_infer,
                         grad=_eigh_grad, multi_output=True)


# --- Public functions ----------------------------------------------------------------------------

def qr(input, full_matrices=False, name=None):  # noqa: A002
    """`tf.linalg.qr`: TensorFlow's Qr(q, r) named tuple."""
    q, r = _run(Qr_op, (as_tensor(input),), {"full_matrices": bool(full_matrices)})
    return Qr(q, r)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """`tf.linalg.svd`: returns (s, u, v), in TensorFlow's order (not NumPy's u, s, vh), with
    a = u @ diag(s) @ adjoint(v); only `s` when `compute_uv` is False."""
    s, u, v = _run(Svd, (as_tensor(tensor),), {"full_matrices": bool(full_matrices),
                                               "compute_uv": bool(compute_uv)})
    return (s, u, v) if compute_uv else s


def eigh(tensor, name=None):
    """`tf.linalg.eigh`: (eigenvalues ascending, eigenvectors as columns) of self-adjoint matrices;
    only the lower triangle is read."""
    e, v = _run(SelfAdjointEigV2, (as_tensor(tensor),))
    return e, v


def eigvalsh(tensor, name=None):
    """`tf.linalg.eigvalsh`: the eigenvalues alone."""
    return _run(SelfAdjointEigV2, (as_tensor(tensor),), {"compute_v": False})[0]


# --- JAX lowerings (jit_compile=True, codegen/xla.py): XLA's decompositions. Signs of the singular
# and eigen vectors are LAPACK's choice on both sides; tests/codegen/test_xla_differential.py compares
# the factors up to sign, and the matrices they rebuild. ---


def _jax_qr(x, full_matrices=False):
    q, r = jax_module().numpy.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype), r.astype(x.dtype)


def _jax_svd(x, full_matrices=False, compute_uv=True):
    jnp = jax_module().numpy
    if not compute_uv:
        return jnp.linalg.svd(x, compute_uv=False).astype(x.dtype), jnp.zeros(0, x.dtype), jnp.zeros(0, x.dtype)
    u, s, vh = jnp.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(x.dtype), u.astype(x.dtype), jnp.swapaxes(vh, -1, -2).conj().astype(x.dtype)


def _jax_eigh(x, compute_v=True):
    jnp = jax_module().numpy
    e, v = jnp.linalg.eigh(x, UPLO="L", symmetrize_input=False)  # the lower triangle only, as the kernel
    return (e.astype(x.dtype), v.astype(x.dtype)) if compute_v else (e.astype(x.dtype), jnp.zeros(0, x.dtype))


Qr_op.jax = _jax_qr
Svd.jax = _jax_svd
SelfAdjointEigV2.jax = _jax_eigh
