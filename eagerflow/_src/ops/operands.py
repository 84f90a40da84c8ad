"""Turning op-function arguments into tensors, with TensorFlow's dtype rules for mixed operands.

Kept apart from the op families so every family converts the same way.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor, is_tensor_like
from ..core.tensor import Tensor
from .registry import static_value
from .shape_rules import check_same_dtype


def as_tensor(value, dtype=None):
    """Tensor for an op argument; a Python value takes `dtype` as a hint (never forced)."""
    if isinstance(value, Tensor):
        return value
    return convert_to_tensor(value, dtype_hint=dtype)


# (type, value, dtype, strict) -> the eager tensor a Python scalar operand converts to. `t + 1.0`
# converts its scalar on every call (about half of that call's cost); the conversion is a pure
# function of the key and eager tensors are immutable, so the result can be shared. Bounded, and
# -0.0 is left out (it equals 0.0 as a key); NaN keys simply miss.
_SCALARS: dict = {}
_SCALARS_LIMIT = 512


def _scalar_beside(value, dtype, strict):
    key = (type(value), value, dtype, strict)
    t = _SCALARS.get(key)
    if t is None:
        t = convert_to_tensor(value, dtype=dtype) if strict else convert_to_tensor(value, dtype_hint=dtype)
        if len(_SCALARS) < _SCALARS_LIMIT and (type(value) is int or value != 0.0):
            _SCALARS[key] = t
    return t


def convert_beside(value, other, strict=True):
    """A non-tensor operand next to `other`. TensorFlow converts a Python value to the other
    operand's dtype and raises TypeError ("Cannot convert 1.5 to EagerTensor of dtype int32") when
    it cannot (`strict`); only `t + 1.5` and `t @ m` convert the right operand as a hint, so the
    mismatch surfaces as the kernel's InvalidArgumentError."""
    tv = type(value)
    if (tv is float or tv is int) and isinstance(other, Tensor) and state.graph is None:
        return _scalar_beside(value, other.dtype, strict)  # eager: a cached 0-d tensor
    if is_tensor_like(value):
        return convert_to_tensor(value)
    if isinstance(other, Tensor) or is_tensor_like(other):
        if strict:
            return convert_to_tensor(value, dtype=other.dtype)
        return convert_to_tensor(value, dtype_hint=other.dtype)
    return convert_to_tensor(value)


def binary_operands(x, y, op_name: str, loose_right=False):
    """Both operands of a binary op as tensors of one dtype (TensorFlow never promotes): a
    non-tensor takes the other operand's dtype or raises TypeError (`convert_beside`); two tensors
    of different dtypes raise InvalidArgumentError naming `op_name`."""
    if not isinstance(x, Tensor):
        x = convert_beside(x, y, True)
    if not isinstance(y, Tensor):
        y = convert_beside(y, x, not loose_right)
    if x._dtype is not y._dtype:
        check_same_dtype(op_name, (x, y))
    return x, y


def same_dtype_operands(values, op_name: str, dtype=None):
    """Converts a list of operands (AddN, Pack, ConcatV2): non-tensors follow the first tensor."""
    hint = dtype
    if hint is None:
        for v in values:
            if isinstance(v, Tensor) or hasattr(type(v), "_as_tensor"):
                hint = v.dtype
                break
    tensors = [v if isinstance(v, Tensor) else convert_to_tensor(v, dtype_hint=hint) for v in values]
    if tensors:
        check_same_dtype(op_name, tensors, list_input=True)
    return tensors


def as_int_tensor(value, dtype=_dt.int32):
    """Shape-like and axis-like arguments: ints, lists of ints, or integer tensors."""
    if isinstance(value, Tensor):
        if not value.dtype.is_integer:
            raise TypeError(f"Expected an integer tensor, got {value.dtype.name}: {value!r}")
        return value
    if hasattr(type(value), "_as_tensor"):
        return value._as_tensor()
    return convert_to_tensor(value, dtype_hint=dtype)


def static_ints(value):
    """A shape-like argument (a Python list or an int tensor) as a Python list of ints, or None when
    the tensor's value is not known without running anything (shape rules must then stay partial)."""
    if isinstance(value, Tensor):
        v = static_value(value)
        return None if v is None else [int(d) for d in np.ravel(v)]
    return [int(d) for d in np.ravel(np.asarray(value))]
