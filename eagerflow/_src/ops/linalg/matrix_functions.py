"""Matrix functions: `tf.linalg.expm` (op MatrixExponential), `tf.linalg.sqrtm` (MatrixSquareRoot),
`tf.linalg.logm` (MatrixLogarithm, complex input only, as TensorFlow). NumPy kernels, no SciPy.

- expm: Higham's scaling and squaring with a diagonal Pade approximant, the degree (3, 5, 7, 9, or 13
  after scaling) chosen from the 1-norm, as TensorFlow's expm; float32 uses degrees 3, 5, 7. Its
  gradient is the block-matrix identity expm([[A^H, G], [0, A^H]]) = [[., Abar], [0, .]], so it is
  itself an expm (and differentiates again). XLA compiles TensorFlow's expm: it lowers to JAX's.
- sqrtm: the scaled Denman-Beavers iteration (converges for any matrix with no eigenvalue on the
  closed negative real axis, Jordan blocks included). A real matrix with a negative real eigenvalue
  has no real principal root: TensorFlow returns NaNs there, and so do we. Gradient: TensorFlow's,
  the Sylvester equation X^H B + B X^H = Xbar, solved as one n^2 x n^2 system.
- logm: inverse scaling and squaring (square roots until the matrix is near I, then log(I + X) by
  Gauss-Legendre quadrature of X (I + tX)^-1 over [0, 1], times 2^k). TensorFlow registers no
  gradient for it.
None of TensorFlow's kernels for sqrtm/logm compile under XLA: no JAX lowering, refused as TF does.
"""
from __future__ import annotations

import functools

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError, NotFoundError
from .solves import _LINALG_TYPES, _matrix_shape, _run
from ..operands import as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, defop
from ..shape_rules import check_dtype_in
from ..array import basic as _array
from ..math import elementwise as _math
from ..array import joining as _joining
from . import solves as _linalg
from . import matrix_parts as _parts

# --- MatrixExponential ----------------------------------------------------------------------------

_PADE = {
    3: (120.0, 60.0, 12.0, 1.0),
    5: (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0),
    7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
    9: (17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0, 110880.0, 3960.0,
        90.0, 1.0),
    13: (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
         10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0,
         1.0),
}
# Higham (2005), Table 2.3: the largest 1-norm for which each degree is accurate to the unit roundoff.
_THETA_DOUBLE = ((3, 1.495585217958292e-002), (5, 2.539398330063230e-001), (7, 9.504178996162932e-001),
                 (9, 2.097847961257068e+000), (13, 5.371920351148152e+000))
_THETA_SINGLE = ((3, 4.258730016922831e-001), (5, 1.880152677804762e+000), (7, 3.925724783138660e+000))


def _pade(a, degree):
    """(U, V): the odd and even parts of the degree's Pade numerator, exp(A) ~ (V - U)^-1 (V + U)."""
    b = _PADE[degree]
    eye = np.eye(a.shape[-1], dtype=a.dtype)
    a2 = a @ a
    power = eye
    odd = np.zeros_like(a)
    even = np.zeros_like(a)
    for k in range(0, degree + 1, 2):
        odd = odd + b[k + 1] * power
        even = even + b[k] * power
        power = power @ a2
    return a @ odd, even


def _expm_one(a, thetas):
    norm = np.abs(a).sum(axis=-2).max() if a.size else 0.0
    for degree, theta in thetas[:-1]:
        if norm <= theta:
            u, v = _pade(a, degree)
            return np.linalg.solve(v - u, v + u)
    degree, theta = thetas[-1]
    squarings = max(0, int(np.ceil(np.log2(norm / theta)))) if norm > theta else 0
    u, v = _pade(a / (2.0 ** squarings), degree)
    r = np.linalg.solve(v - u, v + u)
    for _ in range(squarings):
        r = r @ r
    return r


def _not_square_error(dims):
    """TensorFlow's expm is Python over MatMul: a bad shape is MatMul's complaint about it."""
    shown = [1] + dims if len(dims) < 2 else [int(np.prod([d or 1 for d in dims[:-2]]))] + dims[-2:]
    text = "[" + ",".join("?" if d is None else str(d) for d in shown) + "]"
    return InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: {text}, In[1]: {text}")


def _expm_kernel(x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:  # shapes known only at run time
        raise _not_square_error(list(x.shape))
    thetas = _THETA_SINGLE if x.dtype in (np.float32, np.complex64) else _THETA_DOUBLE
    flat = x.reshape((int(np.prod(x.shape[:-2])),) + x.shape[-2:])
    out = np.stack([_expm_one(m, thetas) for m in flat]) if flat.shape[0] else flat.copy()
    return out.reshape(x.shape).astype(x.dtype, copy=False)


def _expm_infer(inputs, attrs):
    x = inputs[0]
    check_dtype_in("MatrixExponential", x.dtype, _LINALG_TYPES, "input")
    s = x.shape
    if s.rank is not None and (s.rank < 2 or (s[-1] is not None and s[-2] is not None and s[-1] != s[-2])):
        raise _not_square_error(list(s))
    if x.dtype is _dt.float16:  # TensorFlow's expm solves with MatrixSolve, which has no half kernel
        raise NotFoundError(None, None, "Could not find device for node: {{node MatrixSolve}} = "
                                        "MatrixSolve[T=DT_HALF, adjoint=false]")
    return [Spec(s, x.dtype)]


def _expm_grad(op, g):
    """Abar = the upper-right block of expm([[A^H, G], [0, A^H]]) (Mathias, 1996)."""
    a_h = _linalg.adjoint(op.inputs[0])
    n = a_h.shape[-1]
    top = _joining.concat([a_h, g], axis=-1)
    bottom = _joining.concat([_array.zeros_like(a_h), a_h], axis=-1)
    block = expm(_joining.concat([top, bottom], axis=-2))
    return block[..., :n, n:]


MatrixExponential = defop("MatrixExponential", inputs=("input",), kernel=_expm_kernel, infer=_expm_infer,
                          grad=_expm_grad)


# --- MatrixSquareRoot -----------------------------------------------------------------------------

def _sqrtm_one(a):
    """Scaled Denman-Beavers: Y -> sqrt(A), Z -> sqrt(A)^-1, each step scaled by |det Y det Z|^(-1/2n)."""
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    y, z = a.copy(), np.eye(n, dtype=a.dtype)
    for _ in range(100):
        with np.errstate(all="ignore"):
            _, logdet_y = np.linalg.slogdet(y)
            _, logdet_z = np.linalg.slogdet(z)
            mu = np.exp(-(logdet_y + logdet_z) / (2 * n))
            if not np.isfinite(mu):
                mu = 1.0
            y_inv, z_inv = np.linalg.inv(y), np.linalg.inv(z)
        y_next = 0.5 * (mu * y + z_inv / mu)
        z = 0.5 * (mu * z + y_inv / mu)
        change = np.abs(y_next - y).sum(axis=-2).max()
        y = y_next
        if not np.isfinite(change) or change <= 1e-15 * max(1.0, np.abs(y).sum(axis=-2).max()):
            break
    return y


def _sqrtm_kernel(x):
    work = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    flat = work.reshape((int(np.prod(x.shape[:-2])),) + x.shape[-2:])
    out = []
    for m in flat:
        if _has_negative_real_eigenvalue(m):
            if m.dtype.kind != "c":  # no real principal root: TensorFlow gives NaNs
                out.append(np.full_like(m, np.nan))
            else:  # Denman-Beavers cannot leave the real line there: through the eigenvectors
                out.append(_by_eig(m, np.sqrt))
            continue
        try:
            out.append(_sqrtm_one(m))
        except np.linalg.LinAlgError:  # a singular matrix
            out.append(_by_eig(m, np.sqrt))
    result = np.stack(out) if out else flat
    return result.reshape(x.shape).astype(x.dtype)


def _has_negative_real_eigenvalue(m):
    if not m.size:
        return False
    e = np.linalg.eigvals(m)
    scale = max(1.0, np.abs(e).max())
    return bool(np.any((np.abs(e.imag) <= 1e-12 * scale) & (e.real < -1e-12 * scale)))


def _by_eig(m, fn):
    """f(A) = V f(D) V^-1 on the principal branch of `fn` (for diagonalisable A)."""
    e, v = np.linalg.eig(m)
    out = (v * fn(e.astype(np.complex128))) @ np.linalg.inv(v)
    return out if m.dtype.kind == "c" else out.real


def _sqrtm_infer(inputs, attrs):
    x = inputs[0]
    s = _matrix_shape("MatrixSquareRoot", x)
    if x.dtype is _dt.float16:
        raise NotFoundError(None, None, "Could not find device for node: {{node MatrixSquareRoot}} = "
                                        "MatrixSquareRoot[T=DT_HALF]")
    return [Spec(s, x.dtype)]


def _sqrtm_grad(op, g):
    """X = sqrtm(A): dX X + X dX = dA, so Abar solves X^H B + B X^H = Xbar. Row-major vec turns it
    into (X^H kron I + I kron conj(X)) vec(B) = vec(Xbar), one dense solve (TensorFlow's approach)."""
    x = op.outputs[0]
    n = x.shape[-1]
    if n is None or x.shape.rank is None:
        raise NotImplementedError("MatrixSquareRoot's gradient needs a known matrix size")
    batch = list(x.shape[:-2])
    if any(d is None for d in batch):
        raise NotImplementedError("MatrixSquareRoot's gradient needs known batch dimensions")
    eye = _parts.eye(n, dtype=x.dtype)
    x_h = _linalg.adjoint(x)
    kron_left = _kron(x_h, eye, batch, n)
    kron_right = _kron(eye, _math.conj(x), batch, n)
    rhs = _array.reshape(g, batch + [n * n, 1])
    vec_b = _linalg.solve(kron_left + kron_right, rhs)
    return _array.reshape(vec_b, batch + [n, n])


def _kron(a, b, batch, n):
    """kron of two n x n matrices (a batched, b maybe not): [..., i*n+k, j*n+l] = a[i, j] b[k, l]."""
    left = _array.expand_dims(_array.expand_dims(a, -1), -3)    # [..., n, 1, n, 1]
    right = _array.expand_dims(_array.expand_dims(b, -2), -4)   # [..., 1, n, 1, n]
    return _array.reshape(left * right, batch + [n * n, n * n])


MatrixSquareRoot = defop("MatrixSquareRoot", inputs=("input",), kernel=_sqrtm_kernel, infer=_sqrtm_infer,
                         grad=_sqrtm_grad)


# --- MatrixLogarithm ------------------------------------------------------------------------------

_LOGM_TYPES = (_dt.complex64, _dt.complex128)


@functools.cache
def _quadrature():
    """Gauss-Legendre nodes and weights moved from [-1, 1] to [0, 1] (made on first use: numpy.polynomial
    is a few milliseconds of `import eagerflow` otherwise)."""
    nodes, weights = np.polynomial.legendre.leggauss(12)
    return (nodes + 1) / 2, weights / 2


def _logm_one(a):
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    if _has_negative_real_eigenvalue(a):  # on the branch cut of the square roots: use the eigenvectors
        return _by_eig(a, np.log)
    eye = np.eye(n, dtype=a.dtype)
    k = 0
    while np.abs(a - eye).sum(axis=-2).max() > 0.25 and k < 60:
        a = _sqrtm_one(a)
        k += 1
    x = a - eye
    log = sum(w * np.linalg.solve(eye + t * x, x) for t, w in zip(*_quadrature()))
    return (2.0 ** k) * log


def _logm_kernel(x):
    flat = x.astype(np.complex128).reshape((int(np.prod(x.shape[:-2])),) + x.shape[-2:])
    out = np.stack([_logm_one(m) for m in flat]) if flat.shape[0] else flat
    return out.reshape(x.shape).astype(x.dtype)


def _logm_infer(inputs, attrs):
    x = inputs[0]
    check_dtype_in("MatrixLogarithm", x.dtype, _LOGM_TYPES, "input")
    return [Spec(_matrix_shape("MatrixLogarithm", x), x.dtype)]


MatrixLogarithm = defop("MatrixLogarithm", inputs=("input",), kernel=_logm_kernel, infer=_logm_infer,
                        grad=UNREGISTERED_GRADIENT)


# --- Public functions ----------------------------------------------------------------------------

def expm(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """`tf.linalg.expm`: the matrix exponential of each matrix of the batch."""
    t = as_tensor(input)
    if t.dtype not in _LINALG_TYPES:  # TensorFlow's Python wrapper refuses these before any op runs
        raise ValueError(f"tf.linalg.expm does not support matrices of type <dtype: '{t.dtype.name}'>")
    return _run(MatrixExponential, (t,))


def sqrtm(input, name=None):  # noqa: A002
    """`tf.linalg.sqrtm`: the principal square root of each matrix (NaNs where a real one does not exist)."""
    return _run(MatrixSquareRoot, (as_tensor(input),))


def logm(input, name=None):  # noqa: A002
    """`tf.linalg.logm`: the principal logarithm of each complex matrix."""
    return _run(MatrixLogarithm, (as_tensor(input),))


# --- JAX lowering (jit_compile=True): TensorFlow's expm compiles under XLA, so ours lowers to JAX's.
def _jax_expm(x):
    import importlib  # JAX is imported by codegen/xla.py before any lowering runs
    return importlib.import_module("jax.scipy.linalg").expm(x).astype(x.dtype)


MatrixExponential.jax = _jax_expm
