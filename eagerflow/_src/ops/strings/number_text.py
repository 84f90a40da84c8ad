"""`tf.strings.as_string` (AsString) and `tf.strings.to_number` (StringToNumber): numbers to text and back.

- `as_string` writes C's printf formats: `%f`/`%e`/`%g` with `precision`, `width` and a one-
  character `fill` flag (`0`, ` `, `-`, `+`, `#`); bools as true/false, complex as `(re,im)`.
- `to_number` accepts what C's strtod/strtol accept: surrounding spaces, a sign, inf/nan, hex
  floats; anything else (including Python's `1_0`) is TensorFlow's "could not correctly convert".
"""
from __future__ import annotations

import re

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .elementwise import _S, _elementwise, _err


_AS_STRING_TYPES = (_dt.float16, _dt.float32, _dt.float64, _dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.uint8,
                    _dt.uint16, _dt.uint32, _dt.uint64, _dt.complex64, _dt.complex128, _dt.bool_, _S)


def _as_string_format(dtype, precision, scientific, shortest, width, fill):
    if scientific and shortest:
        raise _err("Cannot select both scientific and shortest notation")
    if len(fill) > 1:
        raise _err("Fill string must be one or fewer characters")
    if fill and fill not in "0 -+#":
        raise _err(f'Fill argument not supported: "{fill}"')
    is_float = dtype.is_floating or dtype.is_complex
    if precision > -1 and not is_float:
        raise _err(f"precision not supported for datatype {dtype.name}")
    spec = "%" + fill + (str(width) if width > -1 else "") + (f".{precision}" if precision > -1 else "")
    if not is_float:
        return spec + "d"
    return spec + ("e" if scientific else "g" if shortest else "f")


def _as_string_kernel(x, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    arr = np.asarray(x)
    dtype = _dt.as_dtype(arr.dtype) if arr.dtype != object else _S
    fill = fill.decode() if isinstance(fill, bytes) else fill
    fmt = _as_string_format(dtype, precision, scientific, shortest, width, fill)
    if dtype is _S:
        return arr.copy()
    if dtype is _dt.bool_:
        conv = lambda v: b"true" if v else b"false"  # noqa: E731
    elif dtype.is_complex:
        conv = lambda v: f"({fmt % v.real},{fmt % v.imag})".encode()  # noqa: E731
    elif dtype.is_floating:
        conv = lambda v: (fmt % float(v)).encode()  # noqa: E731
    else:
        conv = lambda v: (fmt % int(v)).encode()  # noqa: E731
    out = np.empty(arr.shape, dtype=object)
    flat_in, flat_out = arr.reshape(-1), out.reshape(-1)
    for i in range(flat_in.size):
        flat_out[i] = conv(flat_in[i])
    return out


def _as_string_infer(inputs, attrs):
    R.check_dtype_in("AsString", inputs[0].dtype, _AS_STRING_TYPES, "input")
    return [Spec(inputs[0].shape, _S)]


AsString = defop("AsString", inputs=("input",), kernel=_as_string_kernel, infer=_as_string_infer,
                 grad=NO_GRADIENT, doc="Each element as text, in C's printf formats.")


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):
    """`tf.strings.as_string` (also `tf.as_string`)."""
    return bind(AsString, (as_tensor(input),), {"precision": int(precision), "scientific": bool(scientific),
                                                "shortest": bool(shortest), "width": int(width), "fill": fill},
                name=name)


_NUMBER_TYPES = (_dt.float32, _dt.float64, _dt.int32, _dt.int64, _dt.uint32, _dt.uint64)
_FLOAT_TEXT = re.compile(r"\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)\s*",
                         re.IGNORECASE)
_HEX_FLOAT = re.compile(r"\s*[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?\s*")
_INT_TEXT = re.compile(r"\s*[+-]?\d+\s*")


def _to_number_kernel(x, out_type=_dt.float32):
    np_type = out_type.np_dtype
    info = np.iinfo(np_type) if out_type.is_integer else None

    def convert(s):
        text = s.decode("utf-8", "replace")
        try:
            if info is not None:
                if _INT_TEXT.fullmatch(text):
                    value = int(text)
                    if info.min <= value <= info.max:
                        return value
            elif _FLOAT_TEXT.fullmatch(text):
                return float(text)
            elif _HEX_FLOAT.fullmatch(text):
                return float.fromhex(text.strip())
        except (ValueError, OverflowError):
            pass
        raise _err(f"StringToNumberOp could not correctly convert string: {text}")
    with np.errstate(over="ignore"):
        return _elementwise(convert, object)(x).astype(np_type)


def _to_number_infer(inputs, attrs):
    R.check_input_dtype("StringToNumber", inputs, 0, _S)
    out_type = attrs.get("out_type", _dt.float32)
    R.check_dtype_in("StringToNumber", out_type, _NUMBER_TYPES, "out_type", attr="out_type")
    return [Spec(inputs[0].shape, out_type)]


StringToNumber = defop("StringToNumber", inputs=("string_tensor",), kernel=_to_number_kernel,
                       infer=_to_number_infer, grad=NO_GRADIENT, doc="Parses each string as a number.")


def to_number(input, out_type=_dt.float32, name=None):
    """`tf.strings.to_number`: float32 by default; float64, int32, int64, uint32, uint64."""
    return bind(StringToNumber, (as_tensor(input, _S),), {"out_type": _dt.as_dtype(out_type)}, name=name)
