"""keras.ops.numpy's reductions and order statistics: sum/mean/..., NumPy's axis=None (flattened) arg-functions,
quantiles by sorting, the nan-ignoring variants (NaNs replaced by each reduction's identity), counting and
searching (bincount, histogram, digitize, searchsorted, unique)."""
from __future__ import annotations

import numpy as np

from ._common import FLOATX, axes_list, float_result, np_name, tensor, tf


def _reduce(name, float_ints=False, bool_input=False):
    def fn(x, axis=None, keepdims=False):
        t = tf()
        x = tensor(x)
        if name in ("reduce_max", "reduce_min") and x.dtype == t.bool:  # bools: any / all, a bool result
            return (t.reduce_any if name == "reduce_max" else t.reduce_all)(x, axis=axis, keepdims=keepdims)
        if bool_input:
            x = t.cast(x, t.bool)
        elif float_ints and not (x.dtype.is_floating or x.dtype.is_complex):
            x = t.cast(x, FLOATX)
        elif x.dtype == t.bool:
            x = t.cast(x, "int32")
        return getattr(t.math, name)(x, axis=axis, keepdims=keepdims)
    fn.__name__ = name
    return fn


sum = _reduce("reduce_sum")  # noqa: A001
mean, std, var = (_reduce(n, float_ints=True) for n in ("reduce_mean", "reduce_std", "reduce_variance"))
amax = _reduce("reduce_max")
amin = _reduce("reduce_min")
all, any = _reduce("reduce_all", bool_input=True), _reduce("reduce_any", bool_input=True)  # noqa: A001
_prod = _reduce("reduce_prod")


def prod(x, axis=None, keepdims=False, dtype=None):
    """`dtype` is accepted and ignored, as Keras on TF does (the product keeps x's promoted type)."""
    return _prod(x, axis=axis, keepdims=keepdims)


def _with_initial(reduce, pick):
    def fn(x, axis=None, keepdims=False, initial=None):
        out = reduce(x, axis=axis, keepdims=keepdims)
        return out if initial is None else pick(out, tf().cast(initial, out.dtype))
    return fn


max = _with_initial(amax, lambda a, b: tf().maximum(a, b))  # noqa: A001
min = _with_initial(amin, lambda a, b: tf().minimum(a, b))  # noqa: A001


def ptp(x, axis=None, keepdims=False):
    """max - min (TensorFlow's Max refuses bools, as in Keras)."""
    t = tf()
    x = tensor(x)
    return t.reduce_max(x, axis=axis, keepdims=keepdims) - t.reduce_min(x, axis=axis, keepdims=keepdims)


def average(x, axis=None, weights=None):
    t = tf()
    if weights is None:
        return mean(x, axis)
    x, weights = float_result(x, weights)
    if weights.shape.rank == 1 and x.shape.rank > 1 and axis is not None:
        shape = [1] * x.shape.rank
        shape[axis] = -1
        weights = t.reshape(weights, shape)
    weights = t.broadcast_to(weights, t.shape(x))
    return t.reduce_sum(x * weights, axis=axis) / t.reduce_sum(weights, axis=axis)


def flat_if_none(x, axis):
    t = tf()
    x = tensor(x)
    return (t.reshape(x, [-1]), 0) if axis is None else (x, axis)


def _arg(name):
    def fn(x, axis=None, keepdims=False):
        t = tf()
        source = tensor(x)
        flat, ax = flat_if_none(source, axis)
        out = t.cast(getattr(t.math, name)(flat, axis=ax), "int32")
        if keepdims:
            out = t.reshape(out, [1] * source.shape.rank) if axis is None else t.expand_dims(out, axis)
        return out
    fn.__name__ = name
    return fn


argmax, argmin = _arg("argmax"), _arg("argmin")


def _cumulative(name):
    def fn(x, axis=None, dtype=None):
        t = tf()
        x, axis = flat_if_none(x if dtype is None else t.cast(x, dtype), axis)
        return getattr(t.math, name)(t.cast(x, "int32") if x.dtype == t.bool else x, axis=axis)
    fn.__name__ = name
    return fn


cumsum, cumprod = _cumulative("cumsum"), _cumulative("cumprod")


def count_nonzero(x, axis=None):
    return tf().cast(tf().math.count_nonzero(x, axis=axis), "int32")


# --- nan-ignoring ---------------------------------------------------------------------------------------------

def _nan_to(x, value):
    t = tf()
    x = tensor(x)
    if not x.dtype.is_floating:
        return x
    return t.where(t.math.is_nan(x), t.cast(value, x.dtype) + t.zeros_like(x), x)


def nansum(x, axis=None, keepdims=False):
    return sum(_nan_to(x, 0), axis, keepdims)


def nanprod(x, axis=None, keepdims=False):
    return prod(_nan_to(x, 1), axis, keepdims)


def nancumsum(x, axis=None, dtype=None):
    return cumsum(_nan_to(x, 0), axis, dtype)


def nancumprod(x, axis=None, dtype=None):
    return cumprod(_nan_to(x, 1), axis, dtype)


def _count_valid(x, axis, keepdims):
    t = tf()
    return t.reduce_sum(t.cast(t.logical_not(t.math.is_nan(x)), x.dtype), axis=axis, keepdims=keepdims)


def nanmean(x, axis=None, keepdims=False):
    (x,) = float_result(x)
    return nansum(x, axis, keepdims) / _count_valid(x, axis, keepdims)


def nanvar(x, axis=None, keepdims=False):
    t = tf()
    (x,) = float_result(x)
    centred = _nan_to(x - nanmean(x, axis, True), 0)
    return t.reduce_sum(t.square(centred), axis=axis, keepdims=keepdims) / _count_valid(x, axis, keepdims)


def nanstd(x, axis=None, keepdims=False):
    return tf().sqrt(nanvar(x, axis, keepdims))


def _all_nan(x, axis, keepdims):
    t = tf()
    return t.reduce_all(t.math.is_nan(x), axis=axis, keepdims=keepdims)


def _nan_extreme(reduce, fill):
    def fn(x, axis=None, keepdims=False):
        t = tf()
        x = tensor(x)
        if not x.dtype.is_floating:
            return reduce(x, axis, keepdims)
        out = reduce(_nan_to(x, fill), axis, keepdims)
        return t.where(_all_nan(x, axis, keepdims), t.cast(np.nan, x.dtype) + t.zeros_like(out), out)
    return fn


nanmax, nanmin = _nan_extreme(amax, -np.inf), _nan_extreme(amin, np.inf)


def _nan_arg(arg, fill):
    def fn(x, axis=None, keepdims=False):
        return arg(_nan_to(x, fill), axis, keepdims)
    return fn


nanargmax, nanargmin = _nan_arg(argmax, -np.inf), _nan_arg(argmin, np.inf)


# --- order statistics -------------------------------------------------------------------------------------------

def quantile(x, q, axis=None, method="linear", keepdims=False, _ignore_nan=False):
    """NumPy's quantile: sort along the reduced axes (moved last and merged), then interpolate by `method`."""
    t = tf()
    if method not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError("Invalid value for `method`: expected one of 'linear', 'lower', 'higher', 'midpoint', "
                         f"'nearest'. Received: method={method}")
    (x,) = float_result(x)
    q = t.cast(q, x.dtype if x.dtype.name == "float64" else "float32")
    rank = x.shape.rank
    axes = axes_list(axis, rank)
    keep = [d for d in range(rank) if d not in axes]
    moved = t.transpose(x, keep + axes)
    kept_shape = [x.shape[d] for d in keep]
    flat = t.reshape(moved, kept_shape + [-1])
    if _ignore_nan:
        valid = t.reduce_sum(t.cast(t.logical_not(t.math.is_nan(flat)), q.dtype), axis=-1, keepdims=True)
        flat = t.where(t.math.is_nan(flat), t.cast(np.inf, flat.dtype) + t.zeros_like(flat), flat)
    else:
        valid = t.cast(t.shape(flat)[-1:], q.dtype)
    ordered = t.sort(flat, axis=-1)
    q_flat = t.reshape(q, [-1])
    pos = t.broadcast_to((valid - 1.0) * q_flat, kept_shape + [q_flat.shape[0]])  # valid: kept + [1], or [1]
    lo, hi = t.floor(pos), t.math.ceil(pos)
    if method == "lower":
        hi = lo
    elif method == "higher":
        lo = hi
    elif method == "nearest":
        lo = hi = t.math.round(pos)
    take = lambda p: t.cast(t.gather(ordered, t.cast(p, "int32"), batch_dims=len(keep)), x.dtype)  # noqa: E731
    low_v, high_v = take(lo), take(hi)
    if method == "midpoint":
        out = (low_v + high_v) / 2.0
    else:
        out = low_v + (high_v - low_v) * t.cast(pos - lo, x.dtype)
    if _ignore_nan:
        out = t.where(valid > 0, out, t.cast(np.nan, x.dtype) + t.zeros_like(out))
    out = t.transpose(out, [len(keep)] + list(range(len(keep))))  # q first, as NumPy puts it
    if keepdims:
        shape = [x.shape[d] if d not in axes else 1 for d in range(rank)]
        out = t.reshape(out, [-1] + shape)
    if t.convert_to_tensor(q).shape.rank == 0:
        out = out[0]
    return out


def percentile(x, q, axis=None, method="linear", keepdims=False):
    return quantile(x, _div100(q), axis, method, keepdims)


def _div100(q):
    return tf().cast(q, "float64") / 100.0


def median(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    return quantile(x, q, axis, method, keepdims, _ignore_nan=True)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    return quantile(x, _div100(q), axis, method, keepdims, _ignore_nan=True)


def nanmedian(x, axis=None, keepdims=False):
    return quantile(x, 0.5, axis=axis, keepdims=keepdims, _ignore_nan=True)


def sort(x, axis=-1):
    return tf().sort(x, axis=axis)


def argsort(x, axis=-1):
    x, axis = flat_if_none(x, axis)
    return tf().argsort(x, axis=axis, stable=True)


def argpartition(x, kth, axis=-1):
    """A full stable argsort: one valid partition (every element before kth is <= the kth one)."""
    return argsort(x, axis)


def searchsorted(sorted_sequence, values, side="left"):
    t = tf()
    sorted_sequence, values = tensor(sorted_sequence), tensor(values)
    if sorted_sequence.shape.rank != 1:
        raise ValueError("`searchsorted` only supports 1-D sorted sequences. You can use `keras.ops.vectorized_map` "
                         f"to extend it to N-D sequences. Received: sorted_sequence.shape={sorted_sequence.shape}")
    flat = t.reshape(values, [1, -1])
    out = t.searchsorted(t.reshape(sorted_sequence, [1, -1]), t.cast(flat, sorted_sequence.dtype), side=side)
    return t.reshape(out, t.shape(values))


def digitize(x, bins):
    """NumPy's digitize for increasing bins: the index i with bins[i-1] <= x < bins[i]."""
    t = tf()
    x, bins = tensor(x), tensor(bins)
    return t.cast(searchsorted(bins, t.cast(x, bins.dtype), side="right"), "int32")


def bincount(x, weights=None, minlength=0, sparse=False):
    t = tf()
    x = tensor(x)
    dtype = "int32" if weights is None else np_name(tensor(weights).dtype)
    if weights is not None and dtype in ("int8", "int16", "uint8", "uint16", "bool"):
        dtype = "int32"
    w = None if weights is None else t.cast(weights, dtype)
    return t.math.bincount(x, weights=w, minlength=minlength, dtype=dtype, axis=-1 if x.shape.rank == 2 else None)


def histogram(x, bins=10, range=None):  # noqa: A002
    """(counts, edges) over `bins` equal bins of `range` (default: x's min and max); the last bin is closed."""
    t = tf()
    (x,) = float_result(x)
    if x.shape.rank != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: input.shape={tuple(x.shape.as_list())}")
    low, high = (t.reduce_min(x), t.reduce_max(x)) if range is None else (t.cast(range[0], x.dtype),
                                                                            t.cast(range[1], x.dtype))
    edges = t.linspace(low, high, bins + 1)
    inside = t.logical_and(x >= low, x <= high)
    index = t.cast(t.floor((x - low) / (high - low) * bins), "int32")
    index = t.clip_by_value(index, 0, bins - 1)
    counts = t.math.unsorted_segment_sum(t.cast(inside, x.dtype), index, bins)  # float counts, as Keras
    return counts, t.cast(edges, x.dtype)


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None,  # noqa: A002
           size=None, fill_value=None):
    """NumPy's unique of the flattened x: sorted values, optionally first indices, inverse and counts."""
    t = tf()
    if axis is not None:
        raise NotImplementedError("keras.ops.unique(axis=...) is not supported yet.")
    flat = t.reshape(tensor(x), [-1])
    values, inverse = t.unique(flat)
    order = t.argsort(values, stable=True) if sorted else t.range(t.size(values))
    values = t.gather(values, order)
    rank_of = t.math.invert_permutation(t.cast(order, "int32"))
    inverse = t.gather(rank_of, inverse)
    out = [values]
    if return_index:
        positions = t.range(t.size(flat))
        out.append(t.math.unsorted_segment_min(positions, inverse, t.size(values)))
    if return_inverse:
        out.append(t.reshape(inverse, t.shape(tensor(x))))
    if return_counts:
        out.append(t.math.unsorted_segment_sum(t.ones_like(inverse), inverse, t.size(values)))
    return out[0] if len(out) == 1 else tuple(out)
