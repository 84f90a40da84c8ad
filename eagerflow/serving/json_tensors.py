"""JSON values <-> NumPy arrays for the REST API, in TensorFlow Serving's JSON mapping.

Numbers are decoded straight into an array of the signature's dtype: the nested lists go to NumPy
once to find their shape and kind (no per-element Python loop), then the kind is checked against the
dtype (a string, bool or null where numbers belong is an error, as TensorFlow Serving's is; an
integer input takes only integers in its range) and the array is cast. Only strings are walked one
by one, since each may be a `{"b64": ...}` object. `NaN`, `Infinity` and `-Infinity` are valid float
values, as TensorFlow Serving documents them; they are refused for integer and bool inputs.

JSON carries only TensorFlow Serving's JSON dtypes (JSON_DTYPES): a bfloat16, half, uint16 or complex input
is UNIMPLEMENTED ("Conversion of JSON Value: 1.5 to type: bfloat16", HTTP 501) and such an output is
INVALID_ARGUMENT ("Failed to write JSON value for tensor type: bfloat16"), as in TensorFlow Serving; the
gRPC API's TensorProtos carry every dtype.
"""
from __future__ import annotations

import base64
import binascii
import json
from itertools import chain

import numpy as np

from .errors import ServingError, invalid_argument

_MAX_DEBUG_CHARS = 256


def debug_text(value) -> str:
    """A JSON value for an error message, cut to TensorFlow Serving's 256 characters."""
    try:
        text = json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _MAX_DEBUG_CHARS else text[:_MAX_DEBUG_CHARS] + "..."


def json_type(value) -> str:
    if value is None:
        return "Null"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, dict):
        return "Object"
    if isinstance(value, list):
        return "Array"
    if isinstance(value, str):
        return "String"
    return "Number"


def is_b64(value) -> bool:
    return isinstance(value, dict) and len(value) == 1 and isinstance(value.get("b64"), str)


def decode_b64(value) -> bytes:
    try:
        return base64.b64decode(value["b64"], validate=True)
    except (binascii.Error, ValueError):
        raise invalid_argument("Unable to base64 decode") from None


def _type_error(value, info):
    return invalid_argument(f"JSON Value: {debug_text(value)} Type: {json_type(value)} is not of expected type: "
                            f"{info.type_name}")


def _first_leaf(value):
    while isinstance(value, list) and value:
        value = value[0]
    return value


def _shape_error(value):
    """Why nested lists are not a dense tensor: the first list whose size differs from its siblings'."""
    shape = []
    probe = value
    while isinstance(probe, list):
        shape.append(len(probe))
        probe = probe[0] if probe else None

    def walk(node, level):
        if isinstance(node, list):
            if level >= len(shape):
                return f"Encountered list at unexpected level: {level} expected < {len(shape)}"
            if len(node) != shape[level]:
                return (f"Encountered list at unexpected size: {len(node)} at level: {level} "
                        f"expected size: {shape[level]}")
            for item in node:
                found = walk(item, level + 1)
                if found:
                    return found
        elif level != len(shape):
            return (f"JSON Value: {debug_text(node)} found at incorrect level: {level + 1} in the JSON DOM. "
                    f"Expected at level: {len(shape)}")
        return None

    return invalid_argument(walk(value, 0) or "the value is not a dense tensor")


def _dense_strings(value, info) -> np.ndarray:
    try:
        raw = np.array(value, dtype=object)
    except ValueError:
        raise _shape_error(value) from None
    if raw.ndim and raw.size and any(isinstance(x, list) for x in raw.flat[:1]):
        raise _shape_error(value)
    out = np.empty(raw.shape, dtype=object)
    flat_in, flat_out = raw.reshape(-1), out.reshape(-1)
    for index, item in enumerate(flat_in):
        if isinstance(item, str):
            flat_out[index] = item.encode("utf-8")
        elif is_b64(item):
            flat_out[index] = decode_b64(item)
        elif isinstance(item, dict):
            raise invalid_argument(f"JSON Value: {debug_text(item)} not formatted correctly for base64 data")
        elif isinstance(item, list):
            raise _shape_error(value)
        else:
            raise _type_error(item, info)
    return out


# the dtypes TensorFlow Serving converts to and from JSON (strings apart)
JSON_DTYPES = frozenset(np.dtype(name) for name in
                        ("float32", "float64", "int32", "int16", "int8", "uint8", "int64", "bool", "uint32", "uint64"))
_KINDS = {"f": "if", "i": "iu", "u": "iu", "b": "b"}
# which JSON scalars (as Python decodes them) each dtype kind takes
_ACCEPTS = {
    "if": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "iu": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "b": lambda x: isinstance(x, bool),
}
MAX_RANK = 32  # deeper nesting is refused before NumPy or the shape check walk it


def _nested_numbers(value, depth):
    """np.array(value) for nested lists `depth` deep (depth >= 2) whose lists are dense and whose leaves are
    numbers or bools, built faster; None for anything else (the caller then asks np.array itself). NumPy
    discovers the shape of nested lists list by list, which for an image's rows of one-channel pixels (784
    lists of one number) costs several times reading the numbers: here each level is checked to hold lists of
    one length (set(map(len)): a number has no length, and a string's or object's characters or keys would
    reach the leaves and make them text) and flattened (itertools.chain), both loops in C, and NumPy reads the
    flat leaves once, giving the dtype it gives the nested lists."""
    level, shape = value, [len(value)]
    try:
        for _ in range(depth - 1):
            lengths = set(map(len, level))
            if len(lengths) != 1 or 0 in lengths:
                return None
            shape.append(lengths.pop())
            level = list(chain.from_iterable(level))
        leaves = np.array(level)
    except (TypeError, ValueError):  # a number where a list belongs; lists among the leaves
        return None
    if leaves.ndim != 1 or leaves.dtype.kind not in "biuf":
        return None
    return leaves.reshape(shape)


def _depth(value) -> int:
    depth = 0
    while isinstance(value, list):
        depth += 1
        if depth > MAX_RANK:
            raise invalid_argument(f"JSON value is nested more than {MAX_RANK} lists deep")
        value = value[0] if value else None
    return depth


def to_array(value, info, may_hold_bools=True) -> np.ndarray:
    """The JSON `value` (a scalar or nested lists) as an array of `info`'s dtype (servable.TensorInfo).
    NumPy turns a `true` among numbers into 1 silently; where the request may hold booleans
    (`may_hold_bools`: its text has `true` or `false`) the numbers are walked to refuse one."""
    depth = _depth(value)
    target = info.numpy_dtype
    if target == np.dtype(object):
        return _dense_strings(value, info)
    if target not in JSON_DTYPES:
        raise ServingError("UNIMPLEMENTED", f"Conversion of JSON Value: {debug_text(_first_leaf(value))} to type: "
                                            f"{info.type_name}")
    allowed = _KINDS[target.kind]
    # two levels (a batch of flat rows) NumPy reads as fast itself; deeper ones through _nested_numbers
    raw = _nested_numbers(value, depth) if depth >= 3 else None
    if raw is None:
        try:
            raw = np.array(value)
        except ValueError:
            raise _shape_error(value) from None
    if raw.dtype.kind not in allowed:
        if raw.dtype == np.dtype(object) and _has_list(raw):
            raise _shape_error(value)
        bad = _first_bad_leaf(value, _ACCEPTS[allowed])
        if bad is not _NONE:
            raise _type_error(bad, info)
        if target.kind in "iu":  # every element is an integer, but one too large for int64
            raise _range_error(max(_leaves(value), key=abs), info)
        return np.array(value, dtype=target)  # a float input given an integer beyond int64: a float all the same
    if may_hold_bools and target.kind != "b":
        bad = _first_bad_leaf(value, _ACCEPTS[allowed])
        if bad is not _NONE:
            raise _type_error(bad, info)
    if target.kind in "iu" and raw.size:
        limits = np.iinfo(target)
        low, high = raw.min(), raw.max()
        if low < limits.min or high > limits.max:
            raise _range_error(low if low < limits.min else high, info)
    return raw.astype(target, copy=False)


def _range_error(value, info):
    return invalid_argument(f"JSON Value: {value} Type: Number is out of range for type: {info.type_name}")


def _has_list(raw) -> bool:
    return any(isinstance(item, list) for item in raw.reshape(-1))


_NONE = object()


def _leaves(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        else:
            yield item


def _first_bad_leaf(value, accepts):
    """The first scalar `accepts` refuses, walking the lists (only on the error path)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif not accepts(item):
            return item
    return _NONE


# --- outputs ---
def to_json_value(name: str, array: np.ndarray):
    """An output array as JSON-ready nested lists; strings as text, or `{"b64": ...}` where the output's
    name ends in `_bytes` (TensorFlow Serving's rule) or the bytes are not UTF-8."""
    if array.dtype == np.dtype(object) or array.dtype.kind == "S":
        return _strings_out(array, base64_always=name.endswith("_bytes"))
    if array.dtype not in JSON_DTYPES:
        raise invalid_argument(f"Failed to write JSON value for tensor type: {_tf_type_name(array.dtype)}")
    if array.dtype == np.float32:
        # the shortest decimal that reads back as the same float32 (0.2, not float64's 0.20000000298023224),
        # as TensorFlow Serving writes floats; NumPy's str() of a float32 is that decimal
        return array.astype(str).astype(np.float64).tolist()
    return array.tolist()


def _strings_out(array, base64_always):
    def one(item):
        data = item if isinstance(item, bytes) else str(item).encode("utf-8")
        if not base64_always:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                pass
        return {"b64": base64.b64encode(data).decode("ascii")}
    return np.frompyfunc(one, 1, 1)(array).tolist() if array.ndim else one(array.item())


def _tf_type_name(dtype) -> str:
    """TensorFlow's name of a dtype JSON does not carry (float16 is "half"; bfloat16, uint16 and the complex
    types share NumPy's names)."""
    return {"float16": "half"}.get(dtype.name, dtype.name)
