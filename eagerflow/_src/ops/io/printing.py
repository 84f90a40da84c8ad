"""`tf.print` and `tf.strings.format`: text made and written at run time.

Two ops, as in TensorFlow's graphs: `StringFormat` turns tensors into one string scalar following
a template, and `PrintV2` (stateful, so no pass may drop or fold it) writes that string to a stream
when the op *runs*. Eagerly that is now; inside a traced function it is at every call, not once at
trace time (which is the point of `tf.print` over Python's `print`).

The text is TensorFlow's `Tensor::SummarizeValue` in its "v2" form, restated here:
- elements: floats as `%.6g` (`%.15g` for float64), widened to `%.9g` (`%.17g`) when the short form
  does not read back as the same value; bools as `1`/`0`; strings quoted and C-escaped; integers
  plainly; complex and other types as `?`;
- arrays nest brackets, elements of the last axis are separated by a space, deeper axes by newlines
  (one per remaining axis) plus indentation;
- `summarize` = n keeps the first and last n entries of every axis with `...` between (-1: all).
"""
from __future__ import annotations

import collections.abc as _abc
import sys

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor, is_tensor_like
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..registry import FILES, NO_GRADIENT, Spec, bind, defop

# ----------------------------------------------------------------------------------------------
# One element, then one array (TensorFlow's SummarizeValue with print_v2=true)
# ----------------------------------------------------------------------------------------------


def _float_text(value, short: int, long: int, narrow) -> str:
    """Shortest of `%.{short}g` / `%.{long}g` that reads back as the same value (in `narrow`)."""
    v = float(value)
    if v != v:
        return "-nan" if np.signbit(value) else "nan"
    text = "%.*g" % (short, v)
    if narrow(text) != narrow(v):
        text = "%.*g" % (long, v)
    return text


def _c_escape(raw: bytes) -> str:
    """C escaping that leaves UTF-8 bytes (>= 0x80) alone (absl's Utf8SafeCEscape)."""
    out = bytearray()
    for byte in raw:
        escaped = _ESCAPES.get(byte)
        if escaped is not None:
            out += escaped
        elif byte < 0x20 or byte == 0x7F:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    return out.decode("utf-8", errors="replace")


_ESCAPES = {ord(k): v for k, v in {"\n": b"\\n", "\r": b"\\r", "\t": b"\\t", '"': b'\\"', "'": b"\\'",
                                    "\\": b"\\\\"}.items()}


def _element_formatter(dtype: np.dtype):
    kind = dtype.kind
    if kind == "f":
        if dtype.itemsize == 8:
            return lambda v: _float_text(v, 15, 17, float)
        return lambda v: _float_text(v, 6, 9, np.float32)  # half is printed as a float
    if kind == "b":
        return lambda v: "1" if v else "0"
    if kind in "iu":
        return lambda v: str(int(v))
    if kind in "OSU":
        return lambda v: '"' + _c_escape(v.encode("utf-8") if isinstance(v, str) else bytes(v)) + '"'
    return None  # complex, ...: TensorFlow prints `?`


def _dim_spacing(axis: int, ndim: int) -> str:
    if axis == ndim - 1:
        return " "
    return "\n" * (ndim - axis - 1) + " " * (axis + 1)


def summarize_array(value: np.ndarray, summarize: int = 3) -> str:
    """One array in TensorFlow's print format (see the module docstring)."""
    value = np.asarray(value)
    total = value.size
    limit = total if summarize is None or summarize < 0 else min(summarize, total)
    fmt = _element_formatter(value.dtype)
    if fmt is None:
        body = " ".join("?" for _ in range(limit)) + ("..." if limit < total else "")
        return f"[{body}]" if value.ndim else body
    if value.ndim == 0:
        return (fmt(value[()]) if limit else "") + ("..." if total > limit else "")
    parts: list[str] = []
    _print_axis(value, 0, (), limit, fmt, parts)
    return "".join(parts)


def _print_axis(value, axis, index, ends, fmt, out):
    if axis == value.ndim:
        out.append(fmt(value[index]))
        return
    out.append("[")
    count = value.shape[axis]
    for i in range(min(ends, count)):
        if i:
            out.append(_dim_spacing(axis, value.ndim))
        _print_axis(value, axis + 1, index + (i,), ends, fmt, out)
    if count > 2 * ends:
        out.append(_dim_spacing(axis, value.ndim))
        out.append("...")
    for i in range(max(ends, count - ends), count):
        out.append(_dim_spacing(axis, value.ndim))
        _print_axis(value, axis + 1, index + (i,), ends, fmt, out)
    out.append("]")


# ----------------------------------------------------------------------------------------------
# StringFormat: tensors -> one string scalar
# ----------------------------------------------------------------------------------------------


def _format_kernel(*values, template, placeholder, summarize):
    pieces = template.split(placeholder)
    if len(pieces) != len(values) + 1:
        raise InvalidArgumentError(None, None, f"num placeholders in template and num inputs must match: "
                                               f"{len(pieces) - 1} vs. {len(values)}")
    out = [pieces[0]]
    for value, piece in zip(values, pieces[1:]):
        out.append(summarize_array(value, summarize))
        out.append(piece)
    return np.array("".join(out).encode("utf-8"), dtype=object)


StringFormat = defop(
    "StringFormat", inputs=("inputs",), kernel=_format_kernel, grad=NO_GRADIENT,
    infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.string)],
    doc="Formats tensors into a template, TensorFlow's print format for each tensor.")


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """`tf.strings.format`: `template` with each `placeholder` replaced by one input's text."""
    if is_tensor_like(inputs):
        inputs = [inputs]
    tensors = [convert_to_tensor(x) for x in inputs]
    if template.count(placeholder) != len(tensors):
        raise ValueError(f"The template expects {template.count(placeholder)} tensors, but the inputs only has "
                         f"{len(tensors)}. Please ensure the number of placeholders in template matches inputs "
                         f"length.")
    attrs = {"template": template, "placeholder": placeholder, "summarize": _summarize_attr(summarize)}
    return bind(StringFormat, tensors, attrs, name)


def _summarize_attr(summarize) -> int:
    return 3 if summarize is None else int(summarize)


# ----------------------------------------------------------------------------------------------
# PrintV2: write a string scalar to a stream, at run time
# ----------------------------------------------------------------------------------------------


def _open_stream(output_stream: str):
    """The stream named by the attr, looked up when the op runs (so redirected `sys.stderr`, e.g.
    pytest's capture, receives the text)."""
    if output_stream == "stderr":
        return sys.stderr, False
    if output_stream == "stdout":
        return sys.stdout, False
    return open(output_stream[len("file://"):], "a", encoding="utf-8"), True


def _print_kernel(text, output_stream, end):
    text = text[()] if isinstance(text, np.ndarray) else text
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    stream, owned = _open_stream(output_stream)
    try:
        stream.write(text + end)
        stream.flush()
    finally:
        if owned:
            stream.close()
    return ()


def _print_infer(inputs, attrs):
    x = inputs[0]
    if x.dtype is not _dt.string or (x.shape.rank is not None and x.shape.rank != 0):
        raise InvalidArgumentError(None, None, "PrintV2 takes one string scalar")
    return []


PrintV2 = defop("PrintV2", inputs=("input",), kernel=_print_kernel, infer=_print_infer, grad=NO_GRADIENT,
                multi_output=True, stateful=True,
                doc="Writes a string scalar (+ `end`) to stderr, stdout or a file when it runs.")
PrintV2.effects = lambda attrs: frozenset() if attrs.get("output_stream") in ("stdout", "stderr") else FILES


_SUPPORTED = ("Supported streams are sys.stdout, sys.stderr, tf.logging.info, tf.logging.warning, "
              "tf.logging.error. File needs to be in the form of 'file://<filepath>'.")


def _stream_attr(output_stream) -> str:
    if output_stream is sys.stderr or output_stream is sys.__stderr__:
        return "stderr"
    if output_stream is sys.stdout or output_stream is sys.__stdout__:
        return "stdout"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    raise ValueError(f"Unsupported output stream, logging level, or file.{output_stream}. {_SUPPORTED}")


class _Slot:
    """Stands for a tensor inside a Python structure; its repr is the template placeholder."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _with_slots(x, tensors, slot):
    """`x` with every tensor replaced by `slot` (tensors collected in order). A plain dict comes back
    with sorted keys, an OrderedDict in its own order, as tf.print shows them."""
    if is_tensor_like(x):
        tensors.append(convert_to_tensor(x))
        return slot
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):
        return type(x)(*[_with_slots(v, tensors, slot) for v in x])
    if isinstance(x, (list, tuple)):
        return type(x)(_with_slots(v, tensors, slot) for v in x)
    if isinstance(x, _abc.Mapping):
        keys = _sorted_keys(x) if type(x) is dict else list(x)
        pairs = [(k, _with_slots(x[k], tensors, slot)) for k in keys]
        return dict(pairs) if type(x) is dict else type(x)(pairs)
    return x


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def _template(inputs, sep, placeholder):
    """(template text, tensors) for tf.print's inputs with a given placeholder."""
    slot = _Slot(placeholder)
    parts, tensors = [], []
    for x in inputs:
        if isinstance(x, str):
            parts.append(x)
        elif is_tensor_like(x):
            tensors.append(convert_to_tensor(x))
            parts.append(placeholder)
        else:
            parts.append(repr(_with_slots(x, tensors, slot)))
    return sep.join(parts), tensors


def print_(*inputs, **kwargs):
    """`tf.print(*inputs, output_stream=sys.stderr, summarize=3, sep=' ', end='\\n', name=None)`.

    Python strings are printed as they are, tensors in TensorFlow's format (e.g. `[1 2 3]`), other
    values and structures with their repr (tensors inside shown formatted). The text is made and
    written when the op runs. Exported as `tf.print`; named `print_` so this module's own `print`
    stays Python's.
    """
    unknown = {k: v for k, v in kwargs.items() if k not in ("output_stream", "summarize", "sep", "end", "name")}
    if unknown:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {unknown}")
    stream = _stream_attr(kwargs.get("output_stream", sys.stderr))
    summarize = _summarize_attr(kwargs.get("summarize", 3))
    sep = kwargs.get("sep", " ")
    end = kwargs.get("end", "\n")
    name = kwargs.get("name")

    if (len(inputs) == 1 and is_tensor_like(inputs[0])):
        only = convert_to_tensor(inputs[0])
        if only.dtype is _dt.string and only.shape.rank == 0:  # printed as it is, unquoted
            bind(PrintV2, [only], {"output_stream": stream, "end": end}, name)
            return None
    # A placeholder that the user's own text cannot be mistaken for.
    for i in range(1000):
        placeholder = "{}" if i == 0 else "{%d}" % i
        template, tensors = _template(inputs, sep, placeholder)
        if template.count(placeholder) == len(tensors):
            break
    if tensors:
        attrs = {"template": template, "placeholder": placeholder, "summarize": summarize}
        text = bind(StringFormat, tensors, attrs)
    else:
        text = convert_to_tensor(template)
    bind(PrintV2, [text], {"output_stream": stream, "end": end}, name)
    return None
