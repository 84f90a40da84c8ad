"""The operator dtype promotion `tf.experimental.numpy.experimental_enable_numpy_behavior` turns on.

TensorFlow's operators refuse mixed dtypes (`int32 + float32` is an InvalidArgumentError) and give a
Python scalar the tensor's dtype. Once NumPy behaviour is on ("legacy" conversion mode, the default),
both operands of `+ - * / // % ** < <= > >= == !=` first take the dtype NumPy would give their
result, then the op runs as usual (so `/` of integers still gives TensorFlow's float32/float64):
* tensors promote as NumPy arrays of their dtypes (`int32 + float32` is float64, `uint8 + int32`
  int32, `int32 + complex64` complex128);
* a Python int or float beside a tensor is a weak type (NumPy 2's rule): it takes the tensor's
  dtype when of the same kind or lower (`float16 + 2.5` is float16, `uint8 + 2` uint8), else
  NumPy's default of its kind (`int32 + 2.5` is float64, `bool + 2` int64); with
  `prefer_float32=True` a Python float is a float32 (`float16 + 2.5` is float32);
* a Python bool then converts as TensorFlow converts one, which refuses uint8, int8 and complex
  ("Cannot convert True to EagerTensor of dtype uint8");
* `*` of two booleans is their logical and, as TensorFlow's `*` of booleans always is.
With `dtype_conversion_mode="all"` or `"safe"` the result dtype is TensorFlow's lattice's instead
(api/promotion_lattice.py: `int32 + float16` is float16, "safe" refuses lossy promotions), `<`, `<=`,
`>`, `>=` and `!=` are not promoted, and `*` beside a bool tensor is a logical and of nonzero values; "off"
leaves the operators alone.
The table is swapped in core/tensor.py's operator slots, so functions and graphs see the same
operators; `disable` puts the plain ones back (TensorFlow cannot, tests need to).
"""
from __future__ import annotations

import functools

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.tensor import Tensor, op_table
from ..ops import shape_rules as _rules
from ..ops.math import elementwise as _math
from ..ops.validation import InputTypeError
from . import promotion_lattice as _lattice

# The ordering operators, unpromoted in "all"/"safe", and the op each runs.
_ORDERING = {"less": "Less", "less_equal": "LessEqual", "greater": "Greater", "greater_equal": "GreaterEqual"}
# `!=` too is left unpromoted there (`==` is promoted): `int32 != float32` is the op's mismatch error.
_UNPROMOTED = frozenset(_ORDERING) | {"not_equals"}
_MODES = ("legacy", "all", "safe")
_PROMOTED_SLOTS = ("add", "subtract", "multiply", "truediv", "floordiv", "floormod", "pow", "less",
                   "less_equal", "greater", "greater_equal", "equals", "not_equals")
# The dtypes TensorFlow converts a Python bool into (others raise TypeError).
_BOOL_CONVERTIBLE = frozenset(["bool", "int32", "int64", "float16", "float32", "float64", "bfloat16"])

_plain = {}  # slot -> the operator function before NumPy behaviour was enabled
mode = None  # None (off) or (dtype_conversion_mode, prefer_float32)


def _is_tensor_like(x):
    return isinstance(x, Tensor) or hasattr(type(x), "_as_tensor")


def _operand_type(x, prefer_float32):
    """What NumPy promotes `x` as: a dtype, or the Python scalar itself (a weak type)."""
    if _is_tensor_like(x):
        return np.dtype(convert_to_tensor(x).dtype.as_numpy_dtype)
    if isinstance(x, float) and prefer_float32:
        return np.dtype(np.float32)
    if isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    return None  # a list, None, another object: the operator converts it as without NumPy behaviour


def promote(x, y):
    """`x` and `y` as tensors of their result's dtype: NumPy's (legacy conversion mode) or
    TensorFlow's lattice ("all", "safe": api/promotion_lattice.py)."""
    if mode[0] != "legacy":
        return _lattice_promote(x, y)
    prefer_float32 = mode[1]
    types = (_operand_type(x, prefer_float32), _operand_type(y, prefer_float32))
    if types[0] is None or types[1] is None:
        return x, y
    try:
        kind = np.result_type(*types)
    except (TypeError, ValueError):  # a dtype NumPy cannot promote (bfloat16 beside float16, strings)
        return x, y
    dtype = _dt.from_numpy(kind)
    return _converted(x, dtype), _converted(y, dtype)


def _lattice_promote(x, y):
    pairs = []
    for v in (x, y):
        if _is_tensor_like(v):
            pairs.append(_lattice.operand(v, convert_to_tensor(v).dtype.as_numpy_dtype))
        elif isinstance(v, (bool, int, float, complex)):
            pairs.append(_lattice.operand(v, None))
        elif isinstance(v, (np.ndarray, np.generic)):
            pairs.append(_lattice.operand(v, v.dtype))
        else:
            return x, y
    dtype = _dt.from_numpy(_lattice.result_dtype(*pairs, safe=mode[0] == "safe"))
    return _converted(x, dtype), _converted(y, dtype)


def _converted(x, dtype):
    if _is_tensor_like(x):
        t = convert_to_tensor(x)
        return t if t.dtype == dtype else _math.cast(t, dtype)
    if isinstance(x, bool) and dtype.name not in _BOOL_CONVERTIBLE:
        raise TypeError(f"Cannot convert {x!r} to EagerTensor of dtype {dtype.name}")
    return convert_to_tensor(x, dtype=dtype)


def _is_bool_tensor(x):
    return _is_tensor_like(x) and convert_to_tensor(x).dtype is _dt.bool_


def _promoting(fn, slot):
    @functools.wraps(fn)
    def operator(x, y, *args, **kwargs):
        if mode[0] != "legacy":
            if slot in _UNPROMOTED:  # TensorFlow's lattice modes leave <, <=, >, >=, != to the op's rules,
                if isinstance(x, bool) and _is_tensor_like(y):  # a Python bool converted as TensorFlow does
                    x = _converted(x, convert_to_tensor(y).dtype)
                elif isinstance(y, bool) and _is_tensor_like(x):
                    y = _converted(y, convert_to_tensor(x).dtype)
                if slot in _ORDERING:
                    _check_orderable(x, y, _ORDERING[slot])
                return fn(x, y, *args, **kwargs)
            if slot == "multiply" and (_is_bool_tensor(x) or _is_bool_tensor(y)):
                return _math.logical_and(*(_as_bool(v) for v in (x, y)))  # `*` beside a bool tensor
        x, y = promote(x, y)
        if slot == "multiply" and getattr(x, "dtype", None) is _dt.bool_ and getattr(y, "dtype", None) is _dt.bool_:
            return _math.logical_and(x, y)  # TensorFlow's `*` of booleans
        return fn(x, y, *args, **kwargs)
    return operator


def _check_orderable(x, y, op_name):
    """TensorFlow's lattice modes check the first tensor's dtype against the op's list (no bool, no
    complex) before comparing the two tensors' dtypes: `bool < int32` names bool not being allowed,
    not the mismatch (a Python scalar beside a tensor is converted first, as by the plain operator,
    whose conversion error stands). Eagerly the op's InvalidArgumentError, while tracing its
    graph-mode TypeError ("Value passed to parameter 'x' has DataType bool not in list ...")."""
    if not (_is_tensor_like(x) and _is_tensor_like(y)):
        return
    try:
        _rules.check_dtype_in(op_name, convert_to_tensor(x).dtype, _rules.REAL_NUMBERS)
    except InputTypeError as err:
        if state.graph is not None:
            raise TypeError(err.graph_message) from None
        raise InvalidArgumentError(None, None, err.message) from None


def _as_bool(x):
    """Nonzero as True: how a factor beside a bool tensor enters TensorFlow's `*` in the lattice modes."""
    t = convert_to_tensor(x) if _is_tensor_like(x) else convert_to_tensor(np.asarray(x))
    return t if t.dtype is _dt.bool_ else _math.not_equal(t, _math.cast(convert_to_tensor(0), t.dtype))


def enable(dtype_conversion_mode, prefer_float32):
    """Swaps the promoting operators in (again with new settings: TensorFlow's last call wins)."""
    global mode
    if dtype_conversion_mode == "off":  # the ndarray methods only: operators keep TensorFlow's rules
        disable()
        return
    if dtype_conversion_mode not in _MODES:
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist. Make sure the provided "
                         f"dtype conversion mode is one of the followings: 'off', 'legacy', 'safe' or 'all'.")
    if not _plain:
        _plain.update((slot, getattr(op_table, slot)) for slot in _PROMOTED_SLOTS)
        op_table.register(**{slot: _promoting(_plain[slot], slot) for slot in _PROMOTED_SLOTS})
    mode = (dtype_conversion_mode, bool(prefer_float32))


def disable():
    """The plain operators back (eagerflow's own; TensorFlow has no way to turn the mode off)."""
    global mode
    if _plain:
        op_table.register(**_plain)
        _plain.clear()
    mode = None
