"""Segment maxima and minima: `tf.math.segment_max`/`segment_min` (sorted ids) and
`unsorted_segment_max`/`unsorted_segment_min`. Kept beside ops/math/segments.py (the sums).

An empty sorted segment is 0; an empty unsorted segment is the dtype's lowest (max) or highest (min)
value, as TensorFlow's kernels give. The gradient goes to the elements equal to their segment's
extreme, split evenly between ties (TensorFlow's rule).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..registry import defop
from .segments import (_check_ids_dtype, _gather_drop_negatives, _segment_sum_infer, _segment_sum_kernel,
                       _unsorted_infer, _unsorted_kernel, sorted_segment_function, unsorted_segment_function)
from ..array import basic as _array
from . import elementwise as _math
from . import segments as _segments
from ..array import slicing as _slicing
from .segments import jax_unsorted_segments


def _extreme_identity(dtype, is_max):
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return info.min if is_max else info.max


def _reduce_at(ufunc, data, ids, rows, fill):
    out = np.full((rows,) + data.shape[1:], fill, dtype=data.dtype)
    ufunc.at(out, ids, data)
    return out


def _sorted_kernel(is_max):
    def kernel(data, segment_ids):
        _segment_sum_kernel(data, segment_ids)  # TensorFlow's checks of the ids (sorted, in range, length)
        ids = np.asarray(segment_ids)
        rows = int(ids[-1]) + 1 if ids.size else 0
        fill = _extreme_identity(data.dtype, is_max)
        out = _reduce_at(np.maximum if is_max else np.minimum, data, ids, rows, fill)
        empty = np.ones(rows, bool)
        empty[ids] = False
        out[empty] = 0  # a segment no row falls into is 0 in the sorted form
        return out
    return kernel


def _unsorted_extreme_kernel(is_max):
    def kernel(data, segment_ids, num_segments):
        _unsorted_kernel(data, segment_ids, num_segments)  # the ids' checks
        ids = np.asarray(segment_ids).reshape(-1)
        flat = data.reshape((-1,) + data.shape[np.ndim(segment_ids):])
        keep = ids >= 0
        fill = _extreme_identity(data.dtype, is_max)
        return _reduce_at(np.maximum if is_max else np.minimum, flat[keep], ids[keep], int(num_segments), fill)
    return kernel


def _sorted_rule(name):
    def infer(inputs, attrs):
        R.check_dtype_in(name, inputs[0].dtype, R.REAL_NUMBERS, "data")
        _check_ids_dtype(name, inputs[1])
        return _segment_sum_infer(inputs, attrs)
    return infer


def _unsorted_rule(name):
    def infer(inputs, attrs):
        R.check_dtype_in(name, inputs[0].dtype, R.REAL_NUMBERS, "data")
        return _unsorted_infer(inputs, attrs)
    return infer


def _sorted_grad(op, g):
    data, ids = op.inputs
    selected = _math.equal(data, _slicing.gather(op.outputs[0], ids))
    counts = _segments.segment_sum(_math.cast(selected, g.dtype), ids)
    share = _slicing.gather(g / _math.maximum(counts, _array.ones_like(counts)), ids)
    return _array.where(selected, share, _array.zeros_like(data)), None


def _unsorted_grad(op, g):
    data, ids, num = op.inputs
    rank = data.shape.rank
    selected = _math.equal(data, _gather_drop_negatives(op.outputs[0], ids, rank))
    dropped = _gather_drop_negatives(_array.ones_like(op.outputs[0]), ids, rank)
    selected = _math.logical_and(selected, _math.cast(dropped, _dt.bool_))
    counts = _segments.unsorted_segment_sum(_math.cast(selected, g.dtype), ids, num)
    share = _gather_drop_negatives(g / _math.maximum(counts, _array.ones_like(counts)), ids, rank)
    return _array.where(selected, share, _array.zeros_like(data)), None, None


SegmentMax = defop("SegmentMax", inputs=("data", "segment_ids"), kernel=_sorted_kernel(True),
                   infer=_sorted_rule("SegmentMax"), grad=_sorted_grad)
SegmentMin = defop("SegmentMin", inputs=("data", "segment_ids"), kernel=_sorted_kernel(False),
                   infer=_sorted_rule("SegmentMin"), grad=_sorted_grad)
UnsortedSegmentMax = defop("UnsortedSegmentMax", inputs=("data", "segment_ids", "num_segments"),
                           kernel=_unsorted_extreme_kernel(True), infer=_unsorted_rule("UnsortedSegmentMax"),
                           grad=_unsorted_grad)
UnsortedSegmentMin = defop("UnsortedSegmentMin", inputs=("data", "segment_ids", "num_segments"),
                           kernel=_unsorted_extreme_kernel(False), infer=_unsorted_rule("UnsortedSegmentMin"),
                           grad=_unsorted_grad)


segment_max = sorted_segment_function(SegmentMax, "segment_max",
                                      "`tf.math.segment_max`: per sorted segment id, the max of its rows.")
segment_min = sorted_segment_function(SegmentMin, "segment_min",
                                      "`tf.math.segment_min`: per sorted segment id, the min of its rows.")
unsorted_segment_max = unsorted_segment_function(
    UnsortedSegmentMax, "unsorted_segment_max",
    "`tf.math.unsorted_segment_max`: into `num_segments` rows; negative ids are dropped.")
unsorted_segment_min = unsorted_segment_function(
    UnsortedSegmentMin, "unsorted_segment_min",
    "`tf.math.unsorted_segment_min`: into `num_segments` rows; negative ids are dropped.")


# --- JAX lowerings (jit_compile=True, codegen/xla.py): see ops/math/segments.py ---

# An empty segment holds the dtype's lowest (highest) finite value, as the kernels (TensorFlow) give.
UnsortedSegmentMax.jax = jax_unsorted_segments("segment_max", lambda dtype: _extreme_identity(dtype, True))
UnsortedSegmentMin.jax = jax_unsorted_segments("segment_min", lambda dtype: _extreme_identity(dtype, False))
