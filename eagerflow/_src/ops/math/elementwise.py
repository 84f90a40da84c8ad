"""Elementwise math, comparisons, logic, and the complex ops every gradient rule conjugates with (Conj,
ComplexAbs). Cast and sum_to are in ops/array/basic.py, matrix products in ops/linalg/matmul.py.

Each op is one `defop` block: TF op type, NumPy kernel, shape/dtype rule, gradient written with
ops (so it traces and nests). The public functions below convert arguments and call `bind`.
"""
from __future__ import annotations

import functools
import math as _pymath

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor
from ...core.errors import InvalidArgumentError, NotFoundError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..array import basic as _array
from ..array.basic import cast, sum_to
from ..lazy_jax import jnp, jsp, lax  # callables that import JAX on first use only
from ..operands import as_tensor, binary_operands, convert_beside, same_dtype_operands
from ..registry import NO_GRADIENT, Spec, bind, defop

# Element types each op accepts (TensorFlow's op definitions, minus bfloat16 and quantized types).
_D = _dt
_SIGNED_INTS = (_D.int8, _D.int16, _D.int32, _D.int64)
_UNSIGNED_INTS = (_D.uint8, _D.uint16, _D.uint32, _D.uint64)
_REAL_SIGNED = R.FLOATS + _SIGNED_INTS
_POW_TYPES = R.FLOAT_COMPLEX + _SIGNED_INTS
_SQDIFF_TYPES = R.FLOAT_COMPLEX + (_D.int32, _D.int64)
_NO_ATTRS: dict = {}

# ----------------------------------------------------------------------------------------------
# Gradient helpers
# ----------------------------------------------------------------------------------------------
# Complex inputs: gradients follow TensorFlow's convention, g * conj(f'(z)) (the conjugate
# Wirtinger derivative, what gradient descent on a real loss needs), so each rule conjugates its
# derivative factor. conj of a real tensor is the tensor itself: real gradients build no extra op.


def _zero_where_gradient_is_zero(g, product):
    """`product` (the incoming gradient times a derivative that may be infinite or NaN at an edge point,
    as 1/sqrt(x) at 0) with 0 wherever `g` is 0, as TensorFlow's Sqrt, Rsqrt and Reciprocal gradient
    kernels give it: a branch cut off by `tf.where`, or multiplied by 0, then passes no NaN back."""
    zeros = _array.zeros_like(product)
    return _array.where(equal(g, zeros), zeros, product)


# ----------------------------------------------------------------------------------------------
# Binary elementwise ops
# ----------------------------------------------------------------------------------------------


def _broadcastable(x, y):
    """TensorFlow checks the shapes before the values: an incompatible pair fails here (NumPy's
    ValueError, which `bind` reports with the rule's "Incompatible shapes") before a value check."""
    if np.shape(x) != np.shape(y):
        np.broadcast_shapes(np.shape(x), np.shape(y))


def _nonzero_divisor(x, y):
    _broadcastable(x, y)
    if y.dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError(None, None, "Integer division by zero")


def _floordiv_kernel(x, y):
    if x.dtype.kind in "iu":
        _nonzero_divisor(x, y)
        return np.floor_divide(x, y)
    return np.floor(np.true_divide(x, y))


def _floormod_kernel(x, y):
    if x.dtype.kind in "iu":
        _nonzero_divisor(x, y)
        return np.mod(x, y)
    # TensorFlow's float floormod is fmod moved into the divisor's sign: a zero keeps x's sign
    # (-2.0 mod 2.0 is -0.0), where NumPy's np.mod gives the divisor's (0.0).
    r = np.fmod(x, y)
    return np.where((r != 0) & ((r < 0) != (y < 0)), r + y, r)


def _pow_kernel(x, y):
    if x.dtype.kind in "iu":
        _broadcastable(x, y)
    if x.dtype.kind in "iu" and np.any(y < 0):
        raise InvalidArgumentError(None, None, "Integers to negative integer powers are not allowed")
    return np.power(x, y)


def _squared_difference_kernel(x, y):
    d = x - y
    return d * np.conj(d) if d.dtype.kind == "c" else np.square(d)  # TensorFlow: |x - y|^2 for complex


def _pow_grad(op, g):
    x, y = op.inputs
    z = op.outputs[0]
    gx = g * conj(y * pow(x, y - as_tensor(1, y.dtype)))
    # log(x) where it is defined: x > 0 for reals, x != 0 for complex numbers
    defined = (not_equal if x.dtype.is_complex else greater)(x, as_tensor(0, x.dtype))
    log_x = _array.where(defined, log(_array.where(defined, x, _array.ones_like(x))), _array.zeros_like(x))
    gy = g * conj(z * log_x)
    return sum_to(gx, x), sum_to(gy, y)


def _minmax_grad(mask_fn):
    def grad(op, g):
        x, y = op.inputs
        mask = mask_fn(x, y)
        zeros = _array.zeros_like(g)
        return sum_to(_array.where(mask, g, zeros), x), sum_to(_array.where(mask, zeros, g), y)
    return grad


AddV2 = defop("AddV2", inputs=("x", "y"), kernel=np.add, infer=R.binary(R.NUMBERS + (_dt.string,)),
              grad=lambda op, g: (sum_to(g, op.inputs[0]), sum_to(g, op.inputs[1])))
Sub = defop("Sub", inputs=("x", "y"), kernel=np.subtract, infer=R.binary(R.NUMBERS),
            grad=lambda op, g: (sum_to(g, op.inputs[0]), sum_to(negative(g), op.inputs[1])))
Mul = defop("Mul", inputs=("x", "y"), kernel=np.multiply, infer=R.binary(R.NUMBERS),
            grad=lambda op, g: (sum_to(g * conj(op.inputs[1]), op.inputs[0]),
                                sum_to(conj(op.inputs[0]) * g, op.inputs[1])))
RealDiv = defop(
    "RealDiv", inputs=("x", "y"), kernel=np.true_divide, infer=R.binary(R.FLOAT_COMPLEX),
    grad=lambda op, g: (sum_to(g / conj(op.inputs[1]), op.inputs[0]),
                        sum_to(negative(g) * conj(op.inputs[0] / (op.inputs[1] * op.inputs[1])), op.inputs[1])))


def _div_no_nan_kernel(x, y):
    """x / y, and 0 wherever y == 0 (whatever x is there). Most calls (a metric's total / count)
    divide by no zero: one division then, not the five array ops of the general case."""
    zero = np.equal(y, 0)
    if not zero.any():
        return np.asarray(np.true_divide(x, y)).astype(x.dtype, copy=False)
    return np.where(zero, np.zeros_like(x * y), np.true_divide(x, np.where(zero, 1, y))).astype(x.dtype)


DivNoNan = defop(
    "DivNoNan", inputs=("x", "y"), infer=R.binary(R.FLOAT_COMPLEX), kernel=_div_no_nan_kernel,
    grad=lambda op, g: (sum_to(div_no_nan(g, conj(op.inputs[1])), op.inputs[0]),
                        sum_to(g * conj(div_no_nan(div_no_nan(negative(op.inputs[0]), op.inputs[1]), op.inputs[1])),
                               op.inputs[1])))
# Integer-valued steps: TensorFlow gives no gradient (None), which NO_GRADIENT reproduces.
_floordiv_rule = R.binary(R.REAL_NUMBERS)
_floordiv_rule.op_name = "FloorDiv"


def _floordiv_infer(inputs, attrs):
    """FloorDiv's op definition lists the complex types, but TensorFlow registers no complex kernel
    for it: the call fails looking for one (NotFoundError, in eager and graph mode alike here)."""
    dtype = inputs[0].dtype
    if dtype.is_complex and inputs[1].dtype is dtype:
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node FloorDiv}}}} = "
                                        f"FloorDiv[T=DT_{dtype.name.upper()}]")
    return _floordiv_rule(inputs, attrs)


FloorDiv = defop("FloorDiv", inputs=("x", "y"), kernel=_floordiv_kernel, infer=_floordiv_infer, grad=NO_GRADIENT)
FloorMod = defop(
    "FloorMod", inputs=("x", "y"), kernel=_floormod_kernel, infer=R.binary(R.REAL_NUMBERS),
    grad=lambda op, g: (sum_to(g, op.inputs[0]),
                        sum_to(negative(g) * floor(op.inputs[0] / op.inputs[1]), op.inputs[1])))
Pow = defop("Pow", inputs=("x", "y"), kernel=_pow_kernel, infer=R.binary(_POW_TYPES), grad=_pow_grad)
Maximum = defop("Maximum", inputs=("x", "y"), kernel=np.maximum, infer=R.binary(R.REAL_NUMBERS),
                grad=_minmax_grad(lambda x, y: greater_equal(x, y)))
Minimum = defop("Minimum", inputs=("x", "y"), kernel=np.minimum, infer=R.binary(R.REAL_NUMBERS),
                grad=_minmax_grad(lambda x, y: less_equal(x, y)))
SquaredDifference = defop(
    "SquaredDifference", inputs=("x", "y"), infer=R.binary(_SQDIFF_TYPES),
    kernel=_squared_difference_kernel,
    grad=lambda op, g: (sum_to(g * as_tensor(2.0, g.dtype) * (op.inputs[0] - op.inputs[1]), op.inputs[0]),
                        sum_to(g * as_tensor(-2.0, g.dtype) * (op.inputs[0] - op.inputs[1]), op.inputs[1])))

_BOOL = _dt.bool_
Equal = defop("Equal", inputs=("x", "y"), kernel=np.equal, infer=R.binary(out_dtype=_BOOL), grad=NO_GRADIENT)
NotEqual = defop("NotEqual", inputs=("x", "y"), kernel=np.not_equal, infer=R.binary(out_dtype=_BOOL),
                 grad=NO_GRADIENT)
Less = defop("Less", inputs=("x", "y"), kernel=np.less, infer=R.binary(R.REAL_NUMBERS, _BOOL), grad=NO_GRADIENT)
LessEqual = defop("LessEqual", inputs=("x", "y"), kernel=np.less_equal, infer=R.binary(R.REAL_NUMBERS, _BOOL),
                  grad=NO_GRADIENT)
Greater = defop("Greater", inputs=("x", "y"), kernel=np.greater, infer=R.binary(R.REAL_NUMBERS, _BOOL),
                grad=NO_GRADIENT)
GreaterEqual = defop("GreaterEqual", inputs=("x", "y"), kernel=np.greater_equal,
                     infer=R.binary(R.REAL_NUMBERS, _BOOL), grad=NO_GRADIENT)
LogicalAnd = defop("LogicalAnd", inputs=("x", "y"), kernel=np.logical_and, infer=R.fixed_dtype(_BOOL, binary=True),
                   grad=NO_GRADIENT)
LogicalOr = defop("LogicalOr", inputs=("x", "y"), kernel=np.logical_or, infer=R.fixed_dtype(_BOOL, binary=True),
                  grad=NO_GRADIENT)
LogicalNot = defop("LogicalNot", kernel=np.logical_not, infer=R.fixed_dtype(_BOOL), grad=NO_GRADIENT)
BitwiseAnd = defop("BitwiseAnd", inputs=("x", "y"), kernel=np.bitwise_and, infer=R.binary(R.INTEGERS),
                   grad=NO_GRADIENT)
BitwiseOr = defop("BitwiseOr", inputs=("x", "y"), kernel=np.bitwise_or, infer=R.binary(R.INTEGERS),
                  grad=NO_GRADIENT)
BitwiseXor = defop("BitwiseXor", inputs=("x", "y"), kernel=np.bitwise_xor, infer=R.binary(R.INTEGERS),
                   grad=NO_GRADIENT)
LogicalXor = defop("LogicalXor", inputs=("x", "y"), kernel=np.logical_xor, infer=R.binary((_BOOL,)),
                   grad=NO_GRADIENT)
Invert = defop("Invert", kernel=np.invert, infer=R.unary(R.INTEGERS), grad=NO_GRADIENT)

# ----------------------------------------------------------------------------------------------
# Unary elementwise ops
# ----------------------------------------------------------------------------------------------


def _sigmoid_kernel(x):
    one = x.dtype.type(1)  # NOTE: a typed 1, not the literal: NumPy 1.x promotes `1 / 0-d float32` to float64
    if x.dtype.kind == "c":  # 1 / (1 + e^-x) holds for complex x; |x| and `x >= 0` have no meaning there
        return one / (one + np.exp(-x))
    if x.ndim == 0:
        return _sigmoid_kernel(x.reshape(1)).reshape(())
    # e^min(x, 0) / (1 + e^-|x|): for x >= 0 that is 1 / (1 + e^-x), for x < 0 it is e^x / (1 + e^x),
    # the two overflow-free branches, value for value, with no select: np.where over a random sign
    # pattern cost three times the arithmetic (4M float32: 33 ms -> 9 ms, in tiles 3 ms).
    num = np.minimum(x, x.dtype.type(0))
    np.exp(num, out=num)
    den = np.abs(x)
    np.negative(den, out=den)
    np.exp(den, out=den)
    den += one
    num /= den
    return num


def _load_erf():
    """SciPy's erf (exact and vectorised) when SciPy is installed, else math.erf per element.
    Looked up on the first Erf, never at `import eagerflow`: SciPy takes longer to import than
    all of eagerflow."""
    try:
        from scipy.special import erf
        return erf
    except ImportError:
        vectorised = np.vectorize(_pymath.erf, otypes=[np.float64])
        return lambda x: vectorised(x).astype(x.dtype) if x.size else x.copy()


_erf_kernel = None


def _erf(x):
    global _erf_kernel
    if x.dtype == np.float32 or x.dtype == np.float16:  # as accurate as TensorFlow's, 50x math.erf's speed
        from .erf_float32 import erf_float32  # (not at import: most programs never call erf)
        return erf_float32(x)
    if _erf_kernel is None:
        _erf_kernel = _load_erf()
    return np.asarray(_erf_kernel(x)).astype(x.dtype, copy=False)


def _const(value, like):
    return as_tensor(value, like.dtype)


Neg = defop("Neg", kernel=np.negative, infer=R.unary(R.SIGNED_NUMBERS), grad=lambda op, g: negative(g))
Abs = defop("Abs", kernel=np.abs, infer=R.unary(_REAL_SIGNED), grad=lambda op, g: g * sign(op.inputs[0]))
def _sign_kernel(x):
    if x.dtype.kind != "c":
        return np.sign(x)
    # TensorFlow: x / |x| (0 at 0). NumPy 1.x's sign of a complex is the sign of its real part.
    r = np.abs(x)
    return np.where(r == 0, x.dtype.type(0), x / np.where(r == 0, r.dtype.type(1), r)).astype(x.dtype)


def _round_infer(inputs, attrs):
    """Round's op definition lists complex types, but TensorFlow has no complex kernel for it: the
    call fails looking for one (NotFoundError), rather than rounding each part."""
    x = inputs[0]
    if x.dtype.is_complex:
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node Round}}}} = "
                                        f"Round[T=DT_{x.dtype.name.upper()}]")
    return _round_rule(inputs, attrs)


_round_rule = R.unary(R.SIGNED_NUMBERS)
_round_rule.op_name = "Round"

Sign = defop("Sign", kernel=_sign_kernel, infer=R.unary(R.SIGNED_NUMBERS),
             grad=lambda op, g: _array.zeros_like(op.inputs[0]))
Exp = defop("Exp", kernel=np.exp, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g * conj(op.outputs[0]))
Expm1 = defop("Expm1", kernel=np.expm1, infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: g * conj(exp(op.inputs[0])))
Log = defop("Log", kernel=np.log, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g / conj(op.inputs[0]))
Log1p = defop("Log1p", kernel=np.log1p, infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: g / conj(_const(1, g) + op.inputs[0]))
Sqrt = defop("Sqrt", kernel=np.sqrt, infer=R.unary(R.FLOAT_COMPLEX),
             grad=lambda op, g: _zero_where_gradient_is_zero(g, _const(0.5, g) * g / conj(op.outputs[0])))
# NOTE: np.reciprocal, not `1 / x`: under NumPy 1.x a Python 1 over a 0-d float32 array gives float64.
Rsqrt = defop("Rsqrt", kernel=lambda x: np.reciprocal(np.sqrt(x)), infer=R.unary(R.FLOAT_COMPLEX),
              grad=lambda op, g: _zero_where_gradient_is_zero(
                  g, _const(-0.5, g) * (g * conj(op.outputs[0])) * conj(op.outputs[0] * op.outputs[0])))
Square = defop("Square", kernel=np.square, infer=R.unary(R.NUMBERS),
               grad=lambda op, g: g * _const(2, g) * conj(op.inputs[0]))
Reciprocal = defop("Reciprocal", kernel=np.reciprocal, infer=R.unary(R.FLOAT_COMPLEX),
                   grad=lambda op, g: _zero_where_gradient_is_zero(
                       g, negative(g) * conj(op.outputs[0] * op.outputs[0])))
Sin = defop("Sin", kernel=np.sin, infer=R.unary(R.FLOAT_COMPLEX), grad=lambda op, g: g * conj(cos(op.inputs[0])))
Cos = defop("Cos", kernel=np.cos, infer=R.unary(R.FLOAT_COMPLEX),
            grad=lambda op, g: negative(g) * conj(sin(op.inputs[0])))
Tan = defop("Tan", kernel=np.tan, infer=R.unary(R.FLOAT_COMPLEX),
            grad=lambda op, g: g / conj(square(cos(op.inputs[0]))))
Tanh = defop("Tanh", kernel=np.tanh, infer=R.unary(R.FLOAT_COMPLEX),
             grad=lambda op, g: g * conj(_const(1, g) - op.outputs[0] * op.outputs[0]))
Sigmoid = defop("Sigmoid", kernel=_sigmoid_kernel, infer=R.unary(R.FLOAT_COMPLEX),
                grad=lambda op, g: g * conj(op.outputs[0] * (_const(1, g) - op.outputs[0])))
Erf = defop("Erf", kernel=_erf, infer=R.unary(R.FLOATS),
            grad=lambda op, g: g * _const(2 / _pymath.sqrt(_pymath.pi), g) * exp(negative(square(op.inputs[0]))))
# Kernels that may run tile by tile (codegen/tiling.py): the NumPy passes each makes.
Sigmoid.elementwise, Erf.elementwise, Rsqrt.elementwise = 7, 27, 2
# TensorFlow gives no gradient through rounding (the tape answers None): NO_GRADIENT does the same.
Round = defop("Round", kernel=np.round, infer=_round_infer, grad=NO_GRADIENT)
Floor = defop("Floor", kernel=np.floor, infer=R.unary(R.FLOATS), grad=NO_GRADIENT)
Ceil = defop("Ceil", kernel=np.ceil, infer=R.unary(R.FLOATS), grad=NO_GRADIENT)
IsNan = defop("IsNan", kernel=np.isnan, infer=R.unary(R.FLOATS, _BOOL), grad=NO_GRADIENT)
IsInf = defop("IsInf", kernel=np.isinf, infer=R.unary(R.FLOATS, _BOOL), grad=NO_GRADIENT)
IsFinite = defop("IsFinite", kernel=np.isfinite, infer=R.unary(R.FLOATS, _BOOL), grad=NO_GRADIENT)

# ----------------------------------------------------------------------------------------------
# Cast, AddN, ClipByValue
# ----------------------------------------------------------------------------------------------


def _add_n_infer(inputs, attrs):
    dtype = R.check_same_dtype("AddN", inputs)
    R.check_dtype_in("AddN", dtype, R.NUMBERS + (_dt.variant,), "inputs")  # variant: gradients of lists
    shape = inputs[0].shape
    for i, t in enumerate(inputs[1:], start=1):
        if not shape.is_compatible_with(t.shape):
            raise InvalidArgumentError(None, None,
                                       f"Inputs to operation AddN must have the same size and shape.  "
                                       f"Input 0: {R.fmt_dims(shape)} != input {i}: {R.fmt_dims(t.shape)}")
        shape = shape.merge_with(t.shape)
    return [Spec(shape, dtype)]


def _add_n_kernel(*xs):
    shape = xs[0].shape
    if any(x.shape != shape for x in xs):
        raise ValueError("shapes differ")
    out = xs[0].copy() if isinstance(xs[0], np.ndarray) else xs[0]
    for x in xs[1:]:
        out = out + x
    if xs[0].dtype == _dt.VARIANT_KEY:  # variants (TensorLists) add through their payload's `+`
        return out
    return np.asarray(out, dtype=xs[0].dtype)


AddN = defop("AddN", inputs=("inputs",), kernel=_add_n_kernel, infer=_add_n_infer,
             grad=lambda op, g: tuple(g for _ in op.inputs))


def _clip_grad(op, g):
    t, lo, hi = op.inputs
    zeros = _array.zeros_like(g)
    below, above = less(t, lo), greater(t, hi)
    inside = logical_not(logical_or(below, above))
    return (sum_to(_array.where(inside, g, zeros), t), sum_to(_array.where(below, g, zeros), lo),
            sum_to(_array.where(above, g, zeros), hi))


def _clip_infer(inputs, attrs):
    dtype = R.check_same_dtype("ClipByValue", inputs)
    R.check_dtype_in("Minimum", dtype, R.REAL_NUMBERS)  # TensorFlow clips with Minimum, then Maximum
    shape = R.broadcast_shape(R.broadcast_shape(inputs[0].shape, inputs[1].shape), inputs[2].shape)
    return [Spec(shape, dtype)]


ClipByValue = defop("ClipByValue", inputs=("t", "clip_value_min", "clip_value_max"),
                    kernel=lambda t, lo, hi: np.maximum(np.minimum(t, hi), lo).astype(t.dtype, copy=False),
                    infer=_clip_infer, grad=_clip_grad)

# ----------------------------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------------------------


def _binary_fn(opdef, loose_right=False):
    def fn(x, y, name=None):
        x, y = binary_operands(x, y, opdef.name, loose_right)
        return bind(opdef, (x, y), name=name)
    fn.__name__ = opdef.name
    fn.__doc__ = f"Elementwise `{opdef.name}` with broadcasting (TensorFlow's no-promotion dtype rule)."
    return fn


def _unary_fn(opdef):
    def fn(x, name=None):
        return bind(opdef, (x if isinstance(x, Tensor) else convert_to_tensor(x),), name=name)
    fn.__name__ = opdef.name
    fn.__doc__ = f"Elementwise `{opdef.name}`."
    return fn


def add(x, y, name=None):
    """`tf.add` / `x + y`. A Python float beside an int tensor on the right raises AddV2's
    InvalidArgumentError; on the left (`1.5 + t`) it raises TypeError, as in TensorFlow."""
    if type(x) is type(y) and isinstance(x, Tensor) and x._dtype is y._dtype:
        return bind(AddV2, (x, y), name=name or "Add")  # the common fast path
    x, y = binary_operands(x, y, "AddV2", loose_right=True)
    return bind(AddV2, (x, y), name=name or "Add")


subtract = _binary_fn(Sub)
multiply = _binary_fn(Mul)
maximum = _binary_fn(Maximum)
minimum = _binary_fn(Minimum)
squared_difference = _binary_fn(SquaredDifference)
floormod = _binary_fn(FloorMod)
mod = floormod
_DIV_NO_NAN_ACCEPTS = ("tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, "
                       "tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128")


def div_no_nan(x, y, name=None):
    """`tf.math.divide_no_nan`: x / y, 0 where y == 0. The DivNoNan op takes float and complex
    types only; integers are first cast as `x / y` casts them (int8/16 -> float32, else float64),
    as TensorFlow's wrapper does. A Python value beside a tensor converts as TensorFlow's wrapper
    converts it (a tensor y fixes x's dtype; otherwise x's dtype is only a hint for y)."""
    if not isinstance(x, Tensor):
        x = convert_beside(x, y, True) if isinstance(y, Tensor) else convert_to_tensor(x)
    if not isinstance(y, Tensor):
        y = convert_beside(y, x, False)
    dtype = x.dtype
    if dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {dtype!r} != {y.dtype!r}.")
    if dtype.is_integer:
        target = _dt.float32 if dtype.size <= 2 else _dt.float64
        x, y = cast(x, target), cast(y, target)
    elif not (dtype.is_floating or dtype.is_complex):
        raise TypeError(f"Invalid dtype {dtype!r} in tf.math.divide_no_nan. Expected one of {{{_DIV_NO_NAN_ACCEPTS}}}.")
    return bind(DivNoNan, (x, y), name=name)
equal = _binary_fn(Equal)
not_equal = _binary_fn(NotEqual)
less = _binary_fn(Less)
less_equal = _binary_fn(LessEqual)
greater = _binary_fn(Greater)
greater_equal = _binary_fn(GreaterEqual)
logical_and = _binary_fn(LogicalAnd)
logical_or = _binary_fn(LogicalOr)
logical_xor = _binary_fn(LogicalXor)
bitwise_and = _binary_fn(BitwiseAnd)
bitwise_or = _binary_fn(BitwiseOr)
bitwise_xor = _binary_fn(BitwiseXor)
floordiv = _binary_fn(FloorDiv)
pow = _binary_fn(Pow)  # noqa: A001

negative = _unary_fn(Neg)
_real_abs = _unary_fn(Abs)
_real_sign = _unary_fn(Sign)


# --- complex numbers: Conj and ComplexAbs (what gradient rules and tf.abs/tf.sign of complex input
# build; Real, Imag and Complex are in complex.py, above this module) ---------------------------

_COMPLEX_TYPES = (_dt.complex64, _dt.complex128)
COMPLEX_DTYPES = frozenset(_COMPLEX_TYPES)
REAL_NUMBER_DTYPES = frozenset(R.REAL_NUMBERS)
_PART_DTYPE = {_dt.complex64: _dt.float32, _dt.complex128: _dt.float64}


def complex_part_rule(op_name):
    """The rule of an op from a complex tensor to a real one of its part dtype (ComplexAbs, Real, Imag)."""
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, _COMPLEX_TYPES)
        return [Spec(x.shape, _PART_DTYPE[x.dtype])]
    return infer


def _complex_abs_grad(op, g):
    # TensorFlow: g * z / |z|, 0 where z = 0
    x = op.inputs[0]
    return div_no_nan(cast(g, x.dtype) * x, cast(op.outputs[0], x.dtype))


# Conj is its own adjoint: the gradient of conj(z) is conj(g) (TensorFlow's rule).
Conj = defop("Conj", kernel=np.conj, infer=R.unary(R.NUMBERS), grad=lambda op, g: conj(g),
             doc="Complex conjugate; built only for complex tensors (conj of a real tensor is the tensor).")
ComplexAbs = defop("ComplexAbs", kernel=np.abs, infer=complex_part_rule("ComplexAbs"), grad=_complex_abs_grad,
                   doc="|z| of a complex tensor, as a real tensor (tf.abs of complex input).")


def conj(x, name=None):
    """`tf.math.conj`: the complex conjugate; a real number tensor comes back unchanged (no op),
    as in TensorFlow."""
    if not isinstance(x, Tensor):
        x = as_tensor(x)
    dtype = x.dtype
    if dtype in REAL_NUMBER_DTYPES or dtype.is_floating:  # NOTE: first and cheap: every real gradient rule passes here
        return x
    if dtype in COMPLEX_DTYPES:
        return bind(Conj, (x,), name=name)
    raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")


def complex_abs(x, name=None):
    """|z| for a complex tensor (what `tf.abs` builds for complex input)."""
    return bind(ComplexAbs, (x,), name=name)


def complex_sign(x):
    """TensorFlow's sign of a complex tensor: z / |z| (0 at 0), composed so it has a gradient."""
    return div_no_nan(x, cast(complex_abs(x), x.dtype))


def abs(x, name=None):  # noqa: A001 - TensorFlow's name
    """`tf.abs`: |x|; for complex input the magnitude, a real tensor (ComplexAbs), as in TensorFlow."""
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return complex_abs(x, name) if x.dtype.is_complex else _real_abs(x, name)


def sign(x, name=None):
    """`tf.sign`; for complex input z / |z| (0 at 0), built from ops so it has TensorFlow's gradient."""
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return complex_sign(x) if x.dtype.is_complex else _real_sign(x, name)
exp = _unary_fn(Exp)
expm1 = _unary_fn(Expm1)
log = _unary_fn(Log)
log1p = _unary_fn(Log1p)
sqrt = _unary_fn(Sqrt)
rsqrt = _unary_fn(Rsqrt)
square = _unary_fn(Square)
reciprocal = _unary_fn(Reciprocal)
sin = _unary_fn(Sin)
cos = _unary_fn(Cos)
tan = _unary_fn(Tan)
tanh = _unary_fn(Tanh)
sigmoid = _unary_fn(Sigmoid)
erf = _unary_fn(Erf)
round = _unary_fn(Round)  # noqa: A001
floor = _unary_fn(Floor)
ceil = _unary_fn(Ceil)
is_nan = _unary_fn(IsNan)
is_inf = _unary_fn(IsInf)
is_finite = _unary_fn(IsFinite)
logical_not = _unary_fn(LogicalNot)
invert = _unary_fn(Invert)


def truediv(x, y, name=None):
    """`x / y`: integers are first cast to a float type (int8/16 -> float32, else float64).
    Mixed dtypes are a TypeError here, not the kernel's InvalidArgumentError (TensorFlow's wording)."""
    if not isinstance(x, Tensor):
        x = convert_beside(x, y, True)
    if not isinstance(y, Tensor):
        y = convert_beside(y, x, False)
    if x.dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}.")
    if x.dtype.is_integer:
        target = _dt.float32 if x.dtype.size <= 2 else _dt.float64
        x, y = cast(x, target), cast(y, target)
    elif not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"Invalid dtype {x.dtype!r} in __truediv__. Expected one of {{tf.uint8, tf.int8, tf.uint16, "
                        f"tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, tf.float16, tf.float32, "
                        f"tf.float64, tf.complex64, tf.complex128}}.")
    return bind(RealDiv, (x, y), name=name or "truediv")


def divide(x, y, name=None):
    return truediv(x, y)


def add_n(inputs, name=None):
    """`tf.add_n`: sums same-shape, same-dtype tensors (no broadcasting)."""
    inputs = same_dtype_operands(list(inputs), "AddN")
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the same "
                         "dtype and shape.")
    if len(inputs) == 1:
        return inputs[0]
    return bind(AddN, tuple(inputs))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """`tf.clip_by_value`: bounds are converted to `t`'s dtype (TypeError when they cannot be)."""
    t = as_tensor(t)
    lo = clip_value_min if isinstance(clip_value_min, Tensor) else convert_beside(clip_value_min, t, True)
    hi = clip_value_max if isinstance(clip_value_max, Tensor) else convert_beside(clip_value_max, t, True)
    R.check_same_dtype("ClipByValue", (t, lo, hi))
    return bind(ClipByValue, (t, lo, hi))


def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x)


def _logic_or_bits(bool_fn, int_fn, x, y):
    x, y = binary_operands(x, y, int_fn.__name__)
    return (bool_fn if x.dtype is _dt.bool_ else int_fn)(x, y)


def and_(x, y):
    return _logic_or_bits(logical_and, bitwise_and, x, y)


def or_(x, y):
    return _logic_or_bits(logical_or, bitwise_or, x, y)


def xor_(x, y):
    return _logic_or_bits(logical_xor, bitwise_xor, x, y)


def invert_(x):
    x = as_tensor(x)
    return logical_not(x) if x.dtype is _dt.bool_ else invert(x)


def _equality(x, y, fn):
    """`==` and `!=` on tensors: elementwise where shapes broadcast, a scalar bool tensor where they
    do not (TensorFlow's `incompatible_shape_error=False`), a plain bool against None. Other
    operands convert as for any binary op, so `int_tensor == 1.5` raises TypeError as in TensorFlow."""
    if y is None or x is None:
        return fn is not_equal
    x, y = binary_operands(x, y, fn.__name__)
    try:
        R.broadcast_shape(x.shape, y.shape)
    except InvalidArgumentError:
        return as_tensor(fn is not_equal)
    return fn(x, y)


def tensor_equals(x, y):
    return _equality(x, y, equal)


def tensor_not_equals(x, y):
    return _equality(x, y, not_equal)


# ----------------------------------------------------------------------------------------------
# JAX lowerings (jit_compile=True, codegen/xla.py): each op's kernel as jax.numpy, same arguments
# ----------------------------------------------------------------------------------------------


for _op, _fn in ((AddV2, "add"), (Sub, "subtract"), (Mul, "multiply"), (Maximum, "maximum"), (Minimum, "minimum"),
                 (Equal, "equal"), (NotEqual, "not_equal"), (Less, "less"), (LessEqual, "less_equal"),
                 (Greater, "greater"), (GreaterEqual, "greater_equal"), (LogicalAnd, "logical_and"),
                 (LogicalOr, "logical_or"), (LogicalNot, "logical_not"), (LogicalXor, "logical_xor"),
                 (BitwiseAnd, "bitwise_and"), (BitwiseOr, "bitwise_or"), (BitwiseXor, "bitwise_xor"),
                 (Invert, "invert"), (Neg, "negative"), (Abs, "abs"), (Exp, "exp"), (Expm1, "expm1"),
                 (Log, "log"), (Log1p, "log1p"), (Sqrt, "sqrt"), (Square, "square"), (Sin, "sin"), (Cos, "cos"),
                 (Tan, "tan"), (Tanh, "tanh"), (Round, "round"), (Floor, "floor"), (Ceil, "ceil"),
                 (IsNan, "isnan"), (IsInf, "isinf"), (IsFinite, "isfinite")):
    _op.jax = getattr(jnp, _fn)  # the same NumPy function, in jax.numpy
# (kind "V": ml_dtypes' bfloat16, a float that NumPy does not know as one)
RealDiv.jax = lambda x, y: jnp.true_divide(x, y) if x.dtype.kind in "fcV" else jnp.floor_divide(x, y)
Reciprocal.jax = lambda x: jnp.reciprocal(x) if x.dtype.kind in "fcV" else jnp.floor_divide(1, x)
DivNoNan.jax = lambda x, y: jnp.where(y == 0, jnp.zeros_like(x), x / jnp.where(y == 0, jnp.ones_like(y), y))
FloorDiv.jax = lambda x, y: jnp.floor_divide(x, y) if x.dtype.kind in "iu" else jnp.floor(x / y)
FloorMod.jax = lambda x, y: jnp.mod(x, y) if x.dtype.kind in "iu" else (  # zeros keep x's sign, as the kernel's
    lambda r: jnp.where((r != 0) & ((r < 0) != (y < 0)), r + y, r))(jnp.fmod(x, y))
Pow.jax = lambda x, y: jnp.power(x, y)
SquaredDifference.jax = lambda x, y: jnp.square(x - y) if x.dtype.kind != "c" else (x - y) * jnp.conj(x - y)
Sign.jax = lambda x: jnp.sign(x)
Rsqrt.jax = lambda x: lax.rsqrt(x)
Sigmoid.jax = lambda x: jsp.expit(x)
Erf.jax = lambda x: jsp.erf(x)
AddN.jax = lambda *xs: functools.reduce(jnp.add, xs)
Conj.jax = lambda x: jnp.conj(x)
ComplexAbs.jax = lambda x: jnp.abs(x)
ClipByValue.jax = lambda t, lo, hi: jnp.maximum(jnp.minimum(t, hi), lo).astype(t.dtype)
