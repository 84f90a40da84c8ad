"""`tf.strings`: the element-wise string ops of TensorFlow (dense tensors; no RaggedTensor yet).

A string tensor holds `bytes` in a NumPy object array. The ops, as TensorFlow's graphs name them:
StringLength, StringLower/StringUpper, StringStrip, StaticRegexFullMatch/RegexFullMatch,
StaticRegexReplace/RegexReplace (the Static form when the pattern is a Python string, as in
TensorFlow), Substr, StringJoin, ReduceJoin, AsString, StringToNumber. None has a gradient, and
none compiles under jit_compile (TensorFlow's XLA has no string type either).

What TensorFlow does, restated:
- `unit="UTF8_CHAR"` counts code points as the bytes that do not continue one (a malformed byte
  counts as a character); `encoding="utf-8"` in lower/upper applies Unicode case mapping, the
  default only touches ASCII letters.
- Patterns are RE2's, matched on UTF-8 text (`.` is one character, not one byte); this uses
  Python's `re` on the decoded text, which agrees on RE2's syntax apart from RE2's extensions.
  A rewrite names groups as `\\1`..`\\9` (`\\0`: the whole match); a rewrite naming a group the
  pattern lacks leaves the string unchanged.
- `as_string` writes C's printf formats: `%f`/`%e`/`%g` with `precision`, `width` and a one-
  character `fill` flag (`0`, ` `, `-`, `+`, `#`); bools as true/false, complex as `(re,im)`.
- `to_number` accepts what C's strtod/strtol accept: surrounding spaces, a sign, inf/nan, hex
  floats; anything else (including Python's `1_0`) is TensorFlow's "could not correctly convert".
"""
from __future__ import annotations

import re

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError, OutOfRangeError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value

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


# --- regular expressions -----------------------------------------------------------------------

def _compile(pattern: bytes):
    text = _as_bytes(pattern).decode("utf-8", "surrogateescape")
    try:
        return re.compile(text, re.ASCII)  # RE2's \d, \w, \s are ASCII classes
    except re.error as exc:
        raise _err(f"Invalid pattern: {text}, error: {_re2_words(exc, text)}") from None


def _re2_words(exc, text):
    """RE2's wording of a refused pattern (which quotes the offending part) where Python's re names the
    same problem, else Python's own words."""
    message, pos = str(exc).split(" at position")[0], exc.pos
    rest = text[pos:] if pos is not None else text
    if message.startswith("unterminated character set"):
        return f"missing ]: {rest}"
    if message.startswith("missing ), unterminated subpattern"):
        return f"missing ): {rest}"
    if message.startswith("unbalanced parenthesis"):
        return f"unexpected ): {text}"
    if message.startswith("nothing to repeat"):
        return f"no argument for repetition operator: {rest[:1]}"
    if message.startswith("multiple repeat") and pos:
        return f"bad repetition operator: {text[pos - 1:pos + 1]}"
    if "name" in message and "(?P<" in text[:(pos or 0) + 1]:
        return f"invalid named capture group: {text[text.rfind('(?P<', 0, (pos or 0) + 1):]}"
    return str(exc)


_REWRITE_PART = re.compile(r"\\(\d|\\)")


def _rewriter(compiled, rewrite: bytes):
    """RE2's rewrite string as a function of a match; None when it names a group the pattern lacks."""
    text = _as_bytes(rewrite).decode("utf-8", "surrogateescape")
    if any(m.group(1).isdigit() and int(m.group(1)) > compiled.groups for m in _REWRITE_PART.finditer(text)):
        return None

    def expand(match):
        return _REWRITE_PART.sub(lambda m: "\\" if m.group(1) == "\\" else (match.group(int(m.group(1))) or ""),
                                 text)
    return expand


def _decode(s: bytes) -> str:
    return s.decode("utf-8", "surrogateescape")


def _scalar_bytes(value):
    """A string attr (bytes) or a scalar string input (a 0-d object array) as bytes."""
    return _as_bytes(value.item() if isinstance(value, np.ndarray) else value)


def _full_match_kernel(x, pattern):
    compiled = _compile(_scalar_bytes(pattern))
    return _elementwise(lambda s: compiled.fullmatch(_decode(s)) is not None, np.bool_)(x)


def _replace_kernel(x, pattern, rewrite, replace_global=True):
    compiled = _compile(_scalar_bytes(pattern))
    expand = _rewriter(compiled, _scalar_bytes(rewrite))
    if expand is None:
        return np.asarray(x, dtype=object).copy()
    count = 0 if replace_global else 1
    return _elementwise(lambda s: compiled.sub(expand, _decode(s), count=count).encode("utf-8", "surrogateescape"))(x)


def _static_full_match_kernel(x, pattern=b""):
    return _full_match_kernel(x, pattern)


def _static_replace_kernel(x, pattern=b"", rewrite=b"", replace_global=True):
    return _replace_kernel(x, pattern, rewrite, replace_global)


def _regex_infer(name, out_dtype, scalar_inputs=()):
    def infer(inputs, attrs):
        for i in range(len(inputs)):
            R.check_input_dtype(name, inputs, i, _S)
        for i in scalar_inputs:
            if inputs[i].shape.rank not in (None, 0):
                raise _err(f"Shape must be rank 0 but is rank {inputs[i].shape.rank} for '{{{{node {name}}}}} = "
                           f"{name}' with input shapes: {R.fmt_dims(inputs[i].shape)}.")
        return [Spec(inputs[0].shape, out_dtype)]
    return infer


StaticRegexFullMatch = defop("StaticRegexFullMatch", inputs=("input",), kernel=_static_full_match_kernel,
                             infer=_regex_infer("StaticRegexFullMatch", _dt.bool_), grad=NO_GRADIENT)
RegexFullMatch = defop("RegexFullMatch", inputs=("input", "pattern"), kernel=_full_match_kernel,
                       infer=_regex_infer("RegexFullMatch", _dt.bool_, (1,)), grad=NO_GRADIENT)
StaticRegexReplace = defop("StaticRegexReplace", inputs=("input",), kernel=_static_replace_kernel,
                           infer=_regex_infer("StaticRegexReplace", _S), grad=NO_GRADIENT)
RegexReplace = defop("RegexReplace", inputs=("input", "pattern", "rewrite"), kernel=_replace_kernel,
                     infer=_regex_infer("RegexReplace", _S, (1, 2)), grad=NO_GRADIENT)


def regex_full_match(input, pattern, name=None):
    """`tf.strings.regex_full_match`: whether each whole string matches `pattern` (RE2 syntax)."""
    x = as_tensor(input)
    if isinstance(pattern, (str, bytes)):
        _compile(_as_bytes(pattern))  # a bad pattern fails here, in both modes
        return bind(StaticRegexFullMatch, (x,), {"pattern": _as_bytes(pattern)}, name=name)
    return bind(RegexFullMatch, (x, as_tensor(pattern, _S)), name=name)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """`tf.strings.regex_replace`: `pattern` matches replaced by `rewrite` (`\\1`: a group)."""
    x = as_tensor(input)
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        _compile(_as_bytes(pattern))
        return bind(StaticRegexReplace, (x,), {"pattern": _as_bytes(pattern), "rewrite": _as_bytes(rewrite),
                                               "replace_global": bool(replace_global)}, name=name)
    return bind(RegexReplace, (x, as_tensor(pattern, _S), as_tensor(rewrite, _S)),
                {"replace_global": bool(replace_global)}, name=name)


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


# --- joining -----------------------------------------------------------------------------------

def _join_kernel(*inputs, separator=b""):
    sep = _as_bytes(separator)
    arrays = [np.asarray(a, dtype=object) for a in inputs]
    shape = ()
    for a in arrays:
        if a.ndim:
            if shape and a.shape != shape:
                raise _err(f"Input shapes do not match: {_dims(shape)} vs. {_dims(a.shape)}")
            shape = a.shape
    out = np.empty(shape, dtype=object)
    columns = [np.broadcast_to(a, shape).reshape(-1) for a in arrays]
    flat = out.reshape(-1)
    for i in range(flat.size):
        flat[i] = sep.join(_as_bytes(c[i]) for c in columns)
    return out


def _join_infer(inputs, attrs):
    shape = TensorShape([])
    for i, t in enumerate(inputs):
        R.check_input_dtype("StringJoin", inputs, i, _S)
        if t.shape.rank == 0:
            continue
        if shape.rank == 0 or state.graph is None:  # eagerly the kernel compares the shapes, as TensorFlow's
            shape = t.shape
        elif shape.rank is not None and t.shape.rank is not None and shape.rank != t.shape.rank:
            raise _err(f"Shapes must be equal rank, but are {shape.rank} and {t.shape.rank} for "
                       f"'{{{{node StringJoin}}}} = StringJoin' with input shapes: "
                       + ", ".join(R.fmt_dims(x.shape) for x in inputs) + ".")
        elif not shape.is_compatible_with(t.shape):
            i, a, b = next((i, a, b) for i, (a, b) in enumerate(zip(shape, t.shape))
                           if a is not None and b is not None and a != b)
            raise _err(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                       f"{R.fmt_dims(shape)} and {R.fmt_dims(t.shape)}.")
        else:
            shape = shape.merge_with(t.shape)
    return [Spec(shape, _S)]


StringJoin = defop("StringJoin", inputs=("inputs",), kernel=_join_kernel, infer=_join_infer, grad=NO_GRADIENT,
                   doc="Joins same-shape string tensors (scalars broadcast) element by element.")


def join(inputs, separator="", name=None):
    """`tf.strings.join`: element-wise concatenation of a list of string tensors."""
    tensors = tuple(as_tensor(t, _S) for t in inputs)
    if not tensors:
        return as_tensor(b"")
    return bind(StringJoin, tensors, {"separator": _as_bytes(separator)}, name=name)


def _reduce_join_kernel(x, axes, keep_dims=False, separator=b""):
    arr = np.asarray(x, dtype=object)
    ndim = arr.ndim
    axes = [int(a) for a in np.asarray(axes).reshape(-1)]
    for a in axes:
        if not -ndim <= a < max(ndim, 1) or (ndim == 0 and a not in (0, -1)):
            raise OutOfRangeError(None, None, f"Invalid reduction dimension {a} for input with {ndim} dimension(s)")
    axes = [a % ndim for a in axes] if ndim else []
    for i, a in enumerate(axes):
        if a in axes[:i]:
            raise _err(f"Duplicate reduction dimension {a}")
    sep = _as_bytes(separator)
    kept = [d for d in range(ndim) if d not in axes]
    moved = np.transpose(arr, kept + axes[::-1])  # the first axis listed varies fastest, as in TensorFlow
    rows = moved.reshape([arr.shape[d] for d in kept] + [-1])
    out = np.empty(rows.shape[:-1], dtype=object)
    flat_rows, flat_out = rows.reshape(out.size, -1), out.reshape(-1)
    for i in range(out.size):
        flat_out[i] = sep.join(_as_bytes(s) for s in flat_rows[i])
    if keep_dims:
        out = out.reshape([1 if d in axes else arr.shape[d] for d in range(ndim)])
    return out


def _reduce_join_infer(inputs, attrs):
    x, axes = inputs
    R.check_input_dtype("ReduceJoin", inputs, 0, _S)
    known = static_value(axes)
    if x.shape.rank is None or known is None:
        return [Spec(TensorShape(None), _S)]
    ndim = x.shape.rank
    if R.graph_shape_check(inputs):  # the graph's shape function refuses an axis out of range itself
        for a in np.asarray(known).reshape(-1):
            if not -ndim <= int(a) < max(ndim, 1):
                raise _err(f"Invalid reduction dimension {int(a)} for input with {ndim} dimensions.")
    picked = {int(a) % ndim for a in np.asarray(known).reshape(-1) if -ndim <= int(a) < ndim} if ndim else set()
    dims = x.shape.as_list()
    if attrs.get("keep_dims"):
        return [Spec(TensorShape([1 if d in picked else dims[d] for d in range(ndim)]), _S)]
    return [Spec(TensorShape([dims[d] for d in range(ndim) if d not in picked]), _S)]


ReduceJoin = defop("ReduceJoin", inputs=("inputs", "reduction_indices"), kernel=_reduce_join_kernel,
                   infer=_reduce_join_infer, grad=NO_GRADIENT,
                   doc="Joins the strings along the given axes, in row-major order.")


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """`tf.strings.reduce_join`: the strings along `axis` (all axes when None) joined; a RaggedTensor's
    rows (or columns) by UnsortedSegmentJoin (ops/ragged/reduce.py)."""
    if hasattr(inputs, "ragged_rank"):
        from ..ragged.reduce import ragged_reduce
        dense = lambda x, a, keep: reduce_join(x, a, keep, separator)  # noqa: E731
        return ragged_reduce("Join", dense, inputs, axis, keepdims, _as_bytes(separator))
    from ..array.basic import rank
    from ..array.sequences import range as _range
    x = as_tensor(inputs, _S)
    if axis is None:  # every axis, last first: the strings in row-major order
        axes = list(range(x.shape.rank))[::-1] if x.shape.rank is not None else _range(rank(x) - 1, -1, -1)
    else:
        axes = axis
    return bind(ReduceJoin, (x, as_tensor(axes, _dt.int32)),
                {"keep_dims": bool(keepdims), "separator": _as_bytes(separator)}, name=name)


# --- AsString, StringToNumber ------------------------------------------------------------------

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
