"""Unicode code points and text: UnicodeDecode / UnicodeDecodeWithOffsets (`tf.strings.unicode_decode`,
`unicode_decode_with_offsets`, `unicode_split`) and UnicodeEncode (`tf.strings.unicode_encode`).

What TensorFlow does, restated:
- Decoding gives each string's code points (int32) as one ragged row: a scalar string gives a vector,
  a vector a RaggedTensor [n, None], a matrix [n, m, None]. A malformed byte sequence is an error
  ("strict"), one `replacement_char` ("replace", the default: U+FFFD) or nothing ("ignore");
  `replace_control_characters` also replaces C0 controls (U+0000..U+001F). The offsets are the
  byte positions where each character starts.
- Encoding turns each innermost row of code points into one string (UTF-8, UTF-16-BE or UTF-32-BE),
  so the result has the input's shape less its last dimension; a code point outside Unicode or a
  surrogate is refused, replaced or dropped as in decoding.
No op here has a gradient: TensorFlow registers none (the values are integers and strings).
"""
from __future__ import annotations

import codecs

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..array.basic import reshape
from ..array.basic import shape as _shape_of
from ..operands import as_tensor
from ..ragged.factories import from_row_splits
from ..ragged.uniform import partition_outer
from ..registry import NO_GRADIENT, Spec, bind, defop
from .elementwise import _check_choice

_ERRORS = ("strict", "replace", "ignore")
_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")


def _codec(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise InvalidArgumentError(None, None, f"Could not create converter for input encoding: {encoding}") from None


def _code_points(data: bytes, codec, errors, replacement_char, replace_control_characters):
    """(code points, byte offsets where each starts) of one string."""
    points, starts = [], []
    pos, end = 0, len(data)
    while pos < end:
        bad = None
        try:
            text = data[pos:].decode(codec)
        except UnicodeDecodeError as e:
            text = data[pos:pos + e.start].decode(codec)
            bad = (pos + e.start, pos + e.end)
        offset = pos
        for ch in text:
            cp = ord(ch)
            points.append(replacement_char if replace_control_characters and cp < 0x20 else cp)
            starts.append(offset)
            offset += len(ch.encode(codec))
        if bad is None:
            break
        if errors == "strict":
            raise InvalidArgumentError(None, None, "Invalid formatting on input string")
        if errors == "replace":
            points.append(replacement_char)
            starts.append(bad[0])
        pos = bad[1]
    return points, starts


def _decode_kernel(with_offsets):
    def kernel(input, input_encoding, errors="replace", replacement_char=0xFFFD,  # noqa: A002
               replace_control_characters=False):
        codec = _codec(input_encoding)
        splits, points, starts = [0], [], []
        for s in np.asarray(input, dtype=object).reshape(-1):
            data = s if isinstance(s, bytes) else str(s).encode("utf-8")
            p, o = _code_points(data, codec, errors, replacement_char, replace_control_characters)
            points += p
            starts += o
            splits.append(len(points))
        out = (np.array(splits, np.int64), np.array(points, np.int32))
        return out + (np.array(starts, np.int64),) if with_offsets else out
    return kernel


def _decode_infer(op_name, with_offsets):
    def infer(inputs, attrs):
        R.check_input_dtype(op_name, inputs, 0, _dt.string)
        _check_choice(op_name, "errors", attrs.get("errors", "replace"), _ERRORS)
        strings = inputs[0].shape
        count = strings.num_elements() if strings.rank is not None and strings.is_fully_defined() else None
        # one row split per string and one more: static when the number of strings is (TensorFlow's shape
        # function), so a ragged result keeps its known number of rows (a batch size downstream)
        specs = [Spec(TensorShape([None if count is None else count + 1]), _dt.int64),
                 Spec(TensorShape([None]), _dt.int32)]
        return specs + [Spec(TensorShape([None]), _dt.int64)] if with_offsets else specs
    return infer


UnicodeDecode = defop("UnicodeDecode", inputs=("input",), multi_output=True, kernel=_decode_kernel(False),
                      infer=_decode_infer("UnicodeDecode", False), grad=NO_GRADIENT,
                      doc="The code points of each string of a vector, as row splits and values.")
UnicodeDecodeWithOffsets = defop(
    "UnicodeDecodeWithOffsets", inputs=("input",), multi_output=True, kernel=_decode_kernel(True),
    infer=_decode_infer("UnicodeDecodeWithOffsets", True), grad=NO_GRADIENT,
    doc="UnicodeDecode, with the byte offset where each character starts.")


def _encode_kernel(input_values, input_splits, output_encoding, errors="replace", replacement_char=0xFFFD):
    codec = _codec(output_encoding)
    splits = [int(s) for s in input_splits]
    out = np.empty(max(len(splits) - 1, 0), dtype=object)
    for row in range(len(out)):
        chars = []
        for cp in input_values[splits[row]:splits[row + 1]]:
            cp = int(cp)
            if not 0 <= cp <= 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
                if errors == "strict":
                    raise InvalidArgumentError(None, None, "Code point is out of range for Unicode, or is a "
                                                           "surrogate.")
                if errors == "ignore":
                    continue
                cp = replacement_char
            chars.append(chr(cp))
        out[row] = "".join(chars).encode(codec)
    return out


def _encode_infer(inputs, attrs):
    R.check_input_dtype("UnicodeEncode", inputs, 0, _dt.int32)
    _check_choice("UnicodeEncode", "errors", attrs.get("errors", "replace"), _ERRORS)
    _check_choice("UnicodeEncode", "output_encoding", attrs["output_encoding"], _ENCODINGS)
    splits = inputs[1].shape
    rows = None if splits.rank is None or splits[0] is None else max(splits[0] - 1, 0)
    return [Spec(TensorShape([rows]), _dt.string)]


UnicodeEncode = defop("UnicodeEncode", inputs=("input_values", "input_splits"), kernel=_encode_kernel,
                      infer=_encode_infer, grad=NO_GRADIENT,
                      doc="One string per row of code points (rows given by splits).")


# --- public functions ------------------------------------------------------------------------------

def _decoded(op, input, input_encoding, errors, replacement_char, replace_control_characters, name):
    """The op's outputs, each regrouped as the strings were: a vector for a scalar string, else ragged."""
    source = as_tensor(input)
    rank = source.shape.rank
    if rank is None:
        raise ValueError("Rank of input must be known for unicode_decode.")
    vector = reshape(source, [-1]) if rank != 1 else source
    attrs = {"input_encoding": input_encoding, "errors": errors, "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    splits, *parts = bind(op, (vector,), attrs, name)
    if rank == 0:
        return parts
    rows = [from_row_splits(part, splits, validate=False) for part in parts]
    if rank == 1:
        return rows
    dims = source.shape.as_list()[1:]  # the rows regrouped by the leading dimensions, each a uniform level
    if any(d is None for d in dims):
        dynamic = _shape_of(source)
        dims = [d if d is not None else dynamic[i + 1] for i, d in enumerate(dims)]
    return [partition_outer(r, dims) for r in rows]


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """`tf.strings.unicode_decode`: each string's code points (int32), ragged in its last dimension."""
    return _decoded(UnicodeDecode, input, input_encoding, errors, replacement_char,
                    replace_control_characters, name)[0]


def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                                replace_control_characters=False, name=None):
    """`tf.strings.unicode_decode_with_offsets`: code points, and the byte offset each starts at."""
    points, offsets = _decoded(UnicodeDecodeWithOffsets, input, input_encoding, errors, replacement_char,
                               replace_control_characters, name)
    return points, offsets


def _flat_and_splits(input):
    """(int32 values, int64 innermost row splits, how to regroup the encoded rows) of a dense tensor
    of rank >= 1 or a RaggedTensor of code points."""
    from ...composite.ragged_tensor import RaggedTensor
    if isinstance(input, RaggedTensor):
        nested = input.nested_row_splits
        values = as_tensor(input.flat_values, _dt.int32)
        if len(nested) == 1:
            return values, nested[0], lambda strings: strings
        return values, nested[-1], lambda strings: RaggedTensor.from_nested_row_splits(strings, nested[:-1],
                                                                                        validate=False)
    x = as_tensor(input, _dt.int32)
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if not dims:
        raise ValueError("input_tensor's rank must be at least 1.")
    if any(d is None for d in dims):
        raise ValueError(f"unicode_encode needs a dense input of known shape; got {x.shape}")
    width = dims[-1]
    rows = int(np.prod(dims[:-1], dtype=np.int64))
    splits = as_tensor(np.arange(rows + 1, dtype=np.int64) * width)
    return reshape(x, [-1]), splits, lambda strings: reshape(strings, dims[:-1])


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """`tf.strings.unicode_encode`: each innermost row of code points as one string; the result has the
    input's shape less its last dimension."""
    values, splits, regroup = _flat_and_splits(input)
    attrs = {"output_encoding": output_encoding, "errors": errors, "replacement_char": int(replacement_char)}
    return regroup(bind(UnicodeEncode, (values, splits), attrs, name))


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """`tf.strings.unicode_split`: each string's characters, each re-encoded in `input_encoding`
    (a replaced malformed sequence becomes the replacement character's encoding)."""
    from ...composite.ragged_tensor import RaggedTensor
    from ..array.basic import size
    from ..array.sequences import range as _range
    points = unicode_decode(input, input_encoding, errors, replacement_char, name=name)
    flat = points.flat_values if isinstance(points, RaggedTensor) else points
    one_each = _range(0, size(flat, _dt.int64) + 1, dtype=_dt.int64)
    chars = bind(UnicodeEncode, (flat, one_each), {"output_encoding": _encode_name(input_encoding),
                                                   "errors": errors, "replacement_char": int(replacement_char)})
    return points.with_flat_values(chars) if isinstance(points, RaggedTensor) else chars


def _encode_name(encoding):
    """The output encoding UnicodeEncode knows for a decoding's input encoding (ICU accepts spellings
    such as "utf-8")."""
    name = _codec(encoding)
    return {"utf-8": "UTF-8", "utf-16-be": "UTF-16-BE", "utf-32-be": "UTF-32-BE"}.get(name, encoding)
