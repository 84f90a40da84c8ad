"""UnsortedSegmentJoin (`tf.strings.unsorted_segment_join`): the strings of each segment joined in
input order, "" for an empty segment; and tf.strings.reduce_join of a RaggedTensor, which is this
op over the values' rows or columns (ops/ragged/reduce.py), as in TensorFlow.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value


def _text(value):
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def _kernel(inputs, segment_ids, num_segments, separator=b""):
    data = np.asarray(inputs, dtype=object)
    ids = np.asarray(segment_ids, np.int64)
    n = int(np.asarray(num_segments).reshape(()))
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        raise InvalidArgumentError(None, None, "segment_ids are not allowed to exceed num_segments or to have "
                                               "negative values.")
    inner = data.shape[ids.ndim:]
    rows = data.reshape((ids.size,) + inner)
    out = np.empty((n,) + inner, dtype=object)
    for index in np.ndindex(*inner) if inner else [()]:
        pieces = [[] for _ in range(n)]
        for row, segment in enumerate(ids.reshape(-1)):
            pieces[segment].append(_text(rows[(row,) + index]))
        for segment in range(n):
            out[(segment,) + index] = separator.join(pieces[segment])
    return out


def _infer(inputs, attrs):
    data, ids, num = inputs
    if data.dtype is not _dt.string:
        raise TypeError(f"Input 'inputs' of 'UnsortedSegmentJoin' Op has type {data.dtype.name} that does not "
                        "match expected type of string.")
    n = static_value(num)
    lead = None if n is None else int(np.asarray(n).reshape(()))
    if data.shape.rank is None or ids.shape.rank is None:
        return [Spec(TensorShape(None), _dt.string)]
    return [Spec(TensorShape([lead] + data.shape.as_list()[ids.shape.rank:]), _dt.string)]


UnsortedSegmentJoin = defop("UnsortedSegmentJoin", inputs=("inputs", "segment_ids", "num_segments"),
                            kernel=_kernel, infer=_infer, grad=NO_GRADIENT,
                            doc="Each segment's strings joined with `separator`, in input order.")


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """`tf.strings.unsorted_segment_join`."""
    sep = separator if isinstance(separator, bytes) else str(separator).encode("utf-8")
    ids = as_tensor(segment_ids, _dt.int32)
    return bind(UnsortedSegmentJoin, (as_tensor(inputs, _dt.string), ids, as_tensor(num_segments, _dt.int32)),
                {"separator": sep}, name=name)
