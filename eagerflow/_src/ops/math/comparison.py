"""Comparisons, logic and bitwise ops (Equal ... GreaterEqual, LogicalAnd/Or/Xor/Not, BitwiseAnd/Or/Xor,
Invert) and the tensor operators built on them (`==`, `!=`, `&`, `|`, `^`, `~`). None has a gradient:
TensorFlow answers None through them, which NO_GRADIENT reproduces."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from .. import shape_rules as R
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..operands import as_tensor, binary_operands
from ..registry import NO_GRADIENT, defop
from .op_wrappers import binary_fn, unary_fn

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

equal = binary_fn(Equal)
not_equal = binary_fn(NotEqual)
less = binary_fn(Less)
less_equal = binary_fn(LessEqual)
greater = binary_fn(Greater)
greater_equal = binary_fn(GreaterEqual)
logical_and = binary_fn(LogicalAnd)
logical_or = binary_fn(LogicalOr)
logical_xor = binary_fn(LogicalXor)
bitwise_and = binary_fn(BitwiseAnd)
bitwise_or = binary_fn(BitwiseOr)
bitwise_xor = binary_fn(BitwiseXor)
logical_not = unary_fn(LogicalNot)
invert = unary_fn(Invert)


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

# JAX lowerings (jit_compile=True, codegen/xla.py): each op's kernel as jax.numpy, same arguments
for _op, _fn in ((Equal, "equal"), (NotEqual, "not_equal"), (Less, "less"), (LessEqual, "less_equal"),
                 (Greater, "greater"), (GreaterEqual, "greater_equal"), (LogicalAnd, "logical_and"),
                 (LogicalOr, "logical_or"), (LogicalNot, "logical_not"), (LogicalXor, "logical_xor"),
                 (BitwiseAnd, "bitwise_and"), (BitwiseOr, "bitwise_or"), (BitwiseXor, "bitwise_xor"),
                 (Invert, "invert")):
    _op.jax = getattr(jnp, _fn)  # the same NumPy function, in jax.numpy
