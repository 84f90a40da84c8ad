"""StringSplit (TensorFlow's first split op, `tf.compat.v1.string_split`'s) and `tf.strings.bytes_split`, which
is StringSplit with an empty delimiter: every string cut into its single bytes (a UTF-8 character of several
bytes gives several pieces). Each character of `delimiter` is a delimiter; `skip_empty` drops empty pieces (an
empty string has none either way).
The pieces come back as split.py regroups them: a vector for a scalar string, one ragged row per string.
"""
from __future__ import annotations

import numpy as np

from ...composite.ragged_tensor import RaggedTensor
from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..array.basic import reshape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .split import regroup


def _pieces(text: bytes, delimiter: bytes, skip_empty: bool):
    if not text:  # no pieces at all, even keeping empty ones (TensorFlow 2.21)
        return []
    if not delimiter:
        return [text[i:i + 1] for i in range(len(text))]
    pieces, start = [], 0
    for at, byte in enumerate(text):
        if byte in delimiter:
            pieces.append(text[start:at])
            start = at + 1
    pieces.append(text[start:])
    return [p for p in pieces if p] if skip_empty else pieces


def _kernel(input, delimiter, skip_empty=True):  # noqa: A002 - TensorFlow's name
    if np.ndim(input) != 1:
        shown = ",".join(map(str, np.shape(input)))
        raise InvalidArgumentError(None, None, f"input must be a vector, got shape: [{shown}]")
    sep = np.asarray(delimiter, dtype=object).item()
    sep = sep if isinstance(sep, bytes) else str(sep).encode("utf-8")
    indices, values = [], []
    for row, item in enumerate(np.asarray(input, dtype=object)):
        text = item if isinstance(item, bytes) else str(item).encode("utf-8")
        for column, piece in enumerate(_pieces(text, sep, skip_empty)):
            indices.append((row, column))
            values.append(piece)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    longest = max((c + 1 for _, c in indices), default=0)
    return np.array(indices, np.int64).reshape(-1, 2), out, np.array([len(input), longest], np.int64)


def _infer(inputs, attrs):
    R.check_input_dtype("StringSplit", inputs, 0, _dt.string)
    R.check_input_dtype("StringSplit", inputs, 1, _dt.string)
    return [Spec(TensorShape([None, 2]), _dt.int64), Spec(TensorShape([None]), _dt.string),
            Spec(TensorShape([2]), _dt.int64)]


StringSplit = defop("StringSplit", inputs=("input", "delimiter"), multi_output=True, kernel=_kernel, infer=_infer,
                    grad=NO_GRADIENT, doc="The pieces of each string of a vector between delimiter characters.")


def bytes_split(input, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.strings.bytes_split`: each string's bytes, one string each (a RaggedTensor in the strings' last
    dimension; a vector for a scalar string; a RaggedTensor of strings splits its flat values)."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(bytes_split(input.flat_values))
    if isinstance(input, Tensor) and input.dtype is not _dt.string:
        raise ValueError(f"Tensor conversion requested dtype string for Tensor with dtype {input.dtype.name}: "
                         f"{input!r}")
    source = as_tensor(input, _dt.string)
    if source.dtype is not _dt.string:
        raise ValueError(f"Tensor conversion requested dtype string for Tensor with dtype {source.dtype.name}: "
                         f"{source!r}")
    if source.shape.rank is None:
        raise ValueError("input must have a statically-known rank.")
    vector = source if source.shape.rank == 1 else reshape(source, [-1])
    indices, values, shape = bind(StringSplit, (vector, as_tensor("", _dt.string)), {"skip_empty": False},
                                  name=name)
    return regroup(source, indices, values, shape)
