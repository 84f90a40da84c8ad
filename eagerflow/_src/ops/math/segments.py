"""Segment reductions and counting: `tf.math.segment_sum`, `unsorted_segment_sum` (and the means
composed from them), `tf.math.bincount`.

A segment op sums the rows of `data` that share a segment id. The sorted form (SegmentSum) requires
ids that never decrease and makes as many rows as the last id + 1; the unsorted form takes the
number of segments and drops negative ids. Their gradients gather the output gradient back to the
rows (TensorFlow's rules).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..validation import check_rule
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from ..array import basic as _array
from . import elementwise as _math
from . import reduce as _reduce
from ..array import slicing as _slicing
from ..lazy_jax import jax_module, jnp  # callables that import JAX on first use only

_INDEX_TYPES = (_dt.int32, _dt.int64)


def _err(message):
    return InvalidArgumentError(None, None, message)


def _check_ids_dtype(op_name, ids, arg="segment_ids"):
    if ids.dtype not in _INDEX_TYPES:
        raise _err(f"Value for attr 'Tindices' of {ids.dtype.name} is not in the list of allowed values: "
                   f"int32, int64\n\t; NodeDef: {{{{node {op_name}}}}}; Op<name={op_name}; signature="
                   f"data:T, {arg}:Tindices -> output:T> [Op:{op_name}]")


# --- SegmentSum ------------------------------------------------------------------------------------

def _segment_sum_kernel(data, segment_ids):
    ids = np.asarray(segment_ids)
    if ids.ndim != 1:
        raise _err("segment_ids should be a vector.")
    if data.ndim == 0 or ids.shape[0] != data.shape[0]:
        raise _err("segment_ids should be the same size as dimension 0 of input.")
    rows = int(ids[-1]) + 1 if ids.size else 0
    if ids.size and np.any(ids < 0):
        bad = int(ids[np.argmax(ids < 0)])
        raise _err(f"Segment id {bad} out of range [0, {rows}), possibly because 'segment_ids' input is not "
                   f"sorted.")
    if ids.size > 1 and np.any(np.diff(ids) < 0):
        raise _err("segment ids are not increasing")
    out = np.zeros((rows,) + data.shape[1:], dtype=data.dtype)
    np.add.at(out, ids, data)
    return out


def _segment_sum_infer(inputs, attrs):
    data, ids = inputs
    _check_ids_dtype("SegmentSum", ids)
    R.check_dtype_in("SegmentSum", data.dtype, R.NUMBERS, "data")
    if data.shape.rank is None:
        return [Spec(TensorShape(None), data.dtype)]
    if ids.shape.rank is not None and ids.shape.rank != 1:
        raise _err("segment_ids should be a vector.")
    if data.shape.rank == 0 or not TensorShape([data.shape[0]]).is_compatible_with(ids.shape):
        raise _err("segment_ids should be the same size as dimension 0 of input.")
    value = static_value(ids)
    rows = (int(value[-1]) + 1 if np.size(value) else 0) if value is not None else None
    return [Spec(TensorShape([rows]).concatenate(data.shape[1:]), data.dtype)]


SegmentSum = defop("SegmentSum", inputs=("data", "segment_ids"), kernel=_segment_sum_kernel,
                   infer=_segment_sum_infer, grad=lambda op, g: (_slicing.gather(g, op.inputs[1]), None))


# --- UnsortedSegmentSum ------------------------------------------------------------------------------

def _negative_segments(n):
    return _err(f"Input num_segments == {n} must not be negative.")


def _unsorted_kernel(data, segment_ids, num_segments):
    ids = np.asarray(segment_ids)
    n = int(num_segments)
    if n < 0:
        raise _negative_segments(n)
    if data.shape[:ids.ndim] != ids.shape:
        raise _err(f"data.shape = {list(data.shape)} does not start with segment_ids.shape = {list(ids.shape)}")
    flat = ids.reshape(-1)
    too_big = np.nonzero(flat >= n)[0]
    if too_big.size:
        i = int(too_big[0])
        raise _err(f"segment_ids[{i}] = {int(flat[i])} is out of range [0, {n})")
    out = np.zeros((n,) + data.shape[ids.ndim:], dtype=data.dtype)
    keep = flat >= 0
    np.add.at(out, flat[keep], data.reshape((-1,) + data.shape[ids.ndim:])[keep])
    return out


def _unsorted_infer(inputs, attrs):
    data, ids, num = inputs
    _check_ids_dtype("UnsortedSegmentSum", ids)
    R.check_dtype_in("UnsortedSegmentSum", data.dtype, R.NUMBERS, "data")
    n = static_value(num)
    if np.ndim(n) != 0:
        raise _err(f"num_segments should be a scalar, not shape {list(np.shape(n))}")
    if n is not None and int(n) < 0:
        if R.graph_shape_check(inputs):
            raise _err(f"Dimension size, given by scalar input 2, must be non-negative but is {int(n)}")
        raise _negative_segments(int(n))
    if data.shape.rank is None or ids.shape.rank is None:
        return [Spec(TensorShape(None), data.dtype)]
    if not data.shape[:ids.shape.rank].is_compatible_with(ids.shape):
        raise _err(f"data.shape = {data.shape.as_list()} does not start with segment_ids.shape = "
                   f"{ids.shape.as_list()}")
    return [Spec(TensorShape([None if n is None else int(n)]).concatenate(data.shape[ids.shape.rank:]),
                 data.dtype)]


def _gather_drop_negatives(g, ids, data_rank):
    """g's rows at `ids`, zero where an id is negative (those rows were dropped going forward)."""
    zero = as_tensor(0, ids.dtype)
    gathered = _slicing.gather(g, _math.maximum(ids, zero))
    keep = _math.greater_equal(ids, zero)
    for _ in range(data_rank - ids.shape.rank):
        keep = _array.expand_dims(keep, -1)
    keep = _math.logical_and(keep, _array.ones_like(gathered, dtype=_dt.bool_))
    return _array.where(keep, gathered, _array.zeros_like(gathered))


UnsortedSegmentSum = defop(
    "UnsortedSegmentSum", inputs=("data", "segment_ids", "num_segments"), kernel=_unsorted_kernel,
    infer=_unsorted_infer,
    grad=lambda op, g: (_gather_drop_negatives(g, op.inputs[1], op.inputs[0].shape.rank), None, None))


# --- DenseBincount ------------------------------------------------------------------------------------

def _bincount_kernel(arr, size, weights, binary_output=False, per_row=None, out_dtype=None):
    n = max(int(size), 0)
    per_row = arr.ndim == 2 if per_row is None else per_row  # TensorFlow's node: a 2-D input counts per row  # an empty input of unknown size: max() gave the dtype's minimum
    if arr.size and arr.min() < 0:
        raise _err("Input arr must be non-negative!")
    dtype = weights.dtype if weights.size or out_dtype is None else out_dtype.np_dtype
    rows = arr.reshape(-1, arr.shape[-1]) if per_row else arr.reshape(1, -1)
    w = weights.reshape(rows.shape) if weights.size else None
    out = np.zeros((rows.shape[0], n), dtype=dtype)
    for r, row in enumerate(rows):
        keep = row < n
        if binary_output:
            out[r, row[keep]] = 1
        else:
            np.add.at(out[r], row[keep], 1 if w is None else w[r][keep])
    return out.reshape(arr.shape[:-1] + (n,)) if per_row else out[0]


def _bincount_infer(inputs, attrs):
    arr, size, weights = inputs
    # TensorFlow's node has no out_dtype: its output is the (maybe empty) weights' dtype
    dtype = weights.dtype if weights.shape.rank != 1 or weights.shape[0] != 0 else attrs.get("out_dtype", weights.dtype)
    n = static_value(size)
    n = None if n is None else int(n)
    per_row = attrs.get("per_row", arr.shape.rank == 2)  # TensorFlow's node: a 2-D input counts per row
    if per_row and arr.shape.rank is not None:
        return [Spec(arr.shape[:-1].concatenate([n]), dtype)]
    return [Spec(TensorShape([n]), dtype)]


DenseBincount = defop("DenseBincount", inputs=("input", "size", "weights"), kernel=_bincount_kernel,
                      infer=_bincount_infer, grad=NO_GRADIENT)


# --- Public functions -----------------------------------------------------------------------------------

def sorted_segment_function(opdef, name, doc):
    """`tf.math.<name>(data, segment_ids)` for a sorted segment op: int32 ids unless given, the
    op's rule checked on the values (sorted, in range) before it runs."""
    def fn(data, segment_ids, name=None):
        d, ids = as_tensor(data), as_tensor(segment_ids, _dt.int32)
        check_rule(opdef, (d, ids), {})
        return bind(opdef, (d, ids))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def unsorted_segment_function(opdef, name, doc):
    """`tf.math.<name>(data, segment_ids, num_segments)` for an unsorted segment op."""
    def fn(data, segment_ids, num_segments, name=None):
        d, ids = as_tensor(data), as_tensor(segment_ids, _dt.int32)
        num = as_tensor(num_segments, _dt.int32)
        if state.graph is None:  # (a graph's op runs the rule as it is built)
            check_rule(opdef, (d, ids, num), {})
        return bind(opdef, (d, ids, num))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


segment_sum = sorted_segment_function(
    SegmentSum, "segment_sum", "`tf.math.segment_sum`: sums of the rows of `data` with equal (sorted) segment ids.")
unsorted_segment_sum = unsorted_segment_function(
    UnsortedSegmentSum, "unsorted_segment_sum",
    "`tf.math.unsorted_segment_sum`: sums into `num_segments` rows; negative ids are dropped.")


def _mean_of(total, count):
    """sum / count, with 0 for empty segments (TensorFlow's segment means)."""
    one = _array.ones_like(count)
    return total / _math.cast(_math.maximum(count, one), total.dtype)


def segment_mean(data, segment_ids, name=None):
    """`tf.math.segment_mean`: means of the rows sharing a (sorted) segment id; 0 for empty ids."""
    d = as_tensor(data)
    ids = as_tensor(segment_ids, _dt.int32)
    total = segment_sum(d, ids)
    count = segment_sum(_array.ones_like(ids, dtype=d.dtype), ids)
    return _mean_of(total, _expand_like(count, total))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """`tf.math.unsorted_segment_mean`: means into `num_segments` rows; 0 for empty segments."""
    d = as_tensor(data)
    ids = as_tensor(segment_ids, _dt.int32)
    total = unsorted_segment_sum(d, ids, num_segments)
    count = unsorted_segment_sum(_array.ones_like(ids, dtype=d.dtype), ids, num_segments)
    return _mean_of(total, _expand_like(count, total))


def _expand_like(count, total):
    for _ in range(total.shape.rank - count.shape.rank):
        count = _array.expand_dims(count, -1)
    return count


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_dt.int32, name=None, axis=None,
             binary_output=False):
    """`tf.math.bincount`: counts (or sums of `weights`) of each value in `arr`; the output length is
    max(arr) + 1, at least `minlength`, at most `maxlength`. `axis=-1` counts each row of a 2-D input."""
    a = as_tensor(arr)
    if not a.dtype.is_integer:
        raise TypeError(f"Input arr must be an integer tensor, got {a.dtype.name}")
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
    per_row = axis == -1
    if axis is None:
        a = _array.reshape(a, [-1])
    size = _math.cast(_reduce.reduce_max(a), _dt.int32) + 1 if _known_nonempty(a) else as_tensor(0)
    if minlength is not None:
        size = _math.maximum(size, as_tensor(minlength, _dt.int32))
    if maxlength is not None:
        size = _math.minimum(size, as_tensor(maxlength, _dt.int32))
    w = as_tensor(np.zeros(0, _dt.as_dtype(dtype).np_dtype)) if weights is None else as_tensor(weights)
    if weights is not None and axis is None:
        w = _array.reshape(w, [-1])
    attrs = {"binary_output": bool(binary_output), "per_row": per_row, "out_dtype": _dt.as_dtype(dtype)}
    return bind(DenseBincount, (a, size, w), attrs)


def _known_nonempty(a):
    """False only for an input known to be empty (reduce_max of nothing is the dtype's minimum)."""
    n = a.shape.num_elements() if a.shape.is_fully_defined() else None
    return n != 0


# --- JAX lowering (jit_compile=True, codegen/xla.py). The sorted segment ops have a number of
# segments that depends on the ids (max id + 1) and stay without a lowering: TensorFlow 2.21's XLA
# refuses them too ("No registered 'SegmentSum' OpKernel for XLA_CPU_JIT"). DenseBincount's size
# must be known when compiling: `int(size)` on a run-time value makes codegen/xla.py compile the
# arguments it comes from in as constants, as TensorFlow's XLA does (tf.math.bincount(x) compiles
# once per value of x there too). ---


def jax_unsorted_segments(reducer, empty=None):
    """A lowering for UnsortedSegment{Sum,Max,Min,Prod}: negative ids are dropped, as the kernels
    do; `empty(dtype)`: the value of a segment no row falls into, when not the reducer's own."""
    def lower(data, segment_ids, num_segments):
        n = int(num_segments)
        ids = jnp.reshape(segment_ids, (-1,))
        flat = jnp.reshape(data, (-1,) + data.shape[segment_ids.ndim:])
        ids = jnp.where(ids < 0, n, ids)  # out of range: dropped
        out = getattr(jax_module().ops, reducer)(flat, ids, num_segments=n).astype(data.dtype)
        if empty is not None:
            counts = jax_module().ops.segment_sum(jnp.ones(ids.shape, np.int32), ids, num_segments=n)
            filled = jnp.reshape(counts, (n,) + (1,) * (out.ndim - 1)) > 0
            out = jnp.where(filled, out, np.asarray(empty(np.dtype(data.dtype)), data.dtype))
        return out
    return lower


UnsortedSegmentSum.jax = jax_unsorted_segments("segment_sum")


def _bincount_jax(arr, size, weights, binary_output=False, per_row=False, out_dtype=None):
    """Counts by a scatter-add into [rows, size]; values outside [0, size) are dropped (XLA has no
    run-time error for a negative value: TensorFlow's XLA drops them as well)."""
    n = max(int(size), 0)
    dtype = weights.dtype if weights.size or out_dtype is None else out_dtype.np_dtype
    rows = jnp.reshape(arr, (-1, arr.shape[-1])) if per_row else jnp.reshape(arr, (1, -1))
    row_index = jnp.broadcast_to(jnp.arange(rows.shape[0])[:, None], rows.shape)
    column = jnp.where((rows >= 0) & (rows < n), rows, n)  # n: out of range, dropped
    out = jnp.zeros((rows.shape[0], n), dtype)
    if binary_output:
        out = out.at[row_index, column].set(1, mode="drop")
    else:
        w = jnp.reshape(weights, rows.shape).astype(dtype) if weights.size else jnp.ones(rows.shape, dtype)
        out = out.at[row_index, column].add(w, mode="drop")
    return jnp.reshape(out, tuple(arr.shape[:-1]) + (n,)) if per_row else out[0]


DenseBincount.jax = _bincount_jax
