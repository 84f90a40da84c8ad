"""RaggedTensor <-> SparseTensor (`rt.to_sparse()`, `tf.RaggedTensor.from_sparse`), `rt.merge_dims`
and `tf.ragged.boolean_mask`.

All are compositions of ordinary ops over the row partitions (gathers, cumsums, reshapes), so they
trace, differentiate through their values and fail with TensorFlow's words: `from_sparse` checks
that the indices are right-ragged (each row's columns 0, 1, 2, ...) with an Assert op, as TensorFlow
does.
"""
from __future__ import annotations

from ...composite.ragged_tensor import RaggedTensor
from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ..array import basic as _array
from ..math import elementwise as _math
from ..debugging.checks import Assert
from ..array.joining import concat
from ..operands import as_tensor
from .factories import bounding_shape, from_row_lengths, segment_ids_to_row_splits, value_coordinates
from ..math.reduce import cumsum, reduce_all, reduce_any, reduce_prod, reduce_sum
from ..array.slicing import boolean_mask as _dense_boolean_mask
from ..array.slicing import gather
from .getitem import gather_rows


def _fully_ragged(rt):
    """(the row_splits of every level, the values as a vector): the flat values' inner (uniform)
    dimensions become uniform levels, so every value has one coordinate per dimension."""
    flat = rt.flat_values
    splits = [_math.cast(s, _dt.int64) for s in rt.nested_row_splits]
    rank = flat.shape.rank
    if rank is None:
        raise ValueError("to_sparse needs the flat values' rank")
    vector = _array.reshape(flat, [-1])
    dims = _array.shape(flat, out_type=_dt.int64)
    inner = []
    rows = dims[0]  # the rows of the level being added: the product of the dimensions above it
    for axis in range(1, rank):
        inner.append(_sequence_splits(rows, dims[axis]))
        rows = rows * dims[axis]
    return splits + inner, vector


def _sequence_splits(nrows, length):
    from ..array.sequences import range as range_
    return range_(nrows + 1, dtype=_dt.int64) * length


def to_sparse(rt):
    """`rt.to_sparse()`: the values at their coordinates, in a bounding_shape SparseTensor."""
    splits, values = _fully_ragged(rt)
    indices = value_coordinates(splits, _array.shape(values, out_type=_dt.int64)[0])
    return SparseTensor._from_parts(indices, values, bounding_shape(rt))


def from_sparse(st_input, row_splits_dtype=_dt.int64):
    """`tf.RaggedTensor.from_sparse`: the rows of a right-ragged rank-2 SparseTensor."""
    if not isinstance(st_input, SparseTensor):
        raise TypeError("Argument `st_input` must be of type SparseTensor, but is of type "
                        f"{type(st_input).__name__}.")
    rank = st_input.shape.rank
    if rank is not None and rank != 2:
        raise ValueError("rank(st_input) must be 2.")
    indices = st_input.indices
    _assert_right_ragged(indices)
    splits = segment_ids_to_row_splits(indices[:, 0], st_input.dense_shape[0],
                                       out_type=_dt.as_dtype(row_splits_dtype))
    return RaggedTensor(st_input.values, splits, _internal=True)


def _assert_right_ragged(indices):
    """Each row's columns run 0, 1, 2, ... in order (TensorFlow's check and message)."""
    prefix, suffix = indices[:, :-1], indices[:, -1]
    new_row = reduce_any(_math.not_equal(prefix[1:], prefix[:-1]), axis=1)
    ok = _array.where(new_row, _math.equal(suffix[1:], 0), _math.equal(suffix[1:], suffix[:-1] + 1))
    first_ok = reduce_all(_math.equal(suffix[:1], 0))
    Assert(_math.logical_and(first_ok, reduce_all(ok)),
           ["SparseTensor is not right-ragged", "SparseTensor.indices =", indices])


# --- merge_dims --------------------------------------------------------------------------------

def merge_dims(rt, outer_axis, inner_axis):
    """`rt.merge_dims(outer_axis, inner_axis)`: dimensions outer..inner as one (a Tensor when the
    outer dimension is merged with every ragged one)."""
    rank = rt.shape.rank
    if rank is not None:
        if not -rank <= inner_axis < rank:
            raise ValueError(f"inner_axis={inner_axis} out of bounds: expected {-rank}<=inner_axis<{rank}")
        if not -rank <= outer_axis < rank:
            raise ValueError(f"outer_axis={outer_axis} out of bounds: expected {-rank}<=outer_axis<{rank}")
        outer_axis, inner_axis = outer_axis % rank, inner_axis % rank
    if outer_axis > inner_axis:
        raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to inner_axis "
                         f"({inner_axis}).")
    return _merge(rt, outer_axis, inner_axis)


def _merge(x, outer, inner):
    if outer == inner:
        return x
    if not isinstance(x, RaggedTensor):
        shape = _array.shape(x, out_type=_dt.int64)
        merged = reduce_prod(shape[outer:inner + 1], keepdims=True)
        return _array.reshape(x, concat([shape[:outer], merged, shape[inner + 1:]], axis=0))
    if outer == 0:  # x's dimensions 0 and 1 are its values' dimension 0
        return _merge(x.values, 0, inner - 1)
    if outer > 1:  # inside each value: the partition stays
        return x.with_values(_merge(x.values, outer - 1, inner - 1))
    splits = _splits_down(x.values, _math.cast(x.row_splits, _dt.int64), inner - 1)
    return RaggedTensor(_merge(x.values, 0, inner - 1), _math.cast(splits, x.row_splits.dtype), _internal=True)


def _splits_down(values, splits, levels):
    """`splits` (over the rows of `values`) carried down `levels` dimensions."""
    for _ in range(levels):
        if isinstance(values, RaggedTensor):
            splits = gather(_math.cast(values.row_splits, _dt.int64), splits)
            values = values.values
        else:
            width = reduce_prod(_array.shape(values, out_type=_dt.int64)[1:2])
            splits = splits * width
            values = _array.reshape(values, concat([[-1], _array.shape(values, out_type=_dt.int64)[2:]], 0))
    return splits


# --- boolean_mask -------------------------------------------------------------------------------

def boolean_mask(data, mask, name=None):
    """`tf.ragged.boolean_mask`: the values (or rows) of `data` where `mask` is true; a 2-D dense
    pair gives a RaggedTensor of the kept values per row, as TensorFlow returns it."""
    if isinstance(mask, RaggedTensor):
        if not isinstance(data, RaggedTensor):
            raise ValueError("mask is ragged but data is not")
        kept = _math.cast(mask.values, _dt.int64)
        ends = concat([_array.zeros([1], _dt.int64), cumsum(kept)], axis=0)
        splits = gather(ends, _math.cast(mask.row_splits, _dt.int64))
        values = boolean_mask(data.values, mask.values)
        return RaggedTensor(values, _math.cast(splits, data.row_splits.dtype), _internal=True)
    mask = as_tensor(mask, _dt.bool_)
    if mask.shape.rank == 1:
        if isinstance(data, RaggedTensor):
            return gather_rows(data, _math.cast(_array.where(mask)[:, 0], _dt.int64), dense_gradient=True)
        return _dense_boolean_mask(as_tensor(data), mask)
    if mask.shape.rank == 2 and not isinstance(data, RaggedTensor):
        data = as_tensor(data)
        lengths = reduce_sum(_math.cast(mask, _dt.int64), axis=1)
        return from_row_lengths(_dense_boolean_mask(data, mask), lengths, validate=False)
    raise ValueError(f"tf.ragged.boolean_mask: a mask of rank {mask.shape.rank} for this data is not supported "
                     "by eagerflow yet (masks of rank 1, ragged masks, and 2-D masks of dense data are)")
