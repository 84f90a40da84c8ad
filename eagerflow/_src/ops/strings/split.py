"""StringSplitV2 (`tf.strings.split`): each string cut at `sep` (runs of whitespace when sep is
empty), at most `maxsplit` times; the pieces come back as a RaggedTensor (one row per string), or
as a vector for a scalar input, as TensorFlow returns them; a matrix (or deeper) of strings gives one
uniform level per leading dimension (shape [d0, d1, ..., None]).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..array.basic import reshape
from ..operands import as_tensor
from ..array.basic import shape as _shape_of
from ..ragged.factories import from_value_rowids
from ..ragged.uniform import partition_outer
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop


def _text(value):
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def _split_kernel(input, sep, maxsplit=-1):
    sep = _text(np.asarray(sep, dtype=object).item())
    rows = np.asarray(input, dtype=object).reshape(-1)
    indices, values = [], []
    for r, s in enumerate(rows):
        s = _text(s)
        parts = s.split(None, maxsplit) if not sep else s.split(sep, maxsplit)
        for c, piece in enumerate(parts):
            indices.append((r, c))
            values.append(piece)
    longest = max((c + 1 for _, c in indices), default=0)
    out_values = np.empty(len(values), dtype=object)
    out_values[:] = values
    return (np.array(indices, np.int64).reshape(-1, 2), out_values,
            np.array([len(rows), longest], np.int64))


def _split_infer(inputs, attrs):
    source = inputs[0]
    if source.dtype is not _dt.string:
        raise TypeError(f"Input 'input' of 'StringSplitV2' Op has type {source.dtype.name} that does not match "
                        "expected type of string.")
    return [Spec(TensorShape([None, 2]), _dt.int64), Spec(TensorShape([None]), _dt.string),
            Spec(TensorShape([2]), _dt.int64)]


StringSplitV2 = defop("StringSplitV2", inputs=("input", "sep"), multi_output=True, kernel=_split_kernel,
                      infer=_split_infer, grad=UNREGISTERED_GRADIENT,
                      doc="The pieces of each string of a vector, as a SparseTensor's parts.")


def split(input=None, sep=None, maxsplit=-1, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.strings.split`: a RaggedTensor of pieces per string (a vector for a scalar string)."""
    if isinstance(input, Tensor) and input.dtype is not _dt.string:  # TensorFlow's conversion refuses it
        raise ValueError(f"input: Tensor conversion requested dtype string for Tensor with dtype "
                         f"{input.dtype.name}: {input!r}")
    source = as_tensor(input, _dt.string)
    rank = source.shape.rank
    if rank is None:
        raise ValueError("Rank of input must be known for tf.strings.split.")
    vector = source if rank == 1 else reshape(source, [-1])
    indices, values, shape = bind(StringSplitV2, (vector, as_tensor(sep or "", _dt.string)),
                                  {"maxsplit": int(maxsplit)})
    return regroup(source, indices, values, shape)


def regroup(source, indices, values, shape):
    """The pieces of the strings of `source` (flattened to a vector, split into a SparseTensor's parts) as
    TensorFlow returns them: a vector for a scalar string, else a RaggedTensor with one row per string."""
    rank = source.shape.rank
    if rank == 0:
        return values
    pieces = from_value_rowids(values, indices[:, 0], nrows=shape[0], validate=False)
    if rank == 1:
        return pieces
    # A matrix (or deeper) of strings: the rows regrouped by the leading dimensions, each a uniform level.
    dims = source.shape.as_list()[1:]
    if any(d is None for d in dims):
        dynamic = _shape_of(source)
        dims = [d if d is not None else dynamic[i + 1] for i, d in enumerate(dims)]
    return partition_outer(pieces, dims)
