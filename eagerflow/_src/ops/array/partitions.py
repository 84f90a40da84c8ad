"""`tf.dynamic_partition`, `tf.dynamic_stitch` and `tf.histogram_fixed_width`.

dynamic_partition and histogram_fixed_width are composed of existing ops (boolean_mask,
unsorted_segment_sum), so their graphs, gradients and jit lowerings are those ops'; the checks
TensorFlow's kernels make are made here on values known while tracing (eagerly: always).
DynamicStitch is an op of its own, for TensorFlow's gradient: a position written twice passes its
gradient to both writers (a scatter's gradient would give the overwritten one none).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ..operands import as_tensor
from ...core.shape import TensorShape
from ..registry import Spec, bind, defop, static_value
from ..shape_rules import dims_text
from ..lazy_jax import jnp  # callables that import JAX on first use only


def dynamic_partition(data, partitions, num_partitions, name=None):
    """`tf.dynamic_partition`: output i holds the slices of `data` whose partition is i, in order."""
    from ..math.elementwise import equal
    from .slicing import boolean_mask
    data, parts = as_tensor(data), as_tensor(partitions, _dt.int32)
    if not isinstance(num_partitions, (int, np.integer)) or num_partitions < 1:
        raise ValueError(f"num_partitions must be at least 1, got {num_partitions}")
    ds, ps = data.shape, parts.shape
    if ds.rank is not None and ps.rank is not None and (
            ds.rank < ps.rank or any(a is not None and b is not None and a != b for a, b in zip(ds, ps))):
        raise InvalidArgumentError(None, None, "data.shape must start with partitions.shape, got data.shape = "
                                   f"{dims_text(ds.as_list())}, partitions.shape = {dims_text(ps.as_list())} "
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


def _stitch_check(indices, data):
    """TensorFlow's DynamicStitch checks, on arrays: each data[m] starts with indices[m]'s shape,
    the slices after it agree, and no index is negative. Returns the flat indices."""
    for m, (i, d) in enumerate(zip(indices, data)):
        if d.shape[:i.ndim] != i.shape:
            raise InvalidArgumentError(None, None, f"data[{m}].shape = {dims_text(d.shape)} does not start with "
                                       f"indices[{m}].shape = {dims_text(i.shape)}")
    flat = np.concatenate([np.ravel(i) for i in indices]).astype(np.int64)
    bad = np.flatnonzero(flat < 0)
    if bad.size:
        raise InvalidArgumentError(None, None, f"indices[{int(bad[0])}] is out of range")
    return flat


def _stitch_rows(indices, data):
    flat = _stitch_check(indices, data)
    rows = np.concatenate([np.reshape(d, (-1,) + d.shape[i.ndim:]) for i, d in zip(indices, data)])
    return flat, rows


def _stitch_kernel(*arrays, N):
    indices, data = arrays[:N], arrays[N:]
    flat, rows = _stitch_rows(indices, data)
    out = np.zeros((int(flat.max()) + 1 if flat.size else 0,) + rows.shape[1:], data[0].dtype)
    out[flat] = rows  # NumPy assigns in order: a later entry of one position wins, as in TensorFlow
    return out


def _stitch_infer(inputs, attrs):
    n = attrs["N"]
    indices, data = inputs[:n], inputs[n:]
    known = [static_value(i) for i in indices]
    rows = None
    if all(k is not None for k in known):
        flat = np.concatenate([np.ravel(k) for k in known])
        rows = int(flat.max()) + 1 if flat.size else 0
    first = data[0].shape
    rank = indices[0].shape.rank
    inner = first.as_list()[rank:] if first.rank is not None and rank is not None else None
    return [Spec(TensorShape([rows] + inner) if inner is not None else TensorShape(None), data[0].dtype)]


def _stitch_grad(op, g):
    """TensorFlow's rule: each data[m] gets the output gradient at its indices (a position written
    twice passes its gradient to both writers)."""
    from .slicing import gather
    n = op.attrs["N"]
    return (None,) * n + tuple(gather(g, i) for i in op.inputs[:n])


DynamicStitch = defop("DynamicStitch", inputs=(), kernel=_stitch_kernel, infer=_stitch_infer, grad=_stitch_grad,
                      doc="Interleaves data[m] into one tensor at positions indices[m]; later entries win.")


def dynamic_stitch(indices, data, name=None):
    """`tf.dynamic_stitch`: merged[indices[m][i]] = data[m][i]; later entries win, unset rows are 0."""
    from ..math.elementwise import cast
    idx = [as_tensor(i, _dt.int32) for i in indices]
    idx = [i if i.dtype == _dt.int32 else cast(i, _dt.int32) for i in idx]
    vals = [as_tensor(d) for d in data]
    if len(idx) != len(vals) or not idx:
        raise ValueError(f"List argument 'data' to 'DynamicStitch' Op with length {len(vals)} must match length "
                         f"{len(idx)} of argument 'indices'.")
    for m, (i, d) in enumerate(zip(idx, vals)):
        if i.shape.rank is not None and d.shape.rank is not None and (
                d.shape.rank < i.shape.rank or any(a is not None and b is not None and a != b
                                                   for a, b in zip(d.shape.as_list(), i.shape.as_list()))):
            raise InvalidArgumentError(None, None, f"data[{m}].shape = {dims_text(d.shape.as_list())} does not start "
                                       f"with indices[{m}].shape = {dims_text(i.shape.as_list())} "
                                       "[Op:DynamicStitch]")
    return bind(DynamicStitch, tuple(idx) + tuple(vals), {"N": len(idx)}, name=name)


def histogram_fixed_width(values, value_range, nbins=100, dtype=_dt.int32, name=None):
    """`tf.histogram_fixed_width`: counts of `values` in `nbins` equal bins over value_range; values
    below the range count in the first bin, values at or above its end in the last."""
    from .basic import reshape
    from ..math.elementwise import cast, clip_by_value, floor, subtract, multiply, truediv
    from ..math.segments import unsorted_segment_sum
    from .basic import ones_like
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


# --- JAX lowering: the output length needs the indices when compiling (codegen/xla.py then
# compiles the arguments they come from in as constants, as TensorFlow's XLA requires) ---
def _jax_stitch(*arrays, N):
    indices = [np.asarray(i) for i in arrays[:N]]  # raises on a traced value: compiled in as a constant
    data = arrays[N:]
    flat = _stitch_check(indices, [np.empty(d.shape, np.int8) for d in data])
    rows = jnp.concatenate([jnp.reshape(d, (-1,) + tuple(d.shape[i.ndim:])) for i, d in zip(indices, data)])
    last = len(flat) - 1 - np.unique(flat[::-1], return_index=True)[1]  # the last writer of each position
    out = jnp.zeros((int(flat.max()) + 1 if flat.size else 0,) + tuple(rows.shape[1:]), rows.dtype)
    return out.at[flat[last]].set(rows[last])


DynamicStitch.jax = _jax_stitch


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=_dt.int32, name=None):
    """`tf.histogram_fixed_width_bins`: the bin index of each value (the shape of `values`), with the
    same binning as histogram_fixed_width: below the range is bin 0, at or above its end the last.
    int32 whatever `dtype` says, as TensorFlow 2.21 returns."""
    from .basic import reshape, shape
    from ..math.elementwise import cast, clip_by_value, floor, subtract, multiply, truediv
    x = as_tensor(values)
    bounds = as_tensor(value_range, x.dtype) if not hasattr(value_range, "dtype") else as_tensor(value_range)
    work = _dt.float64 if x.dtype in (_dt.float64, _dt.int64) else _dt.float32
    lo, hi = cast(bounds[0], work), cast(bounds[1], work)
    n_float = cast(as_tensor(nbins, _dt.int32), work)
    scaled = floor(multiply(truediv(subtract(cast(x, work), lo), subtract(hi, lo)), n_float))
    bins = cast(clip_by_value(scaled, as_tensor(0, work), subtract(n_float, 1)), _dt.int32)
    return reshape(bins, shape(x))

