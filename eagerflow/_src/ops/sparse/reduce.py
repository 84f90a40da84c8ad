"""Reductions of a SparseTensor: SparseReduceSum / SparseReduceMax (dense results) and their
*Sparse twins (SparseTensor results), and the sparse segment reductions (SparseSegmentSum, Mean,
SqrtN: rows of a dense tensor picked by `indices`, combined per sorted segment id).

TensorFlow's semantics: a sum counts absent entries as 0; a max reduces the present values only,
and a group with none gives 0.
"""
from __future__ import annotations

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from ..operands import as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop, static_value
from ..math.segments import unsorted_segment_sum
from ..array.slicing import gather, gather_nd
from .conversion import as_sparse, bad, linear


def _axes(axes, rank):
    out = []
    for a in np.asarray(axes).reshape(-1):
        a = int(a)
        if not -rank <= a < rank:
            raise bad(f"Invalid reduction dimension {a}, for input with {rank} dimensions.")
        out.append(a % rank)
    return sorted(set(out))


def _groups(indices, shape, axes_value, keep_dims):
    """(kept axes, output dense shape, each entry's output coordinates)."""
    shape = [int(d) for d in np.asarray(shape).reshape(-1)]
    axes = _axes(axes_value, len(shape))
    kept = [d for d in range(len(shape)) if d not in axes]
    out_shape = [1 if d in axes else shape[d] for d in range(len(shape))] if keep_dims else [shape[d] for d in kept]
    return kept, out_shape, np.asarray(indices, np.int64)[:, kept]


def _dense_reduce(combine, empty):
    def kernel(input_indices, input_values, input_shape, reduction_axes, keep_dims=False):
        kept, out_shape, coords = _groups(input_indices, input_shape, reduction_axes, keep_dims)
        kept_shape = [int(np.asarray(input_shape).reshape(-1)[d]) for d in kept]
        size = int(np.prod(kept_shape, dtype=np.int64))
        at = linear(coords, kept_shape)  # flat positions: also right when every axis is reduced
        out = np.full(size, empty(input_values.dtype), input_values.dtype)
        seen = np.zeros(size, bool)
        combine.at(out, at, input_values)
        seen[at] = True
        out[~seen] = 0
        return out.reshape(out_shape)
    return kernel


def _sparse_reduce(combine, empty):
    def kernel(input_indices, input_values, input_shape, reduction_axes, keep_dims=False):
        kept, out_shape, coords = _groups(input_indices, input_shape, reduction_axes, keep_dims)
        rows, group = np.unique(coords, axis=0, return_inverse=True)
        values = np.full(len(rows), empty(input_values.dtype), input_values.dtype)
        combine.at(values, group.reshape(-1), input_values)
        if keep_dims:
            full = np.zeros((len(rows), len(np.asarray(input_shape).reshape(-1))), np.int64)
            full[:, kept] = rows
            rows = full
        return rows.astype(np.int64), values, np.asarray(out_shape, np.int64)
    return kernel


def _static_axes(op_inputs, attrs):
    indices, values, shape, axes = op_inputs
    rank = shape.shape.as_list()[0] if shape.shape.rank == 1 else None
    value = static_value(axes)
    return rank, (None if value is None or rank is None else _axes(value, rank))


def _dense_infer(inputs, attrs):
    rank, axes = _static_axes(inputs, attrs)
    keep = attrs.get("keep_dims", False)
    if axes is None:
        return [Spec(TensorShape(None), inputs[1].dtype)]
    dims = [1 if d in axes else None for d in range(rank)] if keep else [None] * (rank - len(axes))
    return [Spec(TensorShape(dims), inputs[1].dtype)]


def _sparse_infer(inputs, attrs):
    rank, axes = _static_axes(inputs, attrs)
    out_rank = None if axes is None else (rank if attrs.get("keep_dims", False) else rank - len(axes))
    return [Spec(TensorShape([None, out_rank]), _dt.int64), Spec(TensorShape([None]), inputs[1].dtype),
            Spec(TensorShape([out_rank]), _dt.int64)]


def _reduce_sum_grad(op, g):
    """Each value's gradient is g at its group (TensorFlow's rule: g reshaped with the reduced
    axes kept as 1, gathered at the indices with those coordinates zeroed)."""
    indices, values, shape, axes = op.inputs
    rank, reduced = _static_axes(op.inputs, op.attrs)
    keep = _array.constant([0 if d in reduced else 1 for d in range(rank)], _dt.int64)
    kept_shape = shape * keep + (1 - keep)
    return None, gather_nd(_array.reshape(g, kept_shape), indices * keep), None, None


def _lowest(dtype):
    return -np.inf if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).min


SparseReduceSum = defop("SparseReduceSum", inputs=("input_indices", "input_values", "input_shape", "reduction_axes"),
                        kernel=_dense_reduce(np.add, lambda d: 0), infer=_dense_infer, grad=_reduce_sum_grad,
                        doc="The sum of a SparseTensor over axes, as a dense tensor.")
SparseReduceSumSparse = defop(
    "SparseReduceSumSparse", inputs=("input_indices", "input_values", "input_shape", "reduction_axes"),
    multi_output=True, kernel=_sparse_reduce(np.add, lambda d: 0), infer=_sparse_infer,
    grad=UNREGISTERED_GRADIENT,
    doc="The sum of a SparseTensor over axes, as a SparseTensor (TensorFlow registers no gradient).")
SparseReduceMax = defop("SparseReduceMax", inputs=("input_indices", "input_values", "input_shape", "reduction_axes"),
                        kernel=_dense_reduce(np.maximum, _lowest), infer=_dense_infer,
                        grad=UNREGISTERED_GRADIENT,
                        doc="The max of the present values over axes (0 where none), as a dense tensor.")
SparseReduceMaxSparse = defop(
    "SparseReduceMaxSparse", inputs=("input_indices", "input_values", "input_shape", "reduction_axes"),
    multi_output=True, kernel=_sparse_reduce(np.maximum, _lowest), infer=_sparse_infer,
    grad=UNREGISTERED_GRADIENT,
    doc="The max of the present values over axes, as a SparseTensor.")


def _reduce(dense_op, sparse_op, sp_input, axis, keepdims, output_is_sparse):
    sp = as_sparse(sp_input)
    rank = sp.shape.rank
    if axis is None:
        axis = list(range(rank)) if rank is not None else None
    if axis is None:
        raise ValueError("tf.sparse reductions over all axes need the rank of the SparseTensor to be known.")
    axes = _array.constant(np.asarray(axis, np.int32).reshape(-1), _dt.int32)
    attrs = {"keep_dims": bool(keepdims)}
    parts = (sp.indices, sp.values, sp.dense_shape, axes)
    if output_is_sparse:
        indices, values, shape = bind(sparse_op, parts, attrs)
        return SparseTensor._from_parts(indices, values, shape)
    return bind(dense_op, parts, attrs)


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """`tf.sparse.reduce_sum` (absent entries count as 0)."""
    return _reduce(SparseReduceSum, SparseReduceSumSparse, sp_input, axis, keepdims, output_is_sparse)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """`tf.sparse.reduce_max`: over the present values (absent entries are not 0 here)."""
    return _reduce(SparseReduceMax, SparseReduceMaxSparse, sp_input, axis, keepdims, output_is_sparse)


# --- SparseSegmentSum / Mean / SqrtN -----------------------------------------------------------

def _segment_kernel(scale):
    def kernel(data, indices, segment_ids, num_segments=None):
        indices, segment_ids = np.asarray(indices, np.int64), np.asarray(segment_ids, np.int64)
        if np.any(np.diff(segment_ids) < 0):
            raise bad("segment ids are not increasing")
        for i, ix in enumerate(indices):
            if not 0 <= ix < data.shape[0]:
                raise bad(f"Bad: indices[{i}] == {ix} out of range [0, {data.shape[0]})")
        n = int(num_segments) if num_segments is not None else (int(segment_ids[-1]) + 1 if len(segment_ids) else 0)
        out = np.zeros((n,) + data.shape[1:], data.dtype)
        np.add.at(out, segment_ids, data[indices])
        counts = np.bincount(segment_ids, minlength=n).astype(data.dtype)
        shape = (n,) + (1,) * (data.ndim - 1)
        return (out / np.maximum(scale(counts), 1).reshape(shape)).astype(data.dtype) if scale else out
    return kernel


def _segment_infer(inputs, attrs):
    data = inputs[0]
    n = None
    if len(inputs) == 4:
        value = static_value(inputs[3])
        n = None if value is None else int(value)
    dims = data.shape.as_list()[1:] if data.shape.rank is not None else None
    return [Spec(TensorShape(None if dims is None else [n] + dims), data.dtype)]


def _segment_grad(scale):
    """Each picked row gets its segment's gradient (divided as the forward divided), added up per
    data row: TensorFlow's SparseSegment*Grad, composed here from gather and segment sums."""
    def grad(op, g):
        data, indices, segment_ids = op.inputs[:3]
        rows = gather(g, segment_ids)
        if scale is not None:
            ones = _array.ones_like(_math.cast(segment_ids, g.dtype))
            counts = unsorted_segment_sum(ones, segment_ids, _array.shape(g)[0])
            factor = gather(_math.maximum(scale(counts), _array.ones_like(counts)), segment_ids)
            rows = rows / _array.reshape(factor, [-1] + [1] * (rows.shape.rank - 1))
        data_grad = unsorted_segment_sum(rows, indices, _array.shape(data)[0])
        return (data_grad, None, None) + ((None,) if len(op.inputs) == 4 else ())
    return grad


def _make_segment_ops(name, scale_np, scale_tf):
    plain = defop(f"SparseSegment{name}", inputs=("data", "indices", "segment_ids"),
                  kernel=_segment_kernel(scale_np), infer=_segment_infer, grad=_segment_grad(scale_tf),
                  doc=f"Segment {name.lower()} over rows of data picked by indices.")
    counted = defop(f"SparseSegment{name}WithNumSegments", inputs=("data", "indices", "segment_ids", "num_segments"),
                    kernel=_segment_kernel(scale_np), infer=_segment_infer, grad=_segment_grad(scale_tf),
                    doc=f"SparseSegment{name} with the number of segments given.")
    return plain, counted


SparseSegmentSum, SparseSegmentSumWithNumSegments = _make_segment_ops("Sum", None, None)
SparseSegmentMean, SparseSegmentMeanWithNumSegments = _make_segment_ops("Mean", lambda c: c, lambda c: c)
SparseSegmentSqrtN, SparseSegmentSqrtNWithNumSegments = _make_segment_ops("SqrtN", np.sqrt, _math.sqrt)


def _segment(ops, data, indices, segment_ids, num_segments):
    plain, counted = ops
    parts = (as_tensor(data), as_tensor(indices, _dt.int32), as_tensor(segment_ids, _dt.int32))
    if num_segments is None:
        return bind(plain, parts)
    return bind(counted, parts + (as_tensor(num_segments, _dt.int32),))


def segment_sum(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """`tf.sparse.segment_sum`: out[s] = sum of data[indices[i]] over i with segment_ids[i] == s."""
    return _segment((SparseSegmentSum, SparseSegmentSumWithNumSegments), data, indices, segment_ids, num_segments)


def segment_mean(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """`tf.sparse.segment_mean`: the sum divided by the segment's size (empty segments are 0)."""
    return _segment((SparseSegmentMean, SparseSegmentMeanWithNumSegments), data, indices, segment_ids, num_segments)


def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """`tf.sparse.segment_sqrt_n`: the sum divided by the square root of the segment's size."""
    return _segment((SparseSegmentSqrtN, SparseSegmentSqrtNWithNumSegments), data, indices, segment_ids,
                    num_segments)
