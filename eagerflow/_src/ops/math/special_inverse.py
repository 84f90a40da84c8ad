"""Inverse error functions and the incomplete gamma and beta functions of `tf.math`: erfinv,
ndtri, erfcinv, igamma, igammac, betainc.

All in NumPy (SciPy stays optional): ndtri starts from a rational guess good to 5e-4
(Abramowitz & Stegun 26.2.23) and takes three Halley steps on Phi(x) - p, with Phi from the
standard library's erfc, which is accurate in the tails; erfinv is ndtri of (1 + y) / 2 (or of
(1 - y) / 2, exact in binary, near +-1) with one Newton step on erf for small |y|. The regularized
incomplete gamma uses its power series below x = a + 1 and a continued fraction above; the
regularized incomplete beta its continued fraction on the side of x where it converges fast.
Work is done in float64 and cast back.
"""
from __future__ import annotations

import math as _pymath

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor, binary_operands
from ..registry import NO_GRADIENT, Spec, bind, defop
from .special import _lgamma_kernel
from . import elementwise as _math
from . import nan_safe as _math_extra
from . import special as _special
from ..lazy_jax import jsp, jax_module  # callables that import JAX on first use only

_F32_64 = R.FLOATS[1:]
_erfc = np.vectorize(_pymath.erfc, otypes=[np.float64])
_erf = np.vectorize(_pymath.erf, otypes=[np.float64])
_SQRT2 = _pymath.sqrt(2.0)
_TINY = 1e-300


def _lgamma(x):
    return _lgamma_kernel(np.asarray(x, np.float64))


def _ndtri_lower(q):
    """Phi^-1(q) for 0 < q <= 0.5 (float64 arrays)."""
    t = np.sqrt(-2.0 * np.log(q))
    x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))))
    for _ in range(3):  # Halley: u = (Phi(x) - q) / phi(x); x -= u / (1 + x u / 2)
        phi = np.exp(-0.5 * x * x) / _pymath.sqrt(2 * _pymath.pi)
        u = (0.5 * _erfc(-x / _SQRT2) - q) / phi
        x = x - u / (1.0 + 0.5 * x * u)
    return x


def _ndtri64(p):
    p = np.asarray(p, np.float64)
    out = np.full(p.shape, np.nan)
    out[p == 0] = -np.inf
    out[p == 1] = np.inf
    lower = (p > 0) & (p <= 0.5)
    upper = (p > 0.5) & (p < 1)
    if lower.any():
        out[lower] = _ndtri_lower(p[lower])
    if upper.any():
        out[upper] = -_ndtri_lower(1.0 - p[upper])  # 1 - p is exact for p in [0.5, 1]
    out[p == 0.5] = 0.0
    return out


def _ndtri_kernel(x):
    return _ndtri64(x).astype(x.dtype, copy=False)


def _erfinv_kernel(y):
    y64 = np.asarray(y, np.float64)
    small = np.abs(y64) < 0.5
    out = np.where(y64 > 0, -_ndtri64((1.0 - y64) / 2), _ndtri64((1.0 + y64) / 2)) / _SQRT2
    if small.any():  # erf's own Newton step: (1 + y) / 2 lost the low bits of a tiny y
        x = np.where(small, out, 0.0)
        x = x - (_erf(x) - np.where(small, y64, 0.0)) / (2 / _pymath.sqrt(_pymath.pi) * np.exp(-x * x))
        out = np.where(small, x, out)
    return out.astype(y.dtype, copy=False)


# --- Regularized incomplete gamma ---------------------------------------------------------------


def _gamma_prefactor(a, x):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.exp(-x + a * np.log(x) - _lgamma(a))


def _igamma_series(a, x):
    """P(a, x) = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n))."""
    term = np.ones_like(x)
    total = np.ones_like(x)
    for n in range(1, 5000):
        term = term * x / (a + n)
        total = total + term
        if n % 16 == 0 and np.all(np.abs(term) <= 1e-17 * np.abs(total)):
            break
    return _gamma_prefactor(a, x) * total / a


def _igammac_fraction(a, x):
    """Q(a, x) by the modified Lentz evaluation of its continued fraction (fast for x > a + 1)."""
    b = x + 1.0 - a
    c = np.full_like(x, 1.0 / _TINY)
    d = 1.0 / b
    h = d
    for i in range(1, 5000):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < _TINY, _TINY, d)
        c = b + an / c
        c = np.where(np.abs(c) < _TINY, _TINY, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if i % 8 == 0 and np.all(np.abs(delta - 1.0) <= 1e-16):
            break
    return _gamma_prefactor(a, x) * h


def _igamma64(a, x, upper):
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (x >= 0)
    zero = ok & (x == 0)
    out[zero] = 1.0 if upper else 0.0
    inf = ok & np.isinf(x)
    out[inf] = 0.0 if upper else 1.0
    series = ok & ~zero & ~inf & (x < a + 1)
    frac = ok & ~zero & ~inf & (x >= a + 1)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if series.any():
            p = _igamma_series(a[series], x[series])
            out[series] = 1.0 - p if upper else p
        if frac.any():
            q = _igammac_fraction(a[frac], x[frac])
            out[frac] = q if upper else 1.0 - q
    return out


def _igamma_kernel(a, x):
    return _igamma64(a, x, False).astype(a.dtype, copy=False)


def _igammac_kernel(a, x):
    return _igamma64(a, x, True).astype(a.dtype, copy=False)


def _igamma_grad_a_kernel(a, x):
    """dP/da by Richardson-extrapolated central differences of P in float64 (error ~1e-10
    relative): the series for the exact derivative is not worth its length here."""
    a64 = np.asarray(a, np.float64)
    h = 1e-3 * np.maximum(np.abs(a64), 1e-3)

    def central(step):
        return (_igamma64(a64 + step, x, False) - _igamma64(a64 - step, x, False)) / (2 * step)

    return ((4 * central(h / 2) - central(h)) / 3).astype(a.dtype, copy=False)


def _igamma_grad(sign):
    def grad(op, g):
        a, x = op.inputs
        log_density = -x + (a - 1) * _math.log(x) - _special.lgamma(a)
        ga = bind(IgammaGradA, (a, x))
        return (_math.sum_to(g * ga * sign, a), _math.sum_to(g * _math.exp(log_density) * sign, x))
    return grad


Igamma = defop("Igamma", inputs=("a", "x"), kernel=_igamma_kernel, infer=R.binary(R.FLOATS), grad=_igamma_grad(1.0))
Igammac = defop("Igammac", inputs=("a", "x"), kernel=_igammac_kernel, infer=R.binary(R.FLOATS),
                grad=_igamma_grad(-1.0))
IgammaGradA = defop("IgammaGradA", inputs=("a", "x"), kernel=_igamma_grad_a_kernel, infer=R.binary(_F32_64),
                    grad=NO_GRADIENT)

# --- Regularized incomplete beta ----------------------------------------------------------------


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (modified Lentz), converging fast for x < (a+1)/(a+b+2)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d
    for m in range(1, 5000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
            c = 1.0 + aa / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            delta = d * c
            h = h * delta
        if m % 8 == 0 and np.all(np.abs(delta - 1.0) <= 1e-16):
            break
    return h


def _betainc64(a, b, x):
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    out = np.full(a.shape, np.nan)
    ok = (a > 0) & (b > 0) & (x >= 0) & (x <= 1)
    out[ok & (x == 0)] = 0.0
    out[ok & (x == 1)] = 1.0
    inner = ok & (x > 0) & (x < 1)
    if inner.any():
        ai, bi, xi = a[inner], b[inner], x[inner]
        flip = xi > (ai + 1) / (ai + bi + 2)  # I_x(a, b) = 1 - I_(1-x)(b, a)
        aa, bb, xx = np.where(flip, bi, ai), np.where(flip, ai, bi), np.where(flip, 1 - xi, xi)
        log_front = (_lgamma(aa + bb) - _lgamma(aa) - _lgamma(bb) + aa * np.log(xx) + bb * np.log1p(-xx))
        value = np.exp(log_front) * _beta_fraction(aa, bb, xx) / aa
        out[inner] = np.where(flip, 1.0 - value, value)
    return out


def _betainc_kernel(a, b, x):
    full = [(name, v.shape) for name, v in zip("abx", (a, b, x)) if v.ndim]
    for name, shape in full[1:]:
        if shape != full[0][1]:  # TensorFlow broadcasts scalars only
            dims = ",".join(map(str, full[0][1])), ",".join(map(str, shape))
            raise InvalidArgumentError(None, None, f"Shapes of {full[0][0]} and {name} are inconsistent: "
                                                   f"[{dims[0]}] vs. [{dims[1]}]")
    return _betainc64(a, b, x).astype(a.dtype, copy=False)


def _betainc_infer(inputs, attrs):
    R.check_same_dtype("Betainc", inputs)
    R.check_dtype_in("Betainc", inputs[0].dtype, _F32_64, "a")
    shapes = [t.shape for t in inputs]
    full = [s for s in shapes if s.rank != 0]
    for name, s in zip("abx", shapes):
        if s.rank == 0 or not full or s is full[0]:
            continue
        if s.rank is not None and full[0].rank is not None and not s.is_compatible_with(full[0]):
            first = "abx"[shapes.index(full[0])]
            raise InvalidArgumentError(None, None, f"Shapes of {first} and {name} are inconsistent: "
                                                   f"{R.fmt_dims(full[0])} vs. {R.fmt_dims(s)}")
    out = full[0] if full else TensorShape([])
    for s in full[1:]:
        out = out.merge_with(s) if out.rank is not None and s.rank is not None else out
    return [Spec(out, inputs[0].dtype)]


def _betainc_grad(op, g):
    """TensorFlow differentiates with respect to x only."""
    a, b, x = op.inputs
    log_beta = _special.lgamma(a) + _special.lgamma(b) - _special.lgamma(a + b)
    density = _math.exp(_math_extra.xlog1py(b - 1, -x) + _special.xlogy(a - 1, x) - log_beta)
    return None, None, _math.sum_to(g * density, x)


Betainc = defop("Betainc", inputs=("a", "b", "x"), kernel=_betainc_kernel, infer=_betainc_infer, grad=_betainc_grad)

# --- Erfinv / Ndtri ops and the public functions ------------------------------------------------------

Erfinv = defop("Erfinv", kernel=_erfinv_kernel, infer=R.unary(_F32_64),
               grad=lambda op, g: g * _c(_pymath.sqrt(_pymath.pi) / 2, g) * _math.exp(_math.square(op.outputs[0])))
Ndtri = defop("Ndtri", kernel=_ndtri_kernel, infer=R.unary(_F32_64),
              grad=lambda op, g: g * _c(_pymath.sqrt(2 * _pymath.pi), g)
              * _math.exp(_math.square(op.outputs[0]) / _c(2, g)))


def _c(value, like):
    return as_tensor(value, like.dtype)


def erfinv(x, name=None):
    """`tf.math.erfinv`: the inverse of erf on (-1, 1) (+-inf at +-1, NaN outside)."""
    return bind(Erfinv, (as_tensor(x),))


def ndtri(x, name=None):
    """`tf.math.ndtri`: the standard normal quantile function, Phi^-1."""
    return bind(Ndtri, (as_tensor(x),))


def erfcinv(x, name=None):
    """`tf.math.erfcinv`: the inverse of erfc, as TensorFlow composes it: -ndtri(x / 2) / sqrt(2)."""
    t = as_tensor(x)
    return -ndtri(_c(0.5, t) * t) * _c(_pymath.sqrt(0.5), t)


def igamma(a, x, name=None):
    """`tf.math.igamma`: the regularized lower incomplete gamma function P(a, x)."""
    return bind(Igamma, binary_operands(a, x, "Igamma"))


def igammac(a, x, name=None):
    """`tf.math.igammac`: the regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return bind(Igammac, binary_operands(a, x, "Igammac"))


def betainc(a, b, x, name=None):
    """`tf.math.betainc`: the regularized incomplete beta function I_x(a, b); a, b and x have one
    shape, or are scalars."""
    ta, tb = binary_operands(a, b, "Betainc")
    tx = x if hasattr(x, "dtype") and not isinstance(x, np.ndarray) else as_tensor(x, ta.dtype)
    return bind(Betainc, (ta, tb, as_tensor(tx)))


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---

Erfinv.jax = lambda x: jsp.erfinv(x).astype(x.dtype)
Ndtri.jax = lambda x: jsp.ndtri(x).astype(x.dtype)
Igamma.jax = lambda a, x: jsp.gammainc(a, x).astype(a.dtype)
Igammac.jax = lambda a, x: jsp.gammaincc(a, x).astype(a.dtype)
IgammaGradA.jax = lambda a, x: jax_module().grad(lambda v: jsp.gammainc(v, x).sum())(a).astype(a.dtype)
Betainc.jax = lambda a, b, x: jsp.betainc(a, b, x).astype(a.dtype)
