"""`tf.strings`: the per-string ops of TensorFlow (dense tensors) and the helpers the string ops share.

A string tensor holds `bytes` in a NumPy object array. Here: StringLength, StringLower/StringUpper,
StringStrip and Substr; regular expressions are in regex.py, StringJoin/ReduceJoin in join.py,
AsString/StringToNumber in number_text.py. None has a gradient, and none compiles under jit_compile
(TensorFlow's XLA has no string type either).

What TensorFlow does, restated:
- `unit="UTF8_CHAR"` counts code points as the bytes that do not continue one (a malformed byte
  counts as a character); `encoding="utf-8"` in lower/upper applies Unicode case mapping, the
  default only touches ASCII letters.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop

_S = _dt.string


def _err(message):
    return InvalidArgumentError(None, None, message)


def _elementwise(fn, out_dtype=object):
    """Applies `fn(bytes) -> value` to every element; keeps the shape (0-d included)."""
    def apply(strings):
        arr = np.asarray(strings, dtype=object)
        out = np.empty(arr.shape, dtype=out_dtype)
        flat_in, flat_out = arr.reshape(-1), out.reshape(-1)
        for i, s in enumerate(flat_in):
            flat_out[i] = fn(_as_bytes(s))
        return out
    return apply


def _as_bytes(s):
    return s.encode("utf-8") if isinstance(s, str) else bytes(s)


def _check_choice(op_name, attr, value, allowed):
    """A string attr outside its allowed values: TensorFlow's eager InvalidArgumentError, or its
    graph-building ValueError."""
    if value in allowed:
        return
    listed = ", ".join(f'"{a}"' for a in allowed)
    if state.graph is not None:
        raise ValueError(f"Attr '{attr}' of '{op_name}' Op passed string '{value}' not in: {listed}.")
    raise _err(f"Value for attr '{attr}' of \"{value}\" is not in the list of allowed values: {listed}")


def _same_shape_string_op(name, out_dtype=_S):
    def infer(inputs, attrs):
        R.check_input_dtype(name, inputs, 0, _S)
        return [Spec(inputs[0].shape, out_dtype)]
    return infer


# --- length, case, strip ---------------------------------------------------------------------

def _utf8_length(s: bytes) -> int:
    return sum(1 for b in s if (b & 0xC0) != 0x80)


def _length_kernel(x, unit="BYTE"):
    return _elementwise(len if unit == "BYTE" else _utf8_length, np.int32)(x)


StringLength = defop("StringLength", inputs=("input",), kernel=_length_kernel,
                     infer=_same_shape_string_op("StringLength", _dt.int32), grad=NO_GRADIENT,
                     doc="The length of each string, in bytes or UTF-8 characters.")


def _case_kernel(ascii_fn, unicode_fn):
    def kernel(x, encoding=""):
        if encoding:
            return _elementwise(lambda s: unicode_fn(s.decode("utf-8", "surrogateescape")).encode(
                "utf-8", "surrogateescape"))(x)
        return _elementwise(ascii_fn)(x)
    return kernel


StringLower = defop("StringLower", inputs=("input",), kernel=_case_kernel(bytes.lower, str.lower),
                    infer=_same_shape_string_op("StringLower"), grad=NO_GRADIENT)
StringUpper = defop("StringUpper", inputs=("input",), kernel=_case_kernel(bytes.upper, str.upper),
                    infer=_same_shape_string_op("StringUpper"), grad=NO_GRADIENT)
StringStrip = defop("StringStrip", inputs=("input",), kernel=_elementwise(bytes.strip),
                    infer=_same_shape_string_op("StringStrip"), grad=NO_GRADIENT,
                    doc="Strips leading and trailing ASCII whitespace.")


def length(input, unit="BYTE", name=None):
    """`tf.strings.length`: int32 lengths, in bytes (`unit="BYTE"`) or UTF-8 characters."""
    _check_choice("StringLength", "unit", unit, ("BYTE", "UTF8_CHAR"))
    return bind(StringLength, (as_tensor(input),), {"unit": unit}, name=name)


def lower(input, encoding="", name=None):
    """`tf.strings.lower`: ASCII letters only, unless `encoding="utf-8"`."""
    return bind(StringLower, (as_tensor(input),), {"encoding": _encoding(encoding)}, name=name)


def upper(input, encoding="", name=None):
    """`tf.strings.upper`: ASCII letters only, unless `encoding="utf-8"`."""
    return bind(StringUpper, (as_tensor(input),), {"encoding": _encoding(encoding)}, name=name)


def _encoding(encoding):
    encoding = (encoding or "").lower()
    if encoding not in ("", "utf-8"):
        raise _err(f"Only utf-8 is supported as encoding, got: {encoding}")
    return encoding


def strip(input, name=None):
    """`tf.strings.strip`: without leading and trailing whitespace."""
    return bind(StringStrip, (as_tensor(input),), name=name)


# --- Substr ------------------------------------------------------------------------------------

def _substr_kernel(x, pos, count, unit="BYTE"):
    x, pos, count = np.asarray(x, dtype=object), np.asarray(pos), np.asarray(count)
    if pos.shape != count.shape:
        raise _err(f"pos and len should have the same shape, got: {_dims(pos.shape)} vs. {_dims(count.shape)}")
    try:
        xb, pb, lb = np.broadcast_arrays(x, pos, count)
    except ValueError:
        raise _err(f"Incompatible shapes: {_dims(x.shape)} vs. {_dims(pos.shape)}") from None
    out = np.empty(xb.shape, dtype=object)
    flat_out = out.reshape(-1)
    for i, (s, p, n) in enumerate(zip(xb.reshape(-1), pb.reshape(-1), lb.reshape(-1))):
        s, p, n = _as_bytes(s), int(p), int(n)
        units = s if unit == "BYTE" else _utf8_chars(s)
        size = len(units)
        if p > size or p < -size:
            where = f"string b'{s.decode('latin-1')}' " if unit == "BYTE" else "string "
            raise _err(f"pos {p} out of range for {where}at index {i}")
        start = p if p >= 0 else size + p
        end = size if n < 0 else min(size, start + n)
        flat_out[i] = units[start:end] if unit == "BYTE" else b"".join(units[start:end])
    return out



def _utf8_chars(s: bytes):
    """The UTF-8 characters of `s` as byte strings (a continuation byte joins the one before)."""
    chars = []
    for b in s:
        if (b & 0xC0) == 0x80 and chars:
            chars[-1] += bytes((b,))
        else:
            chars.append(bytes((b,)))
    return chars


def _dims(shape):
    """A NumPy shape as TensorFlow prints it in messages (`[2,2]`)."""
    return R.fmt_dims(TensorShape(shape))


def _substr_infer(inputs, attrs):
    x, pos, n = inputs
    R.check_input_dtype("Substr", inputs, 0, _S)
    R.check_dtype_in("Substr", pos.dtype, (_dt.int32, _dt.int64), "pos")
    if state.graph is not None and pos.shape.rank is not None and n.shape.rank is not None \
            and pos.shape.rank != n.shape.rank:  # eagerly the kernel's message, as TensorFlow's
        raise _err(f"Shape must be rank {n.shape.rank} but is rank {pos.shape.rank} for '{{{{node Substr}}}} = "
                   f"Substr' with input shapes: {R.fmt_dims(x.shape)}, {R.fmt_dims(pos.shape)}, {R.fmt_dims(n.shape)}.")
    if state.graph is None and pos.shape != n.shape:
        return [Spec(x.shape, _S)]  # the kernel refuses it, with TensorFlow's eager message
    return [Spec(R.broadcast_shape(x.shape, pos.shape), _S)]


Substr = defop("Substr", inputs=("input", "pos", "len"), kernel=_substr_kernel, infer=_substr_infer,
               grad=NO_GRADIENT, doc="Substrings from `pos` (negative: from the end) of `len` bytes or characters.")


def substr(input, pos, len, unit="BYTE", name=None):
    """`tf.strings.substr`: `len` units from `pos` of each string (pos/len broadcast over it)."""
    _check_choice("Substr", "unit", unit, ("BYTE", "UTF8_CHAR"))
    x = as_tensor(input)
    p = as_tensor(pos, _dt.int32)
    n = as_tensor(len, p.dtype)
    return bind(Substr, (x, p, n), {"unit": unit}, name=name)
