"""Uniform row lengths: `tf.RaggedTensor.from_uniform_row_length` and the outer dimensions a RaggedTensor
gains when tf.strings.split (or `rt[tf.newaxis]`) partitions rows into equal groups.

A uniform level is an ordinary row_splits vector (0, L, 2L, ...) plus the scalar L, so every ragged op
reads it as it reads any level; the scalar makes the dimension static in `shape` (when L is known) and
lets an integer index it (ops/ragged/getitem.py). The argument checks are TensorFlow's, raised as
ValueError where the values are known while building, as TensorFlow's static checks do.
"""
from __future__ import annotations

from ...composite.ragged_tensor import RaggedTensor
from ...core import dtypes as _dt
from ..array import basic as _array
from ..math import elementwise as _math
from ..array import sequences as _sequences
from ..operands import as_tensor
from ..registry import static_value


def _nvals(values):
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=_dt.int64)
    return _array.shape(values, out_type=_dt.int64)[0]


def _length_tensor(uniform_row_length):
    length = as_tensor(uniform_row_length, _dt.int64)
    if length.dtype not in (_dt.int32, _dt.int64):
        raise ValueError("UniformRowLength must have dtype int32 or int64")
    if length.shape.rank is not None and length.shape.rank != 0:
        raise ValueError(f"Shape {length.shape} must have rank 0")
    return length if length.dtype is _dt.int64 else _math.cast(length, _dt.int64)


def _static_nvals(values):
    dims = values.shape.as_list() if values.shape.rank else [None]
    return dims[0]


def _check(length, nrows, nvals):
    """TensorFlow's static checks, where the numbers are known while building (ints or None)."""
    if length is not None and length < 0:
        raise ValueError("uniform_row_length must be >= 0.")
    if length is not None and nrows is not None and nvals is not None and length * nrows != nvals:
        raise ValueError(f"uniform_row_length={length} times nrows={nrows} must equal nvals={nvals}")


def _int_or_none(tensor):
    value = static_value(tensor)
    return None if value is None else int(value)


def from_uniform_row_length(values, uniform_row_length, nrows=None, validate=True):
    """Rows of `uniform_row_length` values each (nrows = nvals // length, or 0 for length 0)."""
    if not isinstance(values, RaggedTensor):
        values = as_tensor(values)
    length = _length_tensor(uniform_row_length)
    known_length, known_nvals = _int_or_none(length), _static_nvals(values)
    if nrows is None:
        if known_length is not None and known_nvals is not None:
            known_rows = 0 if known_length == 0 else known_nvals // known_length
            nrows = _array.constant(known_rows, _dt.int64)
        else:
            nvals = _nvals(values)
            zero = _array.constant(0, _dt.int64)
            safe = _math.maximum(length, _array.constant(1, _dt.int64))
            nrows = _array.where(_math.equal(length, zero), zero, _math.floordiv(nvals, safe))
    else:
        nrows = _math.cast(as_tensor(nrows, _dt.int64), _dt.int64)
    if validate:
        _check(known_length, _int_or_none(nrows), known_nvals)
    splits = _sequences.range(nrows + 1, dtype=_dt.int64) * length
    known_rows = _int_or_none(nrows)
    if known_rows is not None and splits.shape.as_list() != [known_rows + 1]:  # nrows stays static in `shape`
        splits = _array.reshape(splits, [known_rows + 1])
    return RaggedTensor(values, splits, _internal=True, uniform_row_length=length)


def partition_outer(rt, dims):
    """`rt` (its rows in row-major order) regrouped as the leading dimensions `dims` (ints):
    one uniform level per leading dimension, outermost first (tf.strings.split of a matrix)."""
    for size in reversed(list(dims)):
        rt = from_uniform_row_length(rt, size, validate=False)
    return rt
