"""Segment products: `tf.math.segment_prod` (sorted ids) and `unsorted_segment_prod`, plus
`unsorted_segment_sqrt_n` composed from sums. An empty segment's product is 1.

The product's gradient is the product of the other elements of the segment, computed without
dividing by zero (TensorFlow's rule): with one zero in a segment only that zero gets a gradient (the
product of the non-zeros); with two or more zeros nothing does.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import defop
from .segments import (_check_ids_dtype, _segment_sum_infer, _segment_sum_kernel, _unsorted_infer, _unsorted_kernel,
                       sorted_segment_function, unsorted_segment_function)
from ..array import basic as _array
from . import elementwise as _math
from . import segments as _segments
from ..array import slicing as _slicing
from .segments import jax_unsorted_segments


def _sorted_prod_kernel(data, segment_ids):
    _segment_sum_kernel(data, segment_ids)  # TensorFlow's checks of the ids
    ids = np.asarray(segment_ids)
    rows = int(ids[-1]) + 1 if ids.size else 0
    out = np.ones((rows,) + data.shape[1:], dtype=data.dtype)
    np.multiply.at(out, ids, data)
    return out


def _unsorted_prod_kernel(data, segment_ids, num_segments):
    _unsorted_kernel(data, segment_ids, num_segments)  # the ids' checks
    ids = np.asarray(segment_ids).reshape(-1)
    flat = data.reshape((-1,) + data.shape[np.ndim(segment_ids):])
    keep = ids >= 0
    out = np.ones((int(num_segments),) + flat.shape[1:], dtype=data.dtype)
    np.multiply.at(out, ids[keep], flat[keep])
    return out


def _sorted_rule(inputs, attrs):
    R.check_dtype_in("SegmentProd", inputs[0].dtype, R.NUMBERS, "data")
    _check_ids_dtype("SegmentProd", inputs[1])
    return _segment_sum_infer(inputs, attrs)


def _unsorted_rule(inputs, attrs):
    R.check_dtype_in("UnsortedSegmentProd", inputs[0].dtype, R.NUMBERS, "data")
    return _unsorted_infer(inputs, attrs)


def _prod_grad(op, g, product_of, gather_back):
    data = op.inputs[0]
    is_zero = _math.equal(data, _array.zeros_like(data))
    zeros_in_segment = product_of(_math.cast(is_zero, data.dtype), summing=True)
    g = _array.where(_math.greater(zeros_in_segment, _array.ones_like(zeros_in_segment)), _array.zeros_like(g), g)
    non_zero_data = _array.where(is_zero, _array.ones_like(data), data)
    non_zero_prod = product_of(non_zero_data, summing=False)
    others = _array.where(is_zero, gather_back(non_zero_prod), gather_back(op.outputs[0]) / non_zero_data)
    return gather_back(g) * others


def _sorted_prod_grad(op, g):
    ids = op.inputs[1]

    def product_of(values, summing):
        return _segments.segment_sum(values, ids) if summing else segment_prod(values, ids)
    return _prod_grad(op, g, product_of, lambda t: _slicing.gather(t, ids)), None


def _unsorted_prod_grad(op, g):
    data, ids, num = op.inputs

    def product_of(values, summing):
        return (_segments.unsorted_segment_sum(values, ids, num) if summing
                else unsorted_segment_prod(values, ids, num))
    return (_prod_grad(op, g, product_of, lambda t: _segments._gather_drop_negatives(t, ids, data.shape.rank)),
            None, None)


SegmentProd = defop("SegmentProd", inputs=("data", "segment_ids"), kernel=_sorted_prod_kernel,
                    infer=_sorted_rule, grad=_sorted_prod_grad)
UnsortedSegmentProd = defop("UnsortedSegmentProd", inputs=("data", "segment_ids", "num_segments"),
                            kernel=_unsorted_prod_kernel, infer=_unsorted_rule, grad=_unsorted_prod_grad)


segment_prod = sorted_segment_function(
    SegmentProd, "segment_prod", "`tf.math.segment_prod`: per sorted segment id, the product of its rows (1 when empty).")
unsorted_segment_prod = unsorted_segment_function(
    UnsortedSegmentProd, "unsorted_segment_prod",
    "`tf.math.unsorted_segment_prod`: products into `num_segments` rows; negative ids dropped.")


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_sqrt_n`: sums divided by sqrt(rows in the segment); 0 when empty."""
    d = as_tensor(data)
    ids = as_tensor(segment_ids, _dt.int32)
    total = _segments.unsorted_segment_sum(d, ids, num_segments)
    count = _segments.unsorted_segment_sum(_array.ones_like(ids, dtype=d.dtype), ids, num_segments)
    count = _segments._expand_like(count, total)
    return total / _math.sqrt(_math.maximum(count, _array.ones_like(count)))


# --- JAX lowering (jit_compile=True, codegen/xla.py): see ops/math/segments.py ---

UnsortedSegmentProd.jax = jax_unsorted_segments("segment_prod")
