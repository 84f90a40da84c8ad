"""tf.reduce_sum / mean / max / min / prod of a RaggedTensor (ops/math/reduce.py hands a RaggedTensor here).

Over a ragged dimension the reduction is a segment reduction of the values: axis 1 (the rows) by each
value's row, axis 0 (down the columns) by each value's position in its row, so an empty row gives
the reduction's identity (0 for sum, the lowest value for max, NaN for a float mean), as in
TensorFlow. An axis past the ragged ones reduces the flat values; axis=None reduces every value. Over
axis 0 or 1 of a ragged_rank-2 tensor the values that share the two other coordinates reduce
together (a ragged result); deeper ragged ranks are not reduced over their outer axes yet.
"""
from __future__ import annotations

from ...composite.ragged_tensor import RaggedTensor
from ...core import dtypes as _dt
from ..array import basic as _array
from ..math import elementwise as _math
from ..array.joining import concat
from ..math.reduce import COMPOSITE_REDUCERS, cumsum, reduce_max, reduce_sum
from ..math.segment_extremes import unsorted_segment_max, unsorted_segment_min
from ..math.segment_products import unsorted_segment_prod
from ..math.segments import unsorted_segment_sum
from ..array.sequences import range as range_
from ..array.slicing import gather

_SEGMENT = {"Sum": unsorted_segment_sum, "Max": unsorted_segment_max, "Min": unsorted_segment_min,
            "Prod": unsorted_segment_prod}


def ragged_reduce(opname, dense_reduce, rt, axis, keepdims, separator=b""):
    """`dense_reduce` (the tf.reduce_* function) over `axis` of `rt`: one axis at a time, highest first
    (`separator`: tf.strings.reduce_join's, opname "Join")."""
    if axis is None:
        total = dense_reduce(rt.flat_values, None, False)
        return _array.reshape(total, [1] * rt.shape.rank) if keepdims and rt.shape.rank is not None else total
    axes = [axis] if isinstance(axis, int) else [int(a) for a in axis]
    rank = rt.shape.rank
    axes = sorted({a % rank if rank is not None else a for a in axes}, reverse=True)
    x = rt
    for a in axes:
        x = _reduce_axis(opname, dense_reduce, x, a, keepdims, separator)
    return x


def _reduce_axis(opname, dense_reduce, x, axis, keepdims, separator):
    if not isinstance(x, RaggedTensor):
        return dense_reduce(x, axis, keepdims)
    if axis >= 2:
        return x.with_values(_reduce_axis(opname, dense_reduce, x.values, axis - 1, keepdims, separator))
    if isinstance(x.values, RaggedTensor):
        if isinstance(x.values.values, RaggedTensor):
            raise NotImplementedError(f"eagerflow reduces axis {axis} of a RaggedTensor of ragged_rank 1 or 2 "
                                      f"only (this one has ragged_rank {x.ragged_rank})")
        return _reduce_rank2(opname, x, axis, keepdims, separator)
    splits = _math.cast(x.row_splits, _dt.int64)
    if axis == 1:
        segments, count = x.value_rowids(), x.nrows(out_type=_dt.int64)
    else:  # axis 0: each value's column
        nvals = _array.shape(x.values, out_type=_dt.int64)[0]
        segments = range_(nvals, dtype=_dt.int64) - gather(splits, x.value_rowids())
        count = _longest(splits[1:] - splits[:-1])
    out = _segment_reduce(opname, x.values, segments, count, separator)
    return _array.expand_dims(out, axis) if keepdims else out


def _reduce_rank2(opname, x, axis, keepdims, separator):
    """Axis 0 or 1 of a ragged_rank-2 RaggedTensor [I, J, K]: the values sharing the two other
    coordinates reduce together; the result is ragged [kept dimension, longest K]."""
    from .factories import value_coordinates
    splits = [_math.cast(s, _dt.int64) for s in x.nested_row_splits]
    flat = x.flat_values
    coords = value_coordinates(splits, _array.shape(flat, out_type=_dt.int64)[0])
    outer, inner = coords[:, 1 - axis], coords[:, 2]
    if axis == 1:
        nrows = x.nrows(out_type=_dt.int64)
    else:
        nrows = _longest(splits[0][1:] - splits[0][:-1])
    if keepdims:
        raise NotImplementedError("eagerflow: keepdims=True over axis 0 or 1 of a ragged_rank-2 RaggedTensor")
    lengths = _math.maximum(unsorted_segment_max(inner + 1, outer, nrows), _array.constant(0, _dt.int64))
    ends = cumsum(lengths)
    segments = gather(ends - lengths, outer) + inner
    out = _segment_reduce(opname, flat, segments, reduce_sum(lengths), separator)
    return RaggedTensor(out, _math.cast(concat([_array.zeros([1], _dt.int64), ends], axis=0), x.row_splits.dtype),
                        _internal=True)


def _longest(lengths):
    """The longest row (0 for no rows: the max of nothing is the dtype's lowest value)."""
    return reduce_max(concat([lengths, _array.zeros([1], _dt.int64)], axis=0))


def _segment_reduce(opname, values, segments, count, separator):
    if opname == "Join":
        from ..strings.segment_join import unsorted_segment_join
        return unsorted_segment_join(values, segments, count, separator)
    if opname in ("Any", "All"):  # as 0/1 ints: an empty row gives the lowest (Any: False) or highest (All: True)
        extreme = unsorted_segment_max if opname == "Any" else unsorted_segment_min
        return _math.greater(extreme(_math.cast(values, _dt.int32), segments, count), 0)
    if opname == "Mean":
        total = unsorted_segment_sum(values, segments, count)
        ones = _array.ones_like(values)
        return total / unsorted_segment_sum(ones, segments, count)
    segment = _SEGMENT.get(opname)
    if segment is None:
        raise NotImplementedError(f"eagerflow has no ragged reduction for {opname} yet")
    return segment(values, segments, count)


COMPOSITE_REDUCERS[RaggedTensor] = ragged_reduce
