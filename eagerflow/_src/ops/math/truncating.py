"""`tf.truncatediv`, `tf.truncatemod` (C's integer division and remainder: rounding toward zero,
the remainder taking the dividend's sign), `tf.realdiv`, `tf.saturate_cast`, and `tf.math.rint`
(round to nearest, halves to even; no gradient through rounding, as in TensorFlow).

TensorFlow registers no gradient for TruncateDiv or TruncateMod (a LookupError there; None here).
An integer divisor of zero fails with TensorFlow's own (internal) wording.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InternalError
from .. import shape_rules as R
from .arithmetic import RealDiv, _broadcastable, cast, clip_by_value
from ..operands import as_tensor, binary_operands
from ..validation import check_rule
from ..registry import NO_GRADIENT, bind, defop
from ..lazy_jax import jnp, lax  # callables that import JAX on first use only

_NUMBERS = R.REAL_NUMBERS + (_dt.complex64, _dt.complex128)


def _integer_divisor_checked(x, y):
    _broadcastable(x, y)
    if y.dtype.kind in "iu" and not np.all(y):
        raise InternalError(None, None,
                            "Unexpected error in binary operator (only integer div and mod should have errors)")


def _truncatediv_kernel(x, y):
    _integer_divisor_checked(x, y)
    if x.dtype.kind in "iu":
        quotient = np.abs(x) // np.abs(y)
        return np.where((x < 0) != (y < 0), -quotient, quotient).astype(np.result_type(x, y), copy=False)
    return np.trunc(np.true_divide(x, y)).astype(np.result_type(x, y), copy=False)


def _truncatemod_kernel(x, y):
    _integer_divisor_checked(x, y)
    return np.fmod(x, y)


TruncateDiv = defop("TruncateDiv", inputs=("x", "y"), kernel=_truncatediv_kernel, infer=R.binary(_NUMBERS),
                    grad=NO_GRADIENT, doc="x / y rounded toward zero.")
TruncateMod = defop("TruncateMod", inputs=("x", "y"), kernel=_truncatemod_kernel, infer=R.binary(R.REAL_NUMBERS),
                    grad=NO_GRADIENT, doc="The remainder of truncating division: it has the sign of x.")


def truncatediv(x, y, name=None):
    """`tf.truncatediv`: the quotient rounded toward zero (-7 / 2 -> -3)."""
    x, y = binary_operands(x, y, "TruncateDiv")
    return bind(TruncateDiv, (x, y), name=name)


def truncatemod(x, y, name=None):
    """`tf.truncatemod`: x - truncatediv(x, y) * y (-7 mod 3 -> -1)."""
    x, y = binary_operands(x, y, "TruncateMod")
    return bind(TruncateMod, (x, y), name=name)


def realdiv(x, y, name=None):
    """`tf.realdiv`: the RealDiv op itself, without truediv's integer-to-float casts."""
    x, y = binary_operands(x, y, "RealDiv")
    return bind(RealDiv, (x, y), name=name)


def saturate_cast(value, dtype, name=None):
    """`tf.saturate_cast`: a cast that first clamps the values into the target type's range, so
    300.0 -> uint8 is 255 rather than wrapping around."""
    dtype = _dt.as_dtype(dtype)
    x = as_tensor(value)
    if x.dtype.is_complex and not dtype.is_complex:
        from .complex import real
        x = real(x)
    if x.dtype != dtype and not dtype.is_bool and not x.dtype.is_bool:
        lo, hi = _bounds(x.dtype, dtype)
        if lo is not None or hi is not None:
            np_type = x.dtype.np_dtype
            lo = np.asarray(lo if lo is not None else _limits(x.dtype)[0]).astype(np_type)
            hi = np.asarray(hi if hi is not None else _limits(x.dtype)[1]).astype(np_type)
            x = clip_by_value(x, as_tensor(lo), as_tensor(hi))
    return cast(x, dtype)


def _limits(dtype):
    info = np.iinfo(dtype.np_dtype) if dtype.is_integer else np.finfo(dtype.np_dtype)
    return info.min, info.max


def _bounds(source, target):
    """The clamp limits, in the source type, for values cast to `target` (None: no limit needed).
    An integer limit a float cannot hold exactly is taken toward zero (TensorFlow's rule)."""
    limits = _limits
    if source.is_complex:
        source = _dt.float64
    s_lo, s_hi = limits(source)
    t_lo, t_hi = limits(target)
    lo = t_lo if t_lo > s_lo else None
    hi = t_hi if t_hi < s_hi else None
    if source.is_floating:
        np_type = source.np_dtype
        if lo is not None:
            f = np.asarray(lo).astype(np_type)
            lo = np.nextafter(f, np_type.type(0)) if int(f) < lo else f
        if hi is not None:
            f = np.asarray(hi).astype(np_type)
            hi = np.nextafter(f, np_type.type(0)) if int(f) > hi else f
    return lo, hi


Rint = defop("Rint", kernel=np.rint, infer=R.unary(R.FLOATS), grad=NO_GRADIENT)


def rint(x, name=None):
    """`tf.math.rint`: round to the nearest integer, halves to even."""
    t = as_tensor(x)
    check_rule(Rint, (t,), {})
    return bind(Rint, (t,))


# --- JAX lowerings: lax.div and lax.rem round toward zero, as these ops do ---
def _jax_truncatediv(x, y):
    return lax.div(x, y) if x.dtype.kind in "iu" else jnp.trunc(x / y)


def _jax_truncatemod(x, y):
    return lax.rem(x, y)


TruncateDiv.jax = _jax_truncatediv
TruncateMod.jax = _jax_truncatemod
Rint.jax = lambda x: jnp.rint(x)
