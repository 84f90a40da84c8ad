"""keras.ops.numpy's numeric functions beyond the ufunc basics of _np_elementwise.py: two-input ones with Keras'
strong-type promotion (hypot, logaddexp(2), heaviside, fmod, fmax/fmin, ldexp, gcd, lcm), rounding and clipping,
closeness tests, `where`/`nonzero`, `nan_to_num`, the bitwise functions and `view` (a bit-level reinterpretation)."""
from __future__ import annotations

import math

import numpy as np

from ._common import FLOATX, float_result, np_name, promoted, tensor, tf
from ._np_elementwise import _binary, _float_ints, strong


def hypot(x1, x2):
    """max * sqrt(1 + (min / max)^2): no overflow for large inputs (Keras' formula, so ties differentiate alike)."""
    t = tf()
    x1, x2 = _float_ints(*strong(x1, x2))
    a, b = t.abs(x1), t.abs(x2)
    big, small = t.maximum(a, b), t.minimum(a, b)
    return t.where(t.equal(big, 0), big, big * t.sqrt(1.0 + t.square(t.math.divide_no_nan(small, big))))


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)) without overflow: max + log1p(exp(-|x1 - x2|))."""
    t = tf()
    x1, x2 = float_result(*strong(x1, x2))
    big = t.maximum(x1, x2)
    delta = x1 - x2
    return t.where(t.math.is_nan(delta), x1 + x2, big + t.math.log1p(t.exp(-t.abs(delta))))


def logaddexp2(x1, x2):
    t = tf()
    x1, x2 = float_result(*strong(x1, x2))
    ln2 = t.cast(math.log(2.0), x1.dtype)
    big = t.maximum(x1, x2)
    return big + t.math.log1p(t.math.pow(t.cast(2.0, x1.dtype), -t.abs(x1 - x2))) / ln2


def heaviside(x1, x2):
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0."""
    t = tf()
    x1, x2 = _float_ints(*strong(x1, x2))
    if x1.dtype == t.bool:
        raise TypeError("Cannot convert 0 to EagerTensor of dtype bool")
    return t.where(x1 < 0, t.zeros_like(x1), t.where(t.equal(x1, 0), x2 + t.zeros_like(x1), t.ones_like(x1)))


def fmod(x1, x2):
    """The remainder with the sign of x1 (C's fmod), not Python's."""
    t = tf()
    x1, x2 = promoted(*strong(x1, x2))
    if x1.dtype == t.bool:
        x1, x2 = t.cast(x1, "int32"), t.cast(x2, "int32")
    r = t.math.floormod(x1, x2)  # then moved to x1's sign (a zero integer divisor fails here, as in Keras)
    return t.where(t.logical_and(t.not_equal(r, 0), t.not_equal(r < 0, x1 < 0)), r - x2, r)


def _nan_ignoring(pick):
    def fn(x1, x2):
        t = tf()
        x1, x2 = promoted(x1, x2)
        if not x1.dtype.is_floating:
            return pick(x1, x2)
        return t.where(t.math.is_nan(x1), x2, t.where(t.math.is_nan(x2), x1, pick(x1, x2)))
    return fn


fmax, fmin = _nan_ignoring(lambda a, b: tf().maximum(a, b)), _nan_ignoring(lambda a, b: tf().minimum(a, b))


def ldexp(x1, x2):
    """x1 * 2**x2 (x2 integer)."""
    t = tf()
    if tensor(x2).dtype.is_floating:
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 dtype={tensor(x2).dtype.name}")
    (x1,) = float_result(x1)
    return x1 * t.math.pow(t.cast(2.0, x1.dtype), t.cast(x2, x1.dtype))


def gcd(x1, x2):
    t = tf()
    x1, x2 = promoted(x1, x2)
    shape = t.broadcast_dynamic_shape(t.shape(x1), t.shape(x2))
    x1, x2 = t.broadcast_to(x1, shape), t.broadcast_to(x2, shape)
    a, b = t.abs(x1), t.abs(x2)
    a, _ = t.while_loop(lambda a_, b_: t.reduce_any(t.not_equal(b_, 0)),
                        lambda a_, b_: (t.where(t.equal(b_, 0), a_, b_),
                                        t.where(t.equal(b_, 0), b_,
                                                t.math.floormod(a_, t.where(t.equal(b_, 0), t.ones_like(b_), b_)))),
                        (a, b))
    return a


def lcm(x1, x2):
    t = tf()
    x1, x2 = promoted(x1, x2)
    g = gcd(x1, x2)
    safe = t.where(t.equal(g, 0), t.ones_like(g), g)
    return t.where(t.equal(g, 0), t.zeros_like(g), t.abs(x1 * x2) // safe)


def round(x, decimals=0):  # noqa: A001
    t = tf()
    x = tensor(x)
    if decimals == 0:
        return t.math.round(x)
    scale = np.asarray(10.0 ** decimals, dtype=np_name(x.dtype) if x.dtype.is_floating else FLOATX)
    return t.math.round(t.cast(x, scale.dtype.name) * scale) / scale


def clip(x, x_min, x_max):
    t = tf()
    x = tensor(x)
    if x.dtype == t.bool:
        x = t.cast(x, "int32")
    return t.clip_by_value(x, t.cast(x_min, x.dtype), t.cast(x_max, x.dtype))


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    t = tf()
    x1, x2 = promoted(x1, x2)
    if not x1.dtype.is_floating:
        return t.equal(x1, x2)
    close = t.abs(x1 - x2) <= (atol + rtol * t.abs(x2))
    close = t.logical_or(close, t.equal(x1, x2))  # equal infinities
    if equal_nan:
        close = t.logical_or(close, t.logical_and(t.math.is_nan(x1), t.math.is_nan(x2)))
    return close


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    return tf().reduce_all(isclose(x1, x2, rtol, atol, equal_nan))


def where(condition, x1=None, x2=None):
    t = tf()
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("`x1` and `x2` either both should be `None` or both should have non-None value.")
    a, b = promoted(x1, x2)
    return t.where(t.cast(condition, t.bool), a, b)


def nonzero(x):
    """A tuple of index vectors, one per axis, of x's non-zero entries (int32)."""
    t = tf()
    x = tensor(x)
    idx = t.cast(t.where(t.not_equal(x, t.zeros_like(x))), "int32")
    return tuple(t.unstack(idx, num=x.shape.rank, axis=1))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    t = tf()
    x = tensor(x)
    if not x.dtype.is_floating:
        return x
    info = np.finfo(np_name(x.dtype))
    x = t.where(t.math.is_nan(x), t.cast(nan, x.dtype), x)
    x = t.where(x == np.inf, t.cast(info.max if posinf is None else posinf, x.dtype), x)
    return t.where(x == -np.inf, t.cast(info.min if neginf is None else neginf, x.dtype), x)


# --- bitwise: promoted by Keras' rule, then tf.bitwise (integers only: a bool or float is TF's error) ---
bitwise_and, bitwise_or, bitwise_xor = (_binary(n, module="bitwise") for n in ("bitwise_and", "bitwise_or",
                                                                                "bitwise_xor"))
bitwise_left_shift = left_shift = _binary("left_shift", module="bitwise")
bitwise_right_shift = right_shift = _binary("right_shift", module="bitwise")


def bitwise_invert(x):
    return tf().bitwise.invert(tensor(x))


bitwise_not = bitwise_invert


def view(x, dtype=None):
    """NumPy's `x.view(dtype)`: the same bytes as another dtype; with a different item size the last
    axis is rescaled (float32 [2, 3] as uint8 is [2, 12]). Keras' ValueError when the bytes do not
    divide; tf.bitcast does the reinterpretation."""
    t = tf()
    x = tensor(x)
    new = t.as_dtype(dtype) if dtype is not None else x.dtype
    old_size, new_size = x.dtype.size, new.size
    shape = list(x.shape)
    last = shape[-1] if shape else -1
    if (old_size != new_size and last == -1) or (last * old_size) % new_size:
        raise ValueError(f"Cannot view array of shape {x.shape} and dtype {x.dtype} as dtype {new} because the "
                         f"total number of bytes is not divisible by the new itemsize.")
    if old_size == new_size:
        return t.bitcast(x, new)
    if old_size > new_size:
        return t.reshape(t.bitcast(x, new), shape[:-1] + [last * (old_size // new_size)])
    ratio = new_size // old_size
    return t.bitcast(t.reshape(x, shape[:-1] + [last // ratio, ratio]), new)
