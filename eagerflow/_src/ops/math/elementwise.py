"""Elementwise math, comparisons, logic and the complex ops every gradient rule conjugates with: one
import place for the family, whose ops live by kind in comparison.py (comparisons, logic, bitwise),
unary.py (one-input math and Conj), arithmetic.py (two-input math, AddN, ClipByValue) and magnitude.py
(`tf.abs`/`tf.sign` of every number type, ComplexAbs). Cast and sum_to (ops/array/casting.py, broadcasting.py) are here
too, as most callers of these ops need them beside.
"""
from __future__ import annotations

from ..array.basic import cast, sum_to  # noqa: F401
from .comparison import (  # noqa: F401
    and_, bitwise_and, bitwise_or, bitwise_xor, BitwiseAnd, BitwiseOr, BitwiseXor, Equal, equal, Greater,
    greater, greater_equal, GreaterEqual, Invert, invert, invert_, Less, less, less_equal, LessEqual,
    logical_and, logical_not, logical_or, logical_xor, LogicalAnd, LogicalNot, LogicalOr, LogicalXor,
    not_equal, NotEqual, or_, tensor_equals, tensor_not_equals, xor_,
)
from .unary import (  # noqa: F401
    Abs, Ceil, ceil, COMPLEX_DTYPES, complex_part_rule, Conj, conj, Cos, cos, Erf, erf, Exp, exp, Expm1,
    expm1, Floor, floor, is_finite, is_inf, is_nan, IsFinite, IsInf, IsNan, Log, log, Log1p, log1p, Neg,
    negative, REAL_NUMBER_DTYPES, Reciprocal, reciprocal, Round, round, Rsqrt, rsqrt, Sigmoid, sigmoid, Sign,
    Sin, sin, Sqrt, sqrt, Square, square, Tan, tan, Tanh, tanh,
)
from .arithmetic import (  # noqa: F401
    add, add_n, AddN, AddV2, clip_by_value, ClipByValue, div_no_nan, divide, DivNoNan, FloorDiv, floordiv,
    FloorMod, floormod, Maximum, maximum, Minimum, minimum, mod, Mul, multiply, Pow, pow, RealDiv, scalar_mul,
    squared_difference, SquaredDifference, Sub, subtract, truediv,
)
from .magnitude import (  # noqa: F401
    abs, complex_abs, complex_sign, ComplexAbs, sign,
)
