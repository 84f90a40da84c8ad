"""tf.concat and tf.stack of RaggedTensors (ops/array/joining.py hands a list holding one here).

axis 0 appends rows (values joined, each input's row_splits shifted past the ones before); axis 1
joins row i of every input into row i of the result: the values are gathered in the order
(row 0 of input 0, row 0 of input 1, ..., row 1 of input 0, ...), as TensorFlow lays them out; a
deeper axis keeps the (identical) partition and joins the values one axis up. A
dense input joins as the RaggedTensor of its rows. tf.stack is a concat of each input with a new
axis of length 1 there. Everything is gathers and cumsums, so it traces and differentiates.
"""
from __future__ import annotations

from ...composite.ragged_tensor import RaggedTensor
from ...core import dtypes as _dt
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from ..debugging.checks import assert_equal
from ..array.joining import COMPOSITE_JOINERS
from ..array.joining import concat as _dense_concat
from ..operands import as_tensor
from .getitem import gather_rows, ragged_getitem
from ..math.reduce import cumsum
from ..array.sequences import range as range_
from ..array.slicing import gather


def _as_ragged(x, ragged_rank):
    """A dense tensor's leading dimensions as `ragged_rank` ragged levels (rows of equal length)."""
    if isinstance(x, RaggedTensor):
        return x
    x = as_tensor(x)
    shape = _array.shape(x, out_type=_dt.int64)
    levels = []
    for level in range(ragged_rank):
        levels.append((_rows_above(shape, level), shape[level + 1]))
    flat = _array.reshape(x, _dense_concat([[-1], shape[ragged_rank + 1:]], axis=0))
    result = flat
    for nrows, length in reversed(levels):
        result = RaggedTensor(result, range_(nrows + 1, dtype=_dt.int64) * length, _internal=True)
    return result


def _rows_above(shape, level):
    """The number of rows at `level`: the product of the dimensions above it."""
    n = shape[0]
    for i in range(1, level + 1):
        n = n * shape[i]
    return n


def ragged_concat(values, axis):
    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    for v in ragged[1:]:  # TensorFlow's words for RaggedTensors of different ranks
        if v.shape.rank is not None and ragged[0].shape.rank is not None and v.shape.rank != ragged[0].shape.rank:
            raise ValueError(f"Shape {v.shape} must have rank {ragged[0].shape.rank}")
    ragged_rank = max(v.ragged_rank for v in ragged)
    parts = [_as_ragged(v, ragged_rank) for v in values]
    rank = parts[0].shape.rank
    axis = axis % rank if rank is not None and axis < 0 else axis
    if axis == 0:
        return _append_rows(parts)
    if axis == 1:
        return _join_rows(parts)
    return _join_inside_rows(parts, axis)


def _splits64(rt):
    return _math.cast(rt.row_splits, _dt.int64)


def _append_rows(parts):
    splits, offset = [], None
    for p in parts:
        s = _splits64(p)
        splits.append(s if offset is None else s[1:] + offset)
        offset = s[-1] if offset is None else offset + s[-1]
    values = [p.values for p in parts]
    joined = _append_rows(values) if isinstance(values[0], RaggedTensor) else _dense_concat(values, axis=0)
    return RaggedTensor(joined, _math.cast(_dense_concat(splits, axis=0), parts[0].row_splits.dtype),
                        _internal=True)


def _join_rows(parts):
    """Row i of the result: row i of each part, one after the other (the pieces interleaved)."""
    k = len(parts)
    for i in range(1, k):
        assert_equal(parts[0].nrows(out_type=_dt.int64), parts[i].nrows(out_type=_dt.int64),
                     message=f"Input tensors at index 0 (=x) and {i} (=y) have incompatible shapes.")
    starts, lengths, offset = [], [], None
    for p in parts:
        s = _splits64(p)
        starts.append(s[:-1] if offset is None else s[:-1] + offset)
        lengths.append(s[1:] - s[:-1])
        offset = s[-1] if offset is None else offset + s[-1]
    # pieces in row-major order: (row 0 of part 0, row 0 of part 1, ..., row 1 of part 0, ...)
    piece_starts = _array.reshape(_joining.stack(starts, axis=1), [-1])
    piece_lengths = _array.reshape(_joining.stack(lengths, axis=1), [-1])
    piece_splits = _dense_concat([_array.zeros([1], _dt.int64), cumsum(piece_lengths)], axis=0)
    from .factories import row_splits_to_segment_ids
    piece = row_splits_to_segment_ids(piece_splits)
    within = range_(piece_splits[-1], dtype=_dt.int64) - gather(piece_splits, piece)
    positions = gather(piece_starts, piece) + within
    values = [p.values for p in parts]
    joined = _append_rows(values) if isinstance(values[0], RaggedTensor) else _dense_concat(values, axis=0)
    picked = gather_rows(joined, positions) if isinstance(joined, RaggedTensor) else gather(joined, positions)
    row_splits = piece_splits[::k]
    return RaggedTensor(picked, _math.cast(row_splits, parts[0].row_splits.dtype), _internal=True)


def _join_inside_rows(parts, axis):
    """axis >= 2: the parts' rows line up one to one (TensorFlow checks their partitions are the
    same), and their values join along axis - 1."""
    for p in parts[1:]:
        assert_equal(_splits64(parts[0]), _splits64(p), message="Inputs must have identical ragged splits")
    values = [p.values for p in parts]
    joined = ragged_concat(values, axis - 1) if isinstance(values[0], RaggedTensor) else \
        _dense_concat(values, axis=axis - 1)
    return RaggedTensor(joined, parts[0].row_splits, _internal=True, uniform_row_length=parts[0].uniform_row_length)


def ragged_stack(values, axis):
    """tf.stack: each input given a new axis of length 1 at `axis`, then concatenated there."""
    key = (None,) if axis == 0 else (slice(None),) * axis + (None,)
    expanded = [ragged_getitem(v if isinstance(v, RaggedTensor) else _as_ragged(v, 1), key) for v in values]
    return ragged_concat(expanded, axis)


COMPOSITE_JOINERS[RaggedTensor] = (ragged_concat, ragged_stack)
