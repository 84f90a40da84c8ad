"""keras.ops.numpy's element-wise functions: arithmetic and comparisons with Keras' promotion, the float-valued
unary functions (integers become floatx), and NumPy's extras (hypot, logaddexp, isclose, sinc...)."""
from __future__ import annotations

import math

import numpy as np

from ._common import FLOATX, as_dtype, float_result, is_python_scalar, np_name, promoted, result_type, tensor, tf


def strong(*values):
    """The operands with Python scalars made tensors first (int32 / floatx), so they count as strong types: the
    promotion Keras applies in arctan2, mod, fmod, hypot, heaviside, logaddexp(2) and nextafter."""
    return [tensor(v) if is_python_scalar(v) else v for v in values]


def _float_ints(*values):
    """Promoted, integers then taken to floatx (bools stay bool, for the kernel to refuse as Keras' does)."""
    values = promoted(*values)
    if values[0].dtype.is_integer:
        values = [tf().cast(v, FLOATX) for v in values]
    return values


def _binary(fn_name, float_out=False, module="math"):
    def fn(x1, x2):
        t = tf()
        a, b = (float_result if float_out else promoted)(x1, x2)
        return getattr(getattr(t, module) if module else t, fn_name)(a, b)
    fn.__name__ = fn_name
    return fn


add, subtract, multiply = _binary("add"), _binary("subtract"), _binary("multiply")
maximum, minimum, power = _binary("maximum"), _binary("minimum"), _binary("pow")
divide = true_divide = _binary("truediv", float_out=True)
floor_divide = _binary("floordiv")


def mod(x1, x2):
    t = tf()
    x1, x2 = promoted(*strong(x1, x2))
    if x1.dtype == t.bool:
        x1, x2 = t.cast(x1, "int32"), t.cast(x2, "int32")
    return t.math.floormod(x1, x2)


def arctan2(x1, x2):
    return tf().math.atan2(*float_result(*strong(x1, x2)))
equal, not_equal = _binary("equal"), _binary("not_equal")
greater, greater_equal, less, less_equal = (_binary(n) for n in ("greater", "greater_equal", "less", "less_equal"))
divide_no_nan = _binary("divide_no_nan", float_out=True)


def nextafter(x1, x2):
    """Computed in float64 (TensorFlow's NextAfter has no float16 kernel), returned in the promoted type."""
    t = tf()
    x1, x2 = float_result(*strong(x1, x2))
    return t.cast(t.math.nextafter(t.cast(x1, "float64"), t.cast(x2, "float64")), x1.dtype)


def _logical(name):
    def fn(x1, x2):
        t = tf()
        return getattr(t.math, name)(t.cast(x1, t.bool), t.cast(x2, t.bool))
    fn.__name__ = name
    return fn


logical_and, logical_or, logical_xor = _logical("logical_and"), _logical("logical_or"), _logical("logical_xor")


def logical_not(x):
    t = tf()
    return t.math.logical_not(t.cast(x, t.bool))


def _unary(name, float_out=False):
    def fn(x):
        (x,) = float_result(x) if float_out else (tensor(x),)
        return getattr(tf().math, name)(x)
    fn.__name__ = name
    return fn


negative, sign = _unary("negative"), _unary("sign")


def abs(x):  # noqa: A001
    x = tensor(x)
    return x if x.dtype == tf().bool else tf().math.abs(x)


absolute = abs


def square(x):
    x = tensor(x)
    return tf().math.square(tf().cast(x, "int32") if x.dtype == tf().bool else x)


def reciprocal(x):
    """Floats and bools go to TensorFlow's Reciprocal (which refuses bools); integers have no kernel there."""
    x = tensor(x)
    if x.dtype.is_integer:
        raise tf().errors.NotFoundError(None, None, "Could not find device for node: {{node Reciprocal}} = "
                                        f"Reciprocal[T=DT_{x.dtype.name.upper()}]")
    return tf().math.reciprocal(x)
floor, ceil = _unary("floor", True), _unary("ceil", True)
sqrt, exp, log, log1p, expm1 = (_unary(n, True) for n in ("sqrt", "exp", "log", "log1p", "expm1"))
sin, cos, tan, sinh, cosh, tanh = (_unary(n, True) for n in ("sin", "cos", "tan", "sinh", "cosh", "tanh"))
arcsin, arccos, arctan = _unary("asin", True), _unary("acos", True), _unary("atan", True)
arcsinh, arccosh, arctanh = _unary("asinh", True), _unary("acosh", True), _unary("atanh", True)
i0 = _unary("bessel_i0", True)
angle = _unary("angle", True)


def _float_or_complex(x):
    x = tensor(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf().cast(x, FLOATX)


def isnan(x):
    x = tensor(x)
    return tf().math.is_nan(x) if x.dtype.is_floating else tf().zeros_like(x, dtype="bool")


def isinf(x):
    x = tensor(x)
    return tf().math.is_inf(x) if x.dtype.is_floating else tf().zeros_like(x, dtype="bool")


def isfinite(x):
    x = tensor(x)
    return tf().math.is_finite(x) if x.dtype.is_floating else tf().ones_like(x, dtype="bool")


def isposinf(x):
    x = tensor(x)
    return tf().equal(x, np.inf) if x.dtype.is_floating else tf().zeros_like(x, dtype="bool")


def isneginf(x):
    x = tensor(x)
    return tf().equal(x, -np.inf) if x.dtype.is_floating else tf().zeros_like(x, dtype="bool")


def isreal(x):
    t = tf()
    x = tensor(x)
    return t.equal(t.math.imag(x), 0) if x.dtype.is_complex else t.ones_like(x, dtype="bool")


def _numeric(x, message):
    x = tensor(x)
    if x.dtype == tf().bool:
        raise TypeError(message.format(f"<dtype: '{x.dtype.name}'>"))
    return x


def real(x):
    x = _numeric(x, "input must be a numeric tensor, but got tensor with dtype {}")
    return tf().math.real(x) if x.dtype.is_complex else x


def imag(x):
    x = tensor(x)
    return tf().math.imag(x) if x.dtype.is_complex else tf().zeros_like(x)


def conj(x):
    x = _numeric(x, "Expected numeric or variant tensor, got dtype tf.bool.")
    return tf().math.conj(x) if x.dtype.is_complex else x


conjugate = conj


def log2(x):
    (x,) = float_result(x)
    return tf().math.log(x) / np.log(2.0).astype(np_name(x.dtype))


def log10(x):
    (x,) = float_result(x)
    return tf().math.log(x) / np.log(10.0).astype(np_name(x.dtype))


def exp2(x):
    (x,) = float_result(x)
    return tf().math.pow(tf().cast(2.0, x.dtype), x)


def cbrt(x):
    t = tf()
    (x,) = float_result(x)
    return t.sign(x) * t.math.pow(t.abs(x), t.cast(1.0 / 3.0, x.dtype))


def fabs(x):
    (x,) = float_result(x)
    return tf().math.abs(x)


def trunc(x):
    t = tf()
    x = tensor(x)
    return t.where(x < 0, t.math.ceil(x), t.math.floor(x)) if x.dtype.is_floating else x


def signbit(x):
    """True where the sign bit is set: negative numbers and -0.0 (1 / -0.0 is -inf)."""
    t = tf()
    x = tensor(x)
    if x.dtype == t.bool:
        return t.zeros_like(x, dtype="bool")
    if not x.dtype.is_floating:
        return x < 0
    return t.logical_or(x < 0, t.logical_and(t.equal(x, 0), t.math.reciprocal(x) < 0))


def deg2rad(x):
    """x * (pi / 180) with pi rounded to x's type first, as Keras computes it."""
    (x,) = float_result(x)
    return x * (tf().cast(math.pi, x.dtype) / 180.0)


def rad2deg(x):
    (x,) = float_result(x)
    return x * (180.0 / tf().cast(math.pi, x.dtype))


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    t = tf()
    (x,) = float_result(x)
    pix = x * t.cast(math.pi, x.dtype)
    safe = t.where(t.equal(x, 0), t.ones_like(x), pix)
    return t.where(t.equal(x, 0), t.ones_like(x), t.sin(safe) / safe)


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
