"""Python values -> tensors, with TensorFlow's dtype inference rules.

The rules (checked against TensorFlow 2.21):
- Python int -> int32 (int64 when it does not fit), float -> float32, bool -> bool,
  complex -> complex128, str/bytes -> string; nested lists follow the widest element.
- NumPy arrays and scalars keep their dtype (a float64 array stays float64).
- Where a dtype is requested (the other operand of a binary op), a Python or NumPy value is
  converted to it if that loses nothing of its kind; otherwise inference applies and the op
  reports the dtype mismatch, as TensorFlow does.
- A value is always copied, so later changes to a NumPy array never reach the tensor.
- Python sequences that TensorFlow refuses raise its ValueError: ragged ("non-rectangular"),
  mixed element types (`[1, 'a']`, `[1, [2]]`, `[True, 1]`, `[1, 2j]`), and integers outside
  int64 (`2**63`, unless a float, or uint64 asked for, can hold them).
"""
from __future__ import annotations

import numpy as np

from . import dtypes as _dt
from .context import state
from .tensor import Tensor, make_eager, op_table

_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1
_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1

# TensorFlow's words for Python values it cannot convert (tf.constant / convert_to_tensor).
OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."
MIXED_TYPES = "Can't convert Python sequence with mixed types to Tensor."
NON_RECTANGULAR = "Can't convert non-rectangular Python sequence to Tensor."


def _encode_strings(value):
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (list, tuple)):
        return [_encode_strings(v) for v in value]
    return value


def _contains_tensor(value) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return isinstance(value, Tensor) or hasattr(type(value), "_as_tensor")


def _first_tensor_dtype(value):
    """The dtype of the first tensor (depth first) in a nested list: the dtype an auto-packed list takes,
    its Python numbers converted to it (so [2, int64 scalar] packs as int64 even where int32 is the hint)."""
    if isinstance(value, (list, tuple)):
        for v in value:
            found = _first_tensor_dtype(v)
            if found is not None:
                return found
        return None
    return value.dtype if isinstance(value, Tensor) or hasattr(type(value), "_as_tensor") else None


def _leaf_kind(v) -> str:
    """One letter per element type, as TensorFlow tells them apart when converting a sequence."""
    if isinstance(v, (bool, np.bool_)):
        return "b"
    if isinstance(v, (int, np.integer)):
        return "i"
    if isinstance(v, (float, np.floating)):
        return "f"
    if isinstance(v, (complex, np.complexfloating)):
        return "c"
    if isinstance(v, (str, bytes, np.str_, np.bytes_)):
        return "s"
    return "o"


def _scan_sequence(value):
    """The element kinds of a nested Python sequence and whether an int lies outside int64.
    Raises TensorFlow's ValueError for ragged nesting: a sequence where the first element was a
    scalar is "mixed types"; any other shape disagreement is "non-rectangular"."""
    kinds: set = set()
    big = False

    def walk(v):
        nonlocal big
        if isinstance(v, (list, tuple)):
            if not v:
                return (0,)
            shapes = [walk(e) for e in v]
            first = shapes[0]
            for shape in shapes[1:]:
                if shape != first:
                    raise ValueError(MIXED_TYPES if first == () else NON_RECTANGULAR)
            return (len(v),) + first
        if isinstance(v, np.ndarray):
            kinds.add(_leaf_kind(v.dtype.type(0)) if v.dtype.kind in "biufc" else "o")
            return v.shape
        kind = _leaf_kind(v)
        kinds.add(kind)
        if kind == "i" and type(v) is int and not _INT64_MIN <= v <= _INT64_MAX:
            big = True
        return ()

    walk(value)
    return kinds, big


_BOOL_TYPES = frozenset((bool, np.bool_))


def _leaf_types(value, out: set) -> set:
    """The element types of a nested list, at C speed for flat lists (the common int list)."""
    types = set(map(type, value))
    if list in types or tuple in types:
        for v in value:
            if type(v) in (list, tuple):
                _leaf_types(v, out)
            else:
                out.add(type(v))
        return out
    out |= types
    return out


def _check_sequence(value, allow_big=False) -> set:
    """TensorFlow's ValueError for a Python sequence it refuses; else the element kinds."""
    kinds, big = _scan_sequence(value)
    if len(kinds) > 1 and (kinds & {"s", "c", "o"} or ("b" in kinds and "i" in kinds and "f" not in kinds)):
        raise ValueError(MIXED_TYPES)
    if big and "f" not in kinds and not allow_big:
        raise ValueError(OUT_OF_RANGE)
    return kinds


def _first_number_float_type(value):
    """The float type TensorFlow gives a list of numbers: that of its first number (depth first) when it
    is a NumPy float (scalar or array), else float32 (`[np.float64(1), 2.0]` is float64, `[2.0,
    np.float64(1)]` and `[1, np.float64(2)]` float32)."""
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    if isinstance(value, (np.floating, np.ndarray)) and value.dtype.kind == "f":
        return value.dtype
    return np.float32


def _infer_array(value) -> np.ndarray:
    """A fresh ndarray for a Python or NumPy value, with TensorFlow's default dtype."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in ("U", "S"):
            return np.array(_encode_strings(value.tolist()), dtype=object)
        return value.copy()
    if isinstance(value, np.generic):
        return np.array(value)
    if isinstance(value, (str, bytes)):
        return np.array(_encode_strings(value), dtype=object)
    if type(value) is int and not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(OUT_OF_RANGE)  # NumPy would make 2**63 a uint64
    if isinstance(value, (list, tuple)):
        try:
            arr = np.array(value)
        except ValueError:  # NumPy's "inhomogeneous shape": say which of TensorFlow's cases it is
            arr = None
        if arr is None:  # (outside the except: NumPy's error is no part of the story)
            _check_sequence(value)
            raise ValueError(NON_RECTANGULAR)
        kind = arr.dtype.kind
        # NOTE: only these kinds can hide what TensorFlow refuses (a float list cannot, unless
        # NumPy 1.x made floats of ints past int64); the walk is skipped for plain float lists.
        if kind == "i":  # only a bool among the ints can be wrong here (NumPy made them int64)
            if _BOOL_TYPES & _leaf_types(value, set()):
                _check_sequence(value)
        elif kind in "uOUSc" or (kind == "f" and arr.size and np.abs(arr).max() >= 2.0 ** 63):
            if kind == "O" and _check_sequence(value) <= {"b", "i", "f"}:
                arr = np.array(value, dtype=np.float64)  # floats beside ints past uint64 (`[1.5, 2**64]`)
            elif kind != "O":
                _check_sequence(value)
        kind = arr.dtype.kind
        if kind == "f":  # the first number decides: a NumPy float keeps its type, a Python number means float32
            return arr.astype(_first_number_float_type(value))
        if kind == "u":  # NumPy's unsigned scalars and arrays in a list are ints to TensorFlow
            if arr.size and arr.max() > _INT64_MAX:
                raise ValueError(OUT_OF_RANGE)
            return arr.astype(np.int64 if arr.size and arr.max() > _INT32_MAX else np.int32)
        if kind == "c":  # TensorFlow makes complex128 of every complex list
            return arr.astype(np.complex128)
    else:
        arr = np.array(value)
    kind = arr.dtype.kind
    if kind == "f":
        return arr.astype(np.float32)
    if kind == "i":
        if arr.size and (arr.min() < _INT32_MIN or arr.max() > _INT32_MAX):
            return arr.astype(np.int64)
        return arr.astype(np.int32)
    if kind in ("U", "S"):
        return np.array(_encode_strings(value), dtype=object)
    if kind == "O" and value is None:  # TensorFlow's ValueError, in each mode's words
        raise ValueError("None values not supported." if state.graph is not None else
                         "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    if kind == "O" and state.graph is not None:
        raise TypeError(f"Failed to convert elements of {value!r} to Tensor. Consider casting elements to a "
                        f"supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF "
                        f"dtypes.")
    if kind == "O":  # TensorFlow's eager class for a value of a type it does not convert
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                         f"({type(value)!r}) to a Tensor.")
    return arr


def _lossless(arr: np.ndarray, target: _dt.DType) -> bool:
    """Whether converting `arr` (a Python or NumPy value) to `target` is allowed implicitly."""
    kind = arr.dtype.kind
    if arr.size == 0 and kind == "f" and target is not _dt.string:
        return True  # an empty Python list has no element type of its own
    if target.is_floating or target.is_complex:
        # TensorFlow makes float16/float32 of Python bools, but not bfloat16 ("Cannot convert True ...")
        return kind in "biufc" and (kind != "c" or target.is_complex) and (kind != "b" or target is not _dt.bfloat16)
    if target.is_integer:
        if kind in "biu":
            info = np.iinfo(target.np_dtype)
            return arr.size == 0 or (arr.min() >= info.min and arr.max() <= info.max)
        return False
    if target.is_bool:
        return kind == "b"
    if target is _dt.string:
        return kind == "O"
    return False


def to_array(value, dtype: _dt.DType | None = None, strict: bool = True) -> np.ndarray:
    """An ndarray for a non-tensor value. With `dtype`, a value that cannot be converted without
    loss raises TypeError when `strict`, and falls back to the inferred dtype otherwise (a hint)."""
    try:
        arr = _infer_array(value)
    except ValueError as err:
        if dtype is not None and str(err) == MIXED_TYPES and dtype is not _dt.string \
                and _scan_sequence(value)[0] <= {"b", "i", "f", "c"}:
            arr = np.array(value)  # numbers of several kinds, for a requested dtype: `[1, 2j]` as complex64
        elif dtype is None or str(err) != OUT_OF_RANGE or not (dtype is _dt.uint64 or dtype.is_floating
                                                               or dtype.is_complex):
            raise _traced_refusal(value, err) from None
        else:
            return _wide_ints(value, dtype)  # 2**63 fits a uint64 or a float when asked for one
    if dtype is None or arr.dtype == dtype.np_dtype:
        return arr
    if arr.size == 0 and not isinstance(value, (np.ndarray, np.generic)):
        return _dt.cast_array(arr, dtype)  # `[]`, `[[], []]`: no element to lose, any dtype (tf.string too)
    if _lossless(arr, dtype) or (isinstance(value, (np.ndarray, np.generic)) and arr.dtype.kind in "fiu"
                                 and (dtype.is_floating or dtype.is_complex)):
        if not isinstance(value, (np.ndarray, np.generic)) and dtype is not _dt.string:
            if dtype is _dt.bfloat16:  # Python floats are doubles: TensorFlow's rule is float32, then bfloat16
                return _dt.cast_array(np.array(value, dtype=np.float64), dtype)
            return np.array(value, dtype=dtype.np_dtype)  # straight from Python: no float32 rounding
        return _dt.cast_array(arr, dtype)
    if strict and dtype.is_integer and arr.dtype.kind in "iu" and not isinstance(value, (np.ndarray, np.generic)):
        # Python ints past the requested integer type wrap around, as in TensorFlow
        # (tf.constant(2**31, tf.int32) is -2**31, tf.constant(300, tf.uint8) is 44)
        return arr.astype(dtype.np_dtype)
    if strict:
        raise TypeError(_cannot_convert(value, dtype))
    return arr


def _traced_refusal(value, err: ValueError) -> Exception:
    """A refused Python value in the words of the mode. While tracing, TensorFlow converts through
    NumPy: ragged nesting is NumPy's own ValueError, and elements NumPy can only hold as objects or
    text (`[1.0, None]`, `[1, 'a']`, `2**70`) are a TypeError naming the value."""
    if state.graph is None or str(err) not in (MIXED_TYPES, OUT_OF_RANGE, NON_RECTANGULAR):
        return err
    try:
        kind = np.array(value).dtype.kind
    except ValueError as numpy_err:
        return ValueError(str(numpy_err))
    if kind in "OUS":
        return TypeError(f"Failed to convert elements of {value!r} to Tensor. Consider casting elements to a "
                         f"supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF "
                         f"dtypes.")
    return err


def _cannot_convert(value, dtype) -> str:
    """TensorFlow's words for a value that does not fit the requested dtype: eagerly the whole value,
    while tracing the first element that does not fit (TF 2.21's two messages)."""
    if state.graph is None:
        word = {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)
        return f"Cannot convert {value!r} to EagerTensor of dtype {word}"
    bad = value
    for element in (np.ravel(np.array(value, dtype=object)) if isinstance(value, (list, tuple)) else ()):
        try:
            ok = _lossless(_infer_array(element), dtype)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            bad = element
            break
    return f"Expected {dtype.name}, but got {bad} of type '{type(bad).__name__}'."


def _wide_ints(value, dtype: _dt.DType) -> np.ndarray:
    if isinstance(value, (list, tuple)):
        _check_sequence(value, allow_big=True)
    try:
        arr = np.array(value, dtype=object).astype(dtype.np_dtype)
    except (OverflowError, TypeError, ValueError):
        raise ValueError(OUT_OF_RANGE) from None
    if dtype is _dt.uint64 and arr.size and np.array(value, dtype=object).min() < 0:
        raise ValueError(OUT_OF_RANGE)
    return arr


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """TensorFlow's `tf.convert_to_tensor`: tensors pass through, variables are read, Python and
    NumPy values become constants (in a graph: constants of the graph being traced)."""
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype is not _dt.as_dtype(dtype):
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for Tensor "
                             f"with dtype {value.dtype.name}: {value!r}")
        return value
    if hasattr(type(value), "_as_tensor"):  # a Variable (state/variables.py), an IndexedSlices
        refuse = getattr(value, "_refuse_conversion", None)  # a value that words its own dtype refusal
        if dtype is not None and refuse is not None:
            refuse(_dt.as_dtype(dtype))
        t = value._as_tensor()
        if dtype is not None and t.dtype is not _dt.as_dtype(dtype):
            raise ValueError(f"Tensor conversion requested dtype {_dt.as_dtype(dtype).name} for Tensor "
                             f"with dtype {t.dtype.name}: {value!r}")
        return t
    if isinstance(value, (list, tuple)) and value and _contains_tensor(value):
        # auto-packing of lists of tensors, as TensorFlow does (ops/ registers `stack`: core/ never imports ops/)
        hint = _first_tensor_dtype(value) if dtype is None else dtype_hint
        return op_table.stack([convert_to_tensor(v, dtype, hint) for v in value])
    if dtype is not None:
        arr = to_array(value, _dt.as_dtype(dtype), strict=True)
    elif dtype_hint is not None:
        arr = to_array(value, _dt.as_dtype(dtype_hint), strict=False)
    else:
        arr = to_array(value)
    graph = state.graph
    if graph is None:
        return make_eager(arr, _dt.from_numpy(arr.dtype))
    return graph.literal(arr, name)


def is_tensor_like(value) -> bool:
    return isinstance(value, Tensor) or hasattr(type(value), "_as_tensor")

