"""`tf.nn.sufficient_statistics`, `normalize_moments` and `weighted_moments`: the moment helpers
around `tf.nn.moments` (basic.py), composed from reductions so they trace and differentiate.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ..array import basic as _array
from ..array import slicing as _slicing
from ..math import elementwise as _math
from ..math import reduce as _reduce
from ..operands import as_tensor


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """`tf.nn.sufficient_statistics`: (count, sum of (x - shift), sum of (x - shift)**2, shift)."""
    x = as_tensor(x)
    axes = [int(a) for a in (axes if isinstance(axes, (list, tuple)) else [axes])]
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is not None and all(dims[a] is not None for a in axes):
        counts = as_tensor(float(np.prod([dims[a] for a in axes])), x.dtype)
    else:
        counts = _math.cast(_reduce.reduce_prod(_slicing.gather(_array.shape(x), axes)), x.dtype)
    if shift is not None:
        shift = as_tensor(shift, x.dtype)
        m_ss, v_ss = x - shift, _math.squared_difference(x, shift)
    else:
        m_ss, v_ss = x, _math.square(x)
    return (counts, _reduce.reduce_sum(m_ss, axes, keepdims=keepdims),
            _reduce.reduce_sum(v_ss, axes, keepdims=keepdims), shift)


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """`tf.nn.normalize_moments`: (mean, variance) from sufficient statistics."""
    mean_ss = as_tensor(mean_ss)
    divisor = _math.reciprocal(as_tensor(counts, mean_ss.dtype))
    shifted_mean = mean_ss * divisor
    mean = shifted_mean if shift is None else shifted_mean + as_tensor(shift, mean_ss.dtype)
    variance = as_tensor(variance_ss, mean_ss.dtype) * divisor - _math.square(shifted_mean)
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """`tf.nn.weighted_moments`: the frequency-weighted mean and variance over `axes` (half
    precision inputs are computed in float32, as TensorFlow does)."""
    x = as_tensor(x)
    w = as_tensor(frequency_weights, x.dtype)
    half = x.dtype is _dt.float16
    if half:
        x, w = _math.cast(x, _dt.float32), _math.cast(w, _dt.float32)
    axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
    weighted_sum = _reduce.reduce_sum(w * x, axes, keepdims=True)
    weight_sum = _reduce.reduce_sum(w + _array.zeros_like(x), axes, keepdims=True)
    mean = _math.div_no_nan(weighted_sum, weight_sum)
    variance = _math.div_no_nan(_reduce.reduce_sum(w * _math.squared_difference(x, mean), axes, keepdims=True),
                                weight_sum)
    if not keepdims:
        mean, variance = _array.squeeze(mean, axes), _array.squeeze(variance, axes)
    if half:
        mean, variance = _math.cast(mean, _dt.float16), _math.cast(variance, _dt.float16)
    return mean, variance
