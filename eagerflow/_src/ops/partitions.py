"""`tf.dynamic_partition`, `tf.dynamic_stitch` and `tf.histogram_fixed_width`, composed of existing
ops (boolean_mask, tensor_scatter_nd_update, unsorted_segment_sum), so their graphs, gradients and
jit lowerings are those ops'. The index checks TensorFlow's kernels make are made here on values
known while tracing (eagerly: always).

One difference from TensorFlow's gradients: when dynamic_stitch writes one position twice, the
overwritten entry gets no gradient here (TensorFlow gives it the gradient of the position too).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError
from .operands import as_tensor
from .registry import static_value


def _dims_text(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def dynamic_partition(data, partitions, num_partitions, name=None):
    """`tf.dynamic_partition`: output i holds the slices of `data` whose partition is i, in order."""
    from .math import equal
    from .slicing import boolean_mask
    data, parts = as_tensor(data), as_tensor(partitions, _dt.int32)
    if not isinstance(num_partitions, (int, np.integer)) or num_partitions < 1:
        raise ValueError(f"num_partitions must be at least 1, got {num_partitions}")
    ds, ps = data.shape, parts.shape
    if ds.rank is not None and ps.rank is not None and (
            ds.rank < ps.rank or any(a is not None and b is not None and a != b for a, b in zip(ds, ps))):
        raise InvalidArgumentError(None, None, "data.shape must start with partitions.shape, got data.shape = "
                                   f"{_dims_text(ds.as_list())}, partitions.shape = {_dims_text(ps.as_list())} "
                                   "[Op:DynamicPartition]")
    known = static_value(parts)
    if known is not None:
        flat = np.ravel(known)
        bad = np.flatnonzero((flat < 0) | (flat >= num_partitions))
        if bad.size:
            i = int(bad[0])
            position = ",".join(str(int(c)) for c in np.unravel_index(i, np.shape(known))) if np.ndim(known) else ""
            raise InvalidArgumentError(None, None, f"partitions[{position}] = {int(flat[i])} is not in "
                                       f"[0, {num_partitions}) [Op:DynamicPartition]")
    return [boolean_mask(data, equal(parts, as_tensor(np.int32(i)))) for i in range(num_partitions)]


def dynamic_stitch(indices, data, name=None):
    """`tf.dynamic_stitch`: merged[indices[m][i]] = data[m][i]; later entries win, unset rows are 0."""
    from .array import reshape, shape, zeros
    from .joining import concat
    from .reduce import reduce_max
    from .tensor_scatter import tensor_scatter_nd_update
    idx = [as_tensor(i, _dt.int32) for i in indices]
    vals = [as_tensor(d) for d in data]
    if len(idx) != len(vals) or not idx:
        raise ValueError(f"List argument 'data' to 'DynamicStitch' Op with length {len(vals)} must match length "
                         f"{len(idx)} of argument 'indices'.")
    for m, (i, d) in enumerate(zip(idx, vals)):
        if i.shape.rank is not None and d.shape.rank is not None and (
                d.shape.rank < i.shape.rank or d.shape.as_list()[:i.shape.rank] != i.shape.as_list()):
            raise InvalidArgumentError(None, None, f"data[{m}].shape = {_dims_text(d.shape.as_list())} does not start "
                                       f"with indices[{m}].shape = {_dims_text(i.shape.as_list())} "
                                       "[Op:DynamicStitch]")
    inner = vals[0].shape.as_list()[idx[0].shape.rank:] if vals[0].shape.rank is not None else None
    flat_idx = concat([reshape(i, [-1]) for i in idx], 0)
    if inner is not None and all(d is not None for d in inner):
        flat_vals = concat([reshape(d, [-1] + inner) for d in vals], 0)
    else:
        flat_vals = concat([reshape(d, concat([[-1], shape(d)[i.shape.rank:]], 0)) for i, d in zip(idx, vals)], 0)
    known = [static_value(i) for i in idx]
    if all(k is not None for k in known):
        flat = np.concatenate([np.ravel(k) for k in known]) if known else np.zeros(0, np.int32)
        bad = np.flatnonzero(flat < 0)
        if bad.size:
            raise InvalidArgumentError(None, None, f"indices[{int(bad[0])}] is out of range [Op:DynamicStitch]")
        rows = as_tensor(np.int32(flat.max() + 1 if flat.size else 0))
    else:
        rows = reduce_max(flat_idx) + 1
    out_shape = concat([reshape(rows, [1]), shape(flat_vals)[1:]], 0)
    base = zeros(out_shape, vals[0].dtype)
    return tensor_scatter_nd_update(base, reshape(flat_idx, [-1, 1]), flat_vals)


def histogram_fixed_width(values, value_range, nbins=100, dtype=_dt.int32, name=None):
    """`tf.histogram_fixed_width`: counts of `values` in `nbins` equal bins over value_range; values
    below the range count in the first bin, values at or above its end in the last."""
    from .array import reshape
    from .math import cast, clip_by_value, floor, subtract, multiply, truediv
    from .segments import unsorted_segment_sum
    from .array import ones_like
    x = as_tensor(values)
    bounds = as_tensor(value_range, x.dtype) if not hasattr(value_range, "dtype") else as_tensor(value_range)
    known_range = static_value(bounds)
    if known_range is not None:
        lo, hi = np.ravel(known_range)[:2]
        if not lo < hi:
            raise InvalidArgumentError(None, None, "value_range should satisfy value_range[0] < value_range[1], but "
                                       f"got '[{lo:g}, {hi:g}]' [Op:HistogramFixedWidth]")
    known_bins = static_value(nbins) if hasattr(nbins, "dtype") else nbins
    if known_bins is not None and int(known_bins) <= 0:
        raise InvalidArgumentError(None, None, f"nbins should be a positive number, but got '{int(known_bins)}' "
                                   "[Op:HistogramFixedWidth]")
    work = _dt.float64 if x.dtype in (_dt.float64, _dt.int64) else _dt.float32
    flat = cast(reshape(x, [-1]), work)
    lo, hi = cast(bounds[0], work), cast(bounds[1], work)
    n_float = cast(as_tensor(nbins, _dt.int32), work)
    scaled = floor(multiply(truediv(subtract(flat, lo), subtract(hi, lo)), n_float))
    bins = cast(clip_by_value(scaled, as_tensor(0, work), subtract(n_float, 1)), _dt.int32)
    counts = unsorted_segment_sum(ones_like(bins), bins, nbins)
    return cast(counts, dtype)
