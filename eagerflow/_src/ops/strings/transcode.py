"""UnicodeTranscode (`tf.strings.unicode_transcode`): each string decoded from `input_encoding` and encoded
again in `output_encoding` (UTF-8, UTF-16-BE or UTF-32-BE), the input's shape. A malformed sequence is
refused ("strict"), becomes `replacement_char` ("replace") or is dropped ("ignore"), with unicode.py's
decoding rules (Python's codecs find the same malformed runs ICU does: one replacement per maximal
invalid subsequence); `replace_control_characters` replaces C0 controls too. A byte-order mark is kept
for UTF-8 and consumed by UTF-16/UTF-32 without an explicit byte order, as ICU's converters do."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .elementwise import _check_choice
from .unicode import _ENCODINGS, _ERRORS, _code_points, _codec


def _kernel(input, input_encoding, output_encoding, errors="replace", replacement_char=0xFFFD,  # noqa: A002
            replace_control_characters=False):
    if not 0 <= replacement_char <= 0x10FFFF or 0xD800 <= replacement_char <= 0xDFFF:
        raise InvalidArgumentError(None, None, "replacement_char out of unicode codepoint range")
    source, target = _codec(input_encoding), _codec(output_encoding)
    strings = np.asarray(input, dtype=object)
    out = np.empty(strings.shape, dtype=object)
    for index, item in np.ndenumerate(strings):
        data = item if isinstance(item, bytes) else str(item).encode("utf-8")
        points, _ = _code_points(data, source, errors, replacement_char, replace_control_characters)
        out[index] = "".join(map(chr, points)).encode(target)
    return out


def _infer(inputs, attrs):
    R.check_input_dtype("UnicodeTranscode", inputs, 0, _dt.string)
    _check_choice("UnicodeTranscode", "output_encoding", attrs["output_encoding"], _ENCODINGS)
    _check_choice("UnicodeTranscode", "errors", attrs.get("errors", "replace"), _ERRORS)
    return [Spec(inputs[0].shape, _dt.string)]


UnicodeTranscode = defop("UnicodeTranscode", inputs=("input",), kernel=_kernel, infer=_infer, grad=NO_GRADIENT,
                         doc="Each string re-encoded from one Unicode encoding into another.")


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                      replace_control_characters=False, name=None):
    """`tf.strings.unicode_transcode`: strings of the input's shape, in `output_encoding`."""
    attrs = {"input_encoding": str(input_encoding), "output_encoding": str(output_encoding), "errors": str(errors),
             "replacement_char": int(replacement_char), "replace_control_characters": bool(replace_control_characters)}
    return bind(UnicodeTranscode, (as_tensor(input, _dt.string),), attrs, name=name)
