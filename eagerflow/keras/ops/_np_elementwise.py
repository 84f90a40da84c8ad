"""keras.ops.numpy's element-wise functions: arithmetic and comparisons with Keras' promotion, logic, and the
float-valued unary functions (integers become floatx). NumPy's further numeric functions (hypot, logaddexp,
isclose, nan_to_num, bitwise...) are in _np_numeric.py."""
from __future__ import annotations

import math

import numpy as np

from ._common import FLOATX, float_result, is_python_scalar, np_name, promoted, tensor, tf


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
