"""Special functions and the remaining everyday elementwise math of `tf.math`: lgamma, digamma,
polygamma, erfc, the hyperbolic and inverse trigonometric functions, atan2, xlogy, cumprod.

NumPy has no gamma-family functions and SciPy is an optional extra that `import eagerflow` must not
load, so lgamma uses the standard library's `math.lgamma` per element (SciPy's `gammaln` when SciPy
is already imported), and digamma/polygamma are computed here: the recurrence psi(x) = psi(x+1) - 1/x
moves x above 10, where the asymptotic (Bernoulli) series is accurate to double precision.
"""
from __future__ import annotations

import math as _pymath
import sys

import numpy as np

from .. import shape_rules as R
from ..operands import as_tensor, binary_operands
from ..validation import check_rule
from ..registry import Spec, bind, defop
from ..array import basic as _array
from . import elementwise as _math
from ..nn import basic as _nn
from . import reduce as _reduce
from .along_one_axis import running_scan
from .nan_safe import xdivy as _xdivy
from ..lazy_jax import jnp, jsp  # callables that import JAX on first use only

# B_2k / (2k) for k = 1..7 (the digamma series) and B_2k for the polygamma series.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def _c(value, like):
    return as_tensor(value, like.dtype)


def _lgamma_scalar(v):
    try:
        return _pymath.lgamma(v)
    except ValueError:  # the poles 0, -1, -2, ...: TensorFlow gives +inf
        return _pymath.inf


_lgamma_vec = np.vectorize(_lgamma_scalar, otypes=[np.float64])


def _lgamma_kernel(x):
    scipy_special = sys.modules.get("scipy.special")
    if scipy_special is not None:
        return np.asarray(scipy_special.gammaln(x)).astype(x.dtype, copy=False)
    return _lgamma_vec(x).astype(x.dtype, copy=False) if x.size else np.zeros_like(x)


def _digamma_kernel(x):
    """psi(x): reflection below 1/2, recurrence up to 10, then the asymptotic series."""
    x64 = np.asarray(x, dtype=np.float64)
    reflect = x64 < 0.5
    y = np.where(reflect, 1.0 - x64, x64)
    acc = np.zeros_like(y)
    while np.any(small := y < 10.0):
        acc = np.where(small, acc - 1.0 / np.where(small, y, 1.0), acc)
        y = np.where(small, y + 1.0, y)
    inv2 = 1.0 / (y * y)
    series = np.zeros_like(y)
    for k in range(len(_BERNOULLI), 0, -1):
        series = series * inv2 + _BERNOULLI[k - 1] / (2 * k)
    result = acc + np.log(y) - 0.5 / y - series * inv2
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(reflect, result - np.pi / np.tan(np.pi * x64), result)
        result = np.where((x64 <= 0) & (x64 == np.floor(x64)), np.nan, result)
    return result.astype(x.dtype, copy=False)


def _polygamma_kernel(n, x):
    """psi^(n)(x) for integer n >= 1: recurrence to x >= 10, then
    (-1)^(n+1) [(n-1)!/x^n + n!/(2 x^(n+1)) + sum_k B_2k (2k+n-1)! / ((2k)! x^(2k+n))]."""
    n_arr, x64 = np.broadcast_arrays(np.asarray(n, np.float64), np.asarray(x, np.float64))
    out = np.empty(x64.shape)
    for idx in np.ndindex(x64.shape):
        out[idx] = _polygamma_scalar(n_arr[idx], x64[idx])
    return out.astype(x.dtype, copy=False)


def _polygamma_scalar(n, x):
    if n == 0:
        return float(_digamma_kernel(np.float64(x)))
    if n < 0 or n != int(n):
        return np.nan
    if x <= 0 and x == int(x):  # a pole: psi^(n) = (-1)^(n+1) n! zeta(n+1, x), and TensorFlow's zeta
        return np.inf if n % 2 else np.nan  # gives inf there for an even first argument, else NaN
    n = int(n)
    fact = _pymath.factorial
    acc = 0.0
    while x < 10.0:  # psi^(n)(x) = psi^(n)(x+1) + (-1)^(n+1) n! / x^(n+1)
        acc += fact(n) / x ** (n + 1)
        x += 1.0
    total = fact(n - 1) / x ** n + fact(n) / (2 * x ** (n + 1))
    for k, b in enumerate(_BERNOULLI, start=1):
        total += b * fact(2 * k + n - 1) / (fact(2 * k) * x ** (2 * k + n))
    return (-1) ** (n + 1) * (acc + total)


def _erfc_kernel(x):
    if x.dtype == np.float32 or x.dtype == np.float16:  # vectorised, as accurate as TensorFlow's
        from .erf_float32 import erfc_float32  # (not at import: most programs never call erfc)
        return erfc_float32(x)
    return np.vectorize(_pymath.erfc, otypes=[np.float64])(x).astype(x.dtype, copy=False) if x.size else x.copy()


Lgamma = defop("Lgamma", kernel=_lgamma_kernel, infer=R.unary(R.FLOATS), grad=lambda op, g: g * digamma(op.inputs[0]))
Digamma = defop("Digamma", kernel=_digamma_kernel, infer=R.unary(R.FLOATS),
                grad=lambda op, g: g * polygamma(_c(1, op.inputs[0]), op.inputs[0]))
Polygamma = defop(
    "Polygamma", inputs=("a", "x"), kernel=_polygamma_kernel, infer=R.binary(R.FLOATS[1:]),
    grad=lambda op, g: (None, g * polygamma(op.inputs[0] + _c(1, op.inputs[0]), op.inputs[1])))
Erfc = defop("Erfc", kernel=_erfc_kernel, infer=R.unary(R.FLOATS),
             grad=lambda op, g: g * _c(-2 / _pymath.sqrt(_pymath.pi), g) * _math.exp(-_math.square(op.inputs[0])))
Erfc.elementwise = 16  # may run tile by tile (codegen/tiling.py): the NumPy passes it makes

# --- Hyperbolic and inverse trigonometric functions ------------------------------------------------

Sinh = defop("Sinh", kernel=np.sinh, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g * cosh(op.inputs[0]))
Cosh = defop("Cosh", kernel=np.cosh, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g * sinh(op.inputs[0]))
Asin = defop("Asin", kernel=np.arcsin, infer=R.unary(R.FLOAT_COMPLEX),
             grad=lambda op, g: g * _math.rsqrt(_c(1, g) - _math.square(op.inputs[0])))
Acos = defop("Acos", kernel=np.arccos, infer=R.unary(R.FLOAT_COMPLEX),
             grad=lambda op, g: -g * _math.rsqrt(_c(1, g) - _math.square(op.inputs[0])))
Atan = defop("Atan", kernel=np.arctan, infer=R.unary(R.FLOAT_COMPLEX),
             grad=lambda op, g: g / (_c(1, g) + _math.square(op.inputs[0])))
Asinh = defop("Asinh", kernel=np.arcsinh, infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: g / cosh(op.outputs[0]))
Acosh = defop("Acosh", kernel=np.arccosh, infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: g / sinh(op.outputs[0]))
Atanh = defop("Atanh", kernel=np.arctanh, infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: g / (_c(1, g) - _math.square(op.inputs[0])))


def _atan2_grad(op, g):
    y, x = op.inputs
    denom = _math.square(x) + _math.square(y)
    return _math.sum_to(g * x / denom, y), _math.sum_to(-g * y / denom, x)


Atan2 = defop("Atan2", inputs=("y", "x"), kernel=np.arctan2, infer=R.binary(R.FLOATS), grad=_atan2_grad)


def _xlogy_kernel(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, np.zeros_like(x), x * np.log(y)).astype(x.dtype, copy=False)


def _xlogy_grad(op, g):
    x, y = op.inputs
    nonzero = _math.cast(_math.not_equal(x, _array.zeros_like(x)), x.dtype)
    # d/dy is x / y, 0 where x is 0 (not where y is 0: x != 0 at y == 0 gives inf, times g)
    return _math.sum_to(g * xlogy(nonzero, y), x), _math.sum_to(g * _xdivy(x, y), y)


Xlogy = defop("Xlogy", inputs=("x", "y"), kernel=_xlogy_kernel, infer=R.binary(R.FLOAT_COMPLEX), grad=_xlogy_grad)

Softsign = defop("Softsign", inputs=("features",), kernel=lambda x: x / (1 + np.abs(x)), infer=R.unary(R.FLOATS),
                 grad=lambda op, g: g / _math.square(_c(1, g) + _math.abs(op.inputs[0])))

# --- Cumprod -------------------------------------------------------------------------------------------


def _cumprod_kernel(x, axis, exclusive=False, reverse=False):
    a = int(axis)
    if not -x.ndim <= a < x.ndim:
        from ...core.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"ScanOp: Expected scan axis in the range [{-x.ndim}, {x.ndim}), "
                                               f"but got {a}")
    return running_scan(x, a % x.ndim, np.cumprod, 1, exclusive, reverse)


def _cumprod_grad(op, g):
    """TensorFlow's rule: cumsum(prod * g) taken the other way, divided by x, with 0 where x is 0 (so a
    zero in x gives 0 there and no NaN, though the true derivative at a zero is not 0)."""
    x, axis = op.inputs
    ex, rev = op.attrs.get("exclusive", False), op.attrs.get("reverse", False)
    out = _reduce.cumsum(op.outputs[0] * g, axis, exclusive=ex, reverse=not rev)
    return _math.div_no_nan(out, x), None


def _cumprod_infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("Cumprod", x.dtype, R.NUMBERS)
    return [Spec(x.shape, x.dtype)]


Cumprod = defop("Cumprod", inputs=("x", "axis"), kernel=_cumprod_kernel, infer=_cumprod_infer, grad=_cumprod_grad)

# --- Public functions ------------------------------------------------------------------------------------


def _unary(opdef):
    def fn(x, name=None):
        # no check_rule here: bind validates the dtype in both modes, and a pre-check on eager
        # inputs would raise the eager InvalidArgumentError inside tf.function, where TF raises TypeError
        return bind(opdef, (as_tensor(x),))
    fn.__name__ = opdef.name.lower()
    fn.__doc__ = f"`tf.math.{fn.__name__}`: elementwise `{opdef.name}`."
    return fn


def _binary(opdef):
    def fn(x, y, name=None):
        return bind(opdef, binary_operands(x, y, opdef.name))
    fn.__name__ = opdef.name.lower()
    fn.__doc__ = f"`tf.math.{fn.__name__}`: elementwise `{opdef.name}` with broadcasting."
    return fn


lgamma = _unary(Lgamma)
digamma = _unary(Digamma)
erfc = _unary(Erfc)
sinh = _unary(Sinh)
cosh = _unary(Cosh)
asin = _unary(Asin)
acos = _unary(Acos)
atan = _unary(Atan)
asinh = _unary(Asinh)
acosh = _unary(Acosh)
atanh = _unary(Atanh)
atan2 = _binary(Atan2)
xlogy = _binary(Xlogy)
polygamma = _binary(Polygamma)


def softsign(features, name=None):
    """`tf.math.softsign` (also `tf.nn.softsign`): x / (1 + |x|). No eager pre-check: bind's
    validation gives TensorFlow's class in both modes (TypeError while tracing)."""
    return bind(Softsign, (as_tensor(features),))


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """`tf.math.cumprod`: running product along `axis` (`exclusive`, `reverse` as for cumsum)."""
    from ...core import dtypes as _dt
    t = as_tensor(x)
    ax = as_tensor(axis, _dt.int32)
    attrs = {"exclusive": bool(exclusive), "reverse": bool(reverse)}
    check_rule(Cumprod, (t, ax), attrs)
    return bind(Cumprod, (t, ax), attrs)


def log_sigmoid(x, name=None):
    """`tf.math.log_sigmoid`: log(1 / (1 + exp(-x))) computed as -softplus(-x) (no overflow)."""
    return -_nn.softplus(-as_tensor(x))


def reciprocal_no_nan(x, name=None):
    """`tf.math.reciprocal_no_nan`: 1/x, and 0 where x is 0."""
    t = as_tensor(x)
    return _math.div_no_nan(_array.ones_like(t), t)


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_cumprod(x, axis, exclusive=False, reverse=False):
    return running_scan(x, int(axis) % x.ndim, jnp.cumprod, 1, exclusive, reverse, xp=jnp)


Lgamma.jax = lambda x: jsp.gammaln(x).astype(x.dtype)
Digamma.jax = lambda x: jsp.digamma(x).astype(x.dtype)
Polygamma.jax = lambda n, x: jsp.polygamma(n.astype(np.int32) if n.dtype.kind == "f" else n, x).astype(x.dtype)
Erfc.jax = lambda x: jsp.erfc(x).astype(x.dtype)
Xlogy.jax = lambda x, y: jnp.where(x == 0, jnp.zeros_like(x), x * jnp.log(y)).astype(x.dtype)
Cumprod.jax = _jax_cumprod
Softsign.jax = lambda x: x / (1 + jnp.abs(x))
for _op, _fn in ((Sinh, "sinh"), (Cosh, "cosh"), (Asin, "arcsin"), (Acos, "arccos"), (Atan, "arctan"),
                 (Asinh, "arcsinh"), (Acosh, "arccosh"), (Atanh, "arctanh"), (Atan2, "arctan2")):
    _op.jax = getattr(jnp, _fn)
