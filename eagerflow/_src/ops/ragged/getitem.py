"""`RaggedTensor.__getitem__`, as TensorFlow indexes a RaggedTensor.

The outer dimension takes an integer (one row: a Tensor, or a RaggedTensor for ragged_rank > 1) or a
slice with any step; a ragged dimension takes slices only (each row sliced as Python slices a list),
and "Cannot index into an inner ragged dimension." for an integer; a uniform dimension (the flat
values' inner dimensions, or a uniform row length) takes integers too. `...` and tf.newaxis work as
in TensorFlow. Everything is built from ordinary ops (strided slices of the row_splits, gathers), so
it traces and the bad keys fail with the same errors eagerly and inside a tf.function; only the
eager "Row key N out of bounds" IndexError is eager-only, as in TensorFlow (it lets `for row in rt`
stop).
"""
from __future__ import annotations

import numbers

from ...composite.ragged_tensor import RaggedTensor
from ...core import dtypes as _dt
from ...core.context import executing_eagerly
from ...core.errors import InvalidArgumentError
from ...core.tensor import Tensor
from ..array import basic as _array
from ..math import elementwise as _math
from ..array import sequences as _sequences
from ..array.joining import concat
from ..operands import as_tensor
from .uniform import from_uniform_row_length
from ..registry import static_value
from ..math.reduce import cumsum
from ..array.slicing import gather


def _valid_index(k):
    if isinstance(k, Tensor):
        return k.dtype in (_dt.int32, _dt.int64) and k.shape.rank == 0
    return k is None or k is Ellipsis or isinstance(k, (numbers.Integral, slice))


def _normalize(key, rank):
    keys = tuple(key) if isinstance(key, (tuple, list)) else (key,)
    for k in keys:
        if not _valid_index(k):
            raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                            f"tf.int32/tf.int64 tensors are valid indices, got {k!r}")
    ellipses = [i for i, k in enumerate(keys) if k is Ellipsis]
    if ellipses:  # the first one stands for the dimensions no key names; TensorFlow ignores any others
        i = ellipses[0]
        keys = keys[:i] + tuple(k for k in keys[i:] if k is not Ellipsis)
        real = sum(1 for k in keys if k is not None)
        keys = keys[:i] + (slice(None),) * max(rank - real, 0) + keys[i:]
    return keys


def ragged_getitem(rt, key):
    return _outer(rt, _normalize(key, rt.shape.rank))


def _any(x, keys):
    """`keys` applied to a row (a Tensor or a RaggedTensor)."""
    if not keys:
        return x
    return _outer(x, keys) if isinstance(x, RaggedTensor) else x[keys]


def _row_starts(rt):
    return rt.row_splits[:-1], rt.row_splits[1:]


def _outer(rt, keys):
    if not keys:
        return rt
    k, rest = keys[0], keys[1:]
    if k is None:
        return _expand_outer(_outer(rt, rest))
    if isinstance(k, slice):
        return _inner(_slice_rows(rt, k), rest)
    starts, limits = _row_starts(rt)
    nrows = rt.shape.as_list()[0] if rt.shape.rank else None
    eager = rt._is_eager() and executing_eagerly()
    if eager and isinstance(k, numbers.Integral) and nrows is not None and k >= nrows:
        raise IndexError(f"Row key {k} out of bounds")
    return _any(_row_range(rt.values, starts[k], limits[k]), rest)


def _expand_outer(x):
    if isinstance(x, RaggedTensor):
        return from_uniform_row_length(x, _nrows(x), nrows=1, validate=False)
    return _array.expand_dims(x, 0)


def _row_range(x, start, limit):
    """Rows start..limit of `x` (a Tensor's rows, or a RaggedTensor's rows with their values)."""
    if not isinstance(x, RaggedTensor):
        return x[start:limit]
    splits = x.row_splits[start:limit + 1]
    first = splits[0]
    inner = _row_range(x.values, first, splits[-1])
    return RaggedTensor(inner, splits - first, _internal=True, uniform_row_length=x.uniform_row_length)


def gather_rows(rt, rows, dense_gradient=False):
    """The rows `rows` (an int64 vector) of `rt`, in that order. `dense_gradient`: the values'
    gradient is a tensor, not the gather's IndexedSlices (TensorFlow's RaggedGather op gives a dense
    one, where its slicing gathers the values plainly)."""
    splits = _math.cast(rt.row_splits, _dt.int64)
    lengths = gather(splits[1:] - splits[:-1], rows)
    starts = gather(splits[:-1], rows)
    new_splits = concat([_array.zeros([1], _dt.int64), cumsum(lengths)], axis=0)
    idx = _value_positions(new_splits, starts, 1)
    source = _array.reshape(rt.values, _array.shape(rt.values)) if dense_gradient and not isinstance(
        rt.values, RaggedTensor) else rt.values  # Reshape's gradient rule takes the rows dense
    values = gather_rows(source, idx, True) if isinstance(source, RaggedTensor) and dense_gradient else \
        _gather_any(source, idx)
    return RaggedTensor(values, _math.cast(new_splits, rt.row_splits.dtype), _internal=True,
                        uniform_row_length=rt.uniform_row_length)


def _gather_any(x, idx):
    return gather_rows(x, idx) if isinstance(x, RaggedTensor) else gather(x, idx)


def _value_positions(new_splits, firsts, step):
    """For rows of lengths diff(new_splits): row r's j-th value comes from firsts[r] + j * step."""
    total = new_splits[-1]
    positions = _sequences.range(total, dtype=_dt.int64)
    from .factories import row_splits_to_segment_ids
    row = row_splits_to_segment_ids(new_splits)
    j = positions - gather(new_splits, row)
    return gather(firsts, row) + j * step


def _slice_rows(rt, k):
    """The outer dimension sliced: a strided slice of the row numbers (TensorFlow's errors for a bad
    slice, e.g. a zero step), then those rows gathered."""
    if k == slice(None):
        return rt
    return gather_rows(rt, _sequences.range(_nrows(rt), dtype=_dt.int64)[k])


def _nrows(rt):
    """The number of rows: a Python int where the static shape knows it (so a bad slice of the row
    numbers fails while tracing, as TensorFlow's does), else a tensor."""
    n = rt.shape.as_list()[0] if rt.shape.rank else None
    return rt.nrows(out_type=_dt.int64) if n is None else n


def _inner(rt, keys):
    """`keys` applied to dimensions 1.. of `rt` (each row of rt in turn)."""
    if not keys:
        return rt
    k, rest = keys[0], keys[1:]
    if k is None:
        inner = _inner(rt, rest)
        return from_uniform_row_length(inner, 1, nrows=_nrows(inner), validate=False)
    if not isinstance(k, slice):
        if rt.uniform_row_length is None:
            raise ValueError("Cannot index into an inner ragged dimension.")
        return _index_uniform(rt, k, rest)
    if k == slice(None):
        return rt.with_values(_in_values(rt.values, rest))
    return _slice_each_row(rt, k, rest)


def _in_values(values, rest):
    """`rest` applied past the first dimension of `values` (the rows' elements)."""
    if not rest:
        return values
    if isinstance(values, RaggedTensor):
        return _inner(values, rest)
    return values[(slice(None),) + tuple(rest)]


def _index_uniform(rt, k, rest):
    """An integer on a uniform dimension: element k of every row (negative k counts from the end)."""
    length = _math.cast(rt.uniform_row_length, _dt.int64)
    k = as_tensor(k, _dt.int64) if not isinstance(k, Tensor) else _math.cast(k, _dt.int64)
    where = _array.where(k < 0, k + length, k)
    starts = _math.cast(rt.row_splits[:-1], _dt.int64)
    picked = _gather_any(rt.values, starts + where)
    return _in_values_dropped(picked, rest)


def _in_values_dropped(picked, rest):
    if not rest:
        return picked
    if isinstance(picked, RaggedTensor):
        return _inner(picked, rest)
    return picked[(slice(None),) + tuple(rest)]


def _bound(value, default, lengths, low, high):
    """A slice bound as Python reads it for a row of `lengths`: negatives count from the end,
    then clipped to [low, lengths + high]."""
    if value is None:
        return default
    v = _math.cast(as_tensor(value, _dt.int64), _dt.int64)
    v = _array.where(v < 0, v + lengths, v) + _array.zeros_like(lengths)
    return _math.minimum(_math.maximum(v, low), lengths + high)


def _slice_each_row(rt, k, rest):
    """A slice of a ragged (or uniform) dimension: every row sliced as a Python list is."""
    step = 1 if k.step is None else static_value(as_tensor(k.step))
    if step is None:
        raise ValueError("The step of a slice of a ragged dimension must be known while building.")
    step = int(step)
    if step == 0:  # TensorFlow's RaggedRange refuses the zero step with these words
        raise InvalidArgumentError(None, None, "Requires delta != 0")
    splits = _math.cast(rt.row_splits, _dt.int64)
    lengths = splits[1:] - splits[:-1]
    zero = _array.zeros_like(lengths)
    if step > 0:
        start = _bound(k.start, zero, lengths, zero, 0)
        stop = _bound(k.stop, lengths, lengths, zero, 0)
        count = (stop - start + (step - 1)) // step
    else:
        minus_one = zero - 1
        start = _bound(k.start, lengths - 1, lengths, minus_one, -1)
        stop = _bound(k.stop, minus_one, lengths, minus_one, -1)
        count = (start - stop + (-step - 1)) // (-step)
    count = _math.maximum(count, zero)
    new_splits = concat([_array.zeros([1], _dt.int64), cumsum(count)], axis=0)
    idx = _value_positions(new_splits, splits[:-1] + start, step)
    values = _in_values(_gather_any(rt.values, idx), rest)
    uniform = _sliced_uniform_length(rt, k)
    return RaggedTensor(values, _math.cast(new_splits, rt.row_splits.dtype), _internal=True,
                        uniform_row_length=uniform)


def _sliced_uniform_length(rt, k):
    """A uniform dimension stays uniform when sliced (its new length where it is known)."""
    if rt.uniform_row_length is None:
        return None
    length = static_value(rt.uniform_row_length)
    if length is None:
        return None
    parts = [None if p is None else static_value(as_tensor(p)) for p in (k.start, k.stop, k.step)]
    if any(p is None for p, raw in zip(parts, (k.start, k.stop, k.step)) if raw is not None):
        return None
    n = len(range(*slice(*[None if p is None else int(p) for p in parts]).indices(int(length))))
    return _array.constant(n, _dt.int64)
