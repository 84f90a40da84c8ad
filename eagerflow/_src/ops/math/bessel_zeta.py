"""The modified Bessel functions I0, I1 and their exponentially scaled forms, the Hurwitz zeta
function, nextafter and angle (`tf.math`, the Bessel functions also under `tf.math.special`).

In NumPy: I0 and I1 by their power series up to |x| = 30 (positive terms, so no cancellation)
and by the large-argument asymptotic series beyond; zeta(s, q) by Euler-Maclaurin summation after
shifting q past 12, with the Bernoulli numbers that ops/math/special.py keeps for digamma.
"""
from __future__ import annotations

import math as _pymath

import numpy as np

from .. import shape_rules as R
from ..operands import as_tensor, binary_operands
from ..registry import NO_GRADIENT, Spec, bind, defop
from .special import _BERNOULLI
from ...core import dtypes as _dt
from ..array import basic as _array
from . import elementwise as _math
from ..lazy_jax import jnp, jsp  # callables that import JAX on first use only

_F32_64 = R.FLOATS[1:]
_SERIES_LIMIT = 30.0


def _scaled_bessel(x, nu):
    """e^-|x| I_nu(|x|) for nu in {0, 1} (float64)."""
    ax = np.abs(np.asarray(x, np.float64))
    out = np.empty(ax.shape)
    small = ax <= _SERIES_LIMIT
    if small.any():
        half = ax[small] / 2
        term = half ** nu  # (x/2)^nu / nu! with nu! = 1
        total = term.copy()
        for k in range(1, 120):
            term = term * half * half / (k * (k + nu))
            total = total + term
        out[small] = total * np.exp(-ax[small])
    if (~small).any():
        big = ax[~small]
        term = np.ones_like(big)
        total = np.ones_like(big)
        for k in range(1, 30):  # prod (4 nu^2 - (2j - 1)^2) / (k! (8x)^k), alternating
            term = term * -(4 * nu * nu - (2 * k - 1) ** 2) / (k * 8 * big)
            total = total + term
        out[~small] = total / np.sqrt(2 * np.pi * big)
    return out


def _i0e_kernel(x):
    return _scaled_bessel(x, 0).astype(x.dtype, copy=False)


def _i1e_kernel(x):
    return (np.sign(x) * _scaled_bessel(x, 1)).astype(x.dtype, copy=False)


def _i0_kernel(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return (_scaled_bessel(x, 0) * np.exp(np.abs(x.astype(np.float64)))).astype(x.dtype, copy=False)


def _i1_kernel(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return (np.sign(x) * _scaled_bessel(x, 1) * np.exp(np.abs(x.astype(np.float64)))).astype(x.dtype, copy=False)


def _safe_x(x):
    """x with zeros replaced by ones, and where x is zero: for the 1/x terms of the I1 gradients."""
    zero = _math.equal(x, _array.zeros_like(x))
    return _array.where(zero, _array.ones_like(x), x), zero


def _i1_grad(op, g):
    """I1'(x) = I0(x) - I1(x) / x; at 0 TensorFlow gives 1 (not the limit 1/2): kept for parity."""
    x = op.inputs[0]
    safe, zero = _safe_x(x)
    return g * _array.where(zero, _array.ones_like(x), bessel_i0(x) - op.outputs[0] / safe)


def _i1e_grad(op, g):
    """I1e'(x) = I0e(x) - I1e(x) (sign(x) + 1/x), which tends to 1/2 at 0."""
    x = op.inputs[0]
    safe, zero = _safe_x(x)
    slope = bessel_i0e(x) - op.outputs[0] * (_math.sign(x) + _math.reciprocal(safe))
    return g * _array.where(zero, _array.fill(_array.shape(x), as_tensor(0.5, x.dtype)), slope)


BesselI0 = defop("BesselI0", kernel=_i0_kernel, infer=R.unary(R.FLOATS), grad=lambda op, g: g * bessel_i1(op.inputs[0]))
BesselI0e = defop("BesselI0e", kernel=_i0e_kernel, infer=R.unary(R.FLOATS),
                  grad=lambda op, g: g * (bessel_i1e(op.inputs[0]) - _math.sign(op.inputs[0]) * op.outputs[0]))
BesselI1 = defop("BesselI1", kernel=_i1_kernel, infer=R.unary(R.FLOATS), grad=_i1_grad)
BesselI1e = defop("BesselI1e", kernel=_i1e_kernel, infer=R.unary(R.FLOATS), grad=_i1e_grad)

# --- Hurwitz zeta ----------------------------------------------------------------------------------


def _zeta64(s, q):
    s, q = np.broadcast_arrays(np.asarray(s, np.float64), np.asarray(q, np.float64))
    out = np.full(s.shape, np.nan)
    out[s == 1] = np.inf
    pole = (s > 1) & (q <= 0) & (q == np.floor(q))
    out[pole & (s % 2 == 0)] = np.inf  # TensorFlow's kernel: +inf for an even integer s, NaN otherwise
    ok = (s > 1) & ~pole & ((q > 0) | (s == np.floor(s)))
    if ok.any():
        out[ok] = _zeta_sum(s[ok], q[ok])
    return out


def _zeta_sum(s, q):
    """sum_{k<N} (q+k)^-s + (q+N)^(1-s)/(s-1) + (q+N)^-s/2 + sum_j B_2j/(2j)! s(s+1)..(s+2j-2) (q+N)^(1-s-2j)."""
    shift = 12 + np.maximum(0, np.ceil(-q)).astype(np.int64)
    total = np.zeros_like(s)
    for k in range(int(shift.max())):
        total = total + np.where(k < shift, np.abs(q + k) ** -s * np.where((q + k < 0) & (s % 2 == 1), -1.0, 1.0),
                                 0.0)
    w = q + shift
    total = total + w ** (1 - s) / (s - 1) + 0.5 * w ** -s
    rising = s.copy()  # s (s+1) ... (s+2j-2)
    power = w ** (-s - 1)
    factorial = 2.0
    for j, b in enumerate(_BERNOULLI, start=1):
        total = total + b / factorial * rising * power
        rising = rising * (s + 2 * j - 1) * (s + 2 * j)
        power = power / (w * w)
        factorial = factorial * (2 * j + 1) * (2 * j + 2)
    return total


def _zeta_kernel(x, q):
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _zeta64(x, q).astype(x.dtype, copy=False)


def _zeta_grad(op, g):
    """TensorFlow differentiates with respect to q only: d/dq zeta(x, q) = -x zeta(x + 1, q)."""
    x, q = op.inputs
    return None, _math.sum_to(g * -x * zeta(x + _c(1, x), q), q)


Zeta = defop("Zeta", inputs=("x", "q"), kernel=_zeta_kernel, infer=R.binary(_F32_64), grad=_zeta_grad)

# --- nextafter, angle ---------------------------------------------------------------------------------

NextAfter = defop("NextAfter", inputs=("x1", "x2"), kernel=np.nextafter, infer=R.binary(_F32_64),
                  grad=lambda op, g: (_math.sum_to(g, op.inputs[0]),
                                      _math.sum_to(_array.zeros_like(g), op.inputs[1])))


def _angle_infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("Angle", x.dtype, (_dt.complex64, _dt.complex128), "input")
    return [Spec(x.shape, x.dtype.real_dtype)]


def _angle_grad(op, g):
    """TensorFlow's rule: -g / (imag(x) + i real(x)), a complex gradient (imag + i real = i conj(x))."""
    x = op.inputs[0]
    return -_math.cast(g, x.dtype) * _math.reciprocal(_math.conj(x) * as_tensor(1j, x.dtype))


Angle = defop("Angle", inputs=("input",), kernel=lambda x: np.angle(x).astype(x.real.dtype, copy=False),
              infer=_angle_infer, grad=_angle_grad)


def _c(value, like):
    return as_tensor(value, like.dtype)


def _unary(opdef, doc):
    def fn(x, name=None):
        return bind(opdef, (as_tensor(x),))
    fn.__name__ = doc.split("`")[1].rsplit(".", 1)[-1]
    fn.__doc__ = doc
    return fn


bessel_i0 = _unary(BesselI0, "`tf.math.bessel_i0`: the modified Bessel function of the first kind, order 0.")
bessel_i0e = _unary(BesselI0e, "`tf.math.bessel_i0e`: exp(-|x|) I0(x), finite for every x.")
bessel_i1 = _unary(BesselI1, "`tf.math.bessel_i1`: the modified Bessel function of the first kind, order 1.")
bessel_i1e = _unary(BesselI1e, "`tf.math.bessel_i1e`: exp(-|x|) I1(x).")


def zeta(x, q, name=None):
    """`tf.math.zeta`: the Hurwitz zeta function sum_k (q + k)^-x (x > 1)."""
    return bind(Zeta, binary_operands(x, q, "Zeta"))


def nextafter(x1, x2, name=None):
    """`tf.math.nextafter`: the next representable value after x1 in the direction of x2."""
    return bind(NextAfter, binary_operands(x1, x2, "NextAfter"))


def angle(input, name=None):
    """`tf.math.angle`: the argument of a complex number; for real input pi where it is negative,
    else 0 (composed, as TensorFlow does)."""
    x = as_tensor(input)
    if x.dtype.is_complex:
        return bind(Angle, (x,))
    pi = _array.fill(_array.shape(x), as_tensor(np.pi, x.dtype))
    return _array.where(_math.less(x, _array.zeros_like(x)), pi, _array.zeros_like(x))


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---

BesselI0.jax = lambda x: jsp.i0(x).astype(x.dtype)
BesselI0e.jax = lambda x: jsp.i0e(x).astype(x.dtype)
BesselI1.jax = lambda x: jsp.i1(x).astype(x.dtype)
BesselI1e.jax = lambda x: jsp.i1e(x).astype(x.dtype)
Zeta.jax = lambda x, q: jsp.zeta(x, q).astype(x.dtype)
NextAfter.jax = lambda x1, x2: jnp.nextafter(x1, x2)
Angle.jax = lambda x: jnp.angle(x).astype(x.real.dtype)
