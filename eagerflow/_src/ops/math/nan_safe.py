"""`tf.math.multiply_no_nan`, `xdivy` and `xlog1py`: products and quotients that are 0 where a
factor is 0, even against inf or NaN; composed from `where`, so they trace and differentiate through
what they are made of."""
from __future__ import annotations

from ..array import basic as _array
from ..operands import binary_operands
from . import elementwise as _math


def multiply_no_nan(x, y, name=None):
    """`tf.math.multiply_no_nan`: x * y, but 0 where y is 0 even when x is inf or NaN."""
    x, y = binary_operands(x, y, "MulNoNan")
    zero = _array.zeros_like(x * y)
    return _array.where(_math.equal(y, _array.zeros_like(y)), zero, x * y)


def xdivy(x, y, name=None):
    """`tf.math.xdivy`: x / y, and 0 where x is 0."""
    x, y = binary_operands(x, y, "Xdivy")
    safe_y = _array.where(_math.equal(x, _array.zeros_like(x)), _array.ones_like(y), y)
    return _array.where(_math.equal(x, _array.zeros_like(x)), _array.zeros_like(x), x / safe_y)


def xlog1py(x, y, name=None):
    """`tf.math.xlog1py`: x * log1p(y), and 0 where x is 0."""
    x, y = binary_operands(x, y, "Xlog1py")
    is_zero = _math.equal(x, _array.zeros_like(x))
    safe_y = _array.where(is_zero, _array.zeros_like(y), y)
    return _array.where(is_zero, _array.zeros_like(x), x * _math.log1p(safe_y))




