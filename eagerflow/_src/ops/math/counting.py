"""Counting over predictions and values: `tf.math.in_top_k` (op InTopKV2), `tf.math.confusion_matrix`
and `tf.math.zero_fraction`. Only InTopKV2 is an op of its own; the others are composed from ops.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..array import basic as _array
from ..array import joining as _joining
from ..array import slicing as _slicing
from ..debugging import checks as _checks
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..validation import check_rule
from . import elementwise as _math
from . import reduce as _reduce


def _in_top_k_kernel(predictions, targets, k):
    """Row i is True when fewer than k entries of the row are larger than predictions[i, targets[i]]
    (so ties at the boundary all count as in the top k); a row holding a non-finite value, or an
    out-of-range target, is False (TensorFlow's kernel cannot say)."""
    n, classes = predictions.shape
    out = np.zeros(n, bool)
    for i in range(n):
        t = int(targets[i])
        if 0 <= t < classes and np.all(np.isfinite(predictions[i])):
            out[i] = np.count_nonzero(predictions[i] > predictions[i, t]) < int(k)
    return out


def _in_top_k_infer(inputs, attrs):
    predictions, targets, _ = inputs
    R.check_dtype_in("InTopKV2", predictions.dtype, (_dt.float32,), "predictions")
    s = predictions.shape
    if s.rank is not None and s.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {s.rank}")
    return [Spec(TensorShape([s[0] if s.rank is not None else None]), _dt.bool_)]


InTopKV2 = defop("InTopKV2", inputs=("predictions", "targets", "k"), kernel=_in_top_k_kernel,
                 infer=_in_top_k_infer, grad=NO_GRADIENT)


def in_top_k(targets, predictions, k, name=None):
    """`tf.math.in_top_k`: whether each target class is among the k largest predictions of its row."""
    p = as_tensor(predictions)
    t = as_tensor(targets, _dt.int32)
    kk = as_tensor(k, t.dtype)
    check_rule(InTopKV2, (p, t, kk), {})
    return bind(InTopKV2, (p, t, kk))


def zero_fraction(value, name=None):
    """`tf.math.zero_fraction`: the fraction of elements equal to zero, as float32."""
    v = as_tensor(value)
    zero = as_tensor(np.zeros((), v.dtype.np_dtype))
    return _reduce.reduce_mean(_math.cast(_math.equal(v, zero), _dt.float32))


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=_dt.int32, name=None):
    """`tf.math.confusion_matrix`: counts (or summed `weights`) of each (label, prediction) pair, as a
    num_classes x num_classes matrix (rows: labels); TensorFlow's checks for negative or out-of-range
    classes."""
    dtype = _dt.as_dtype(dtype)
    labels = _math.cast(as_tensor(labels), _dt.int64)
    predictions = _math.cast(as_tensor(predictions), _dt.int64)
    _checks.assert_non_negative(labels, message="`labels` contains negative values")
    _checks.assert_non_negative(predictions, message="`predictions` contains negative values")
    if num_classes is None:
        n = _math.maximum(_reduce.reduce_max(predictions), _reduce.reduce_max(labels)) + as_tensor(1, _dt.int64)
    else:
        n = _math.cast(as_tensor(num_classes), _dt.int64)
        _checks.assert_less(labels, n, message="`labels` out of bound")
        _checks.assert_less(predictions, n, message="`predictions` out of bound")
    updates = _array.ones_like(predictions, dtype=dtype) if weights is None else _math.cast(as_tensor(weights), dtype)
    indices = _joining.stack([labels, predictions], axis=1)
    return _slicing.scatter_nd_to_shape(indices, updates, _joining.stack([n, n]))


# --- JAX lowering (jit_compile=True, codegen/xla.py) ---


def _jax_in_top_k(predictions, targets, k):
    classes = predictions.shape[1]
    t = targets.astype(np.int64)
    valid = (t >= 0) & (t < classes) & jnp.all(jnp.isfinite(predictions), axis=1)
    picked = jnp.take_along_axis(predictions, jnp.clip(t, 0, classes - 1)[:, None], axis=1)
    return valid & (jnp.sum(predictions > picked, axis=1) < int(k))


InTopKV2.jax = _jax_in_top_k
