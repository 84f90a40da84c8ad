"""More of `tf.math` that the Keras subset and the guides use: rint, in_top_k (ops of their own);
multiply_no_nan, xdivy, xlog1py, zero_fraction, confusion_matrix (composed from ops, so they trace
and differentiate through what they are made of)."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor, binary_operands
from ..validation import check_rule
from ..registry import NO_GRADIENT, Spec, bind, defop

# TensorFlow gives no gradient through rounding.
Rint = defop("Rint", kernel=np.rint, infer=R.unary(R.FLOATS), grad=NO_GRADIENT)


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


def rint(x, name=None):
    """`tf.math.rint`: round to the nearest integer, halves to even."""
    t = as_tensor(x)
    check_rule(Rint, (t,), {})
    return bind(Rint, (t,))


def in_top_k(targets, predictions, k, name=None):
    """`tf.math.in_top_k`: whether each target class is among the k largest predictions of its row."""
    p = as_tensor(predictions)
    t = as_tensor(targets, _dt.int32)
    kk = as_tensor(k, t.dtype)
    check_rule(InTopKV2, (p, t, kk), {})
    return bind(InTopKV2, (p, t, kk))


def multiply_no_nan(x, y, name=None):
    """`tf.math.multiply_no_nan`: x * y, but 0 where y is 0 even when x is inf or NaN."""
    x, y = binary_operands(x, y, "MulNoNan")
    zero = _array.zeros_like(x * y)
    return _array.where(_math.equal(y, _array.zeros_like(y)), zero, x * y)


def xdivy(x, y, name=None):
    """`tf.math.xdivy`: x / y, and 0 where x is 0."""
    x, y = binary_operands(x, y, "Xdivy")
    safe_y = _array.where(_math.equal(x, _array.zeros_like(x)), _array.ones_like(y), y)
    return _array.where(_math.equal(x, _array.zeros_like(x)), _array.zeros_like(x), x / safe_y)


def xlog1py(x, y, name=None):
    """`tf.math.xlog1py`: x * log1p(y), and 0 where x is 0."""
    x, y = binary_operands(x, y, "Xlog1py")
    is_zero = _math.equal(x, _array.zeros_like(x))
    safe_y = _array.where(is_zero, _array.zeros_like(y), y)
    return _array.where(is_zero, _array.zeros_like(x), x * _math.log1p(safe_y))


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
    return _slicing.scatter_nd(indices, updates, _joining.stack([n, n]))


from ..array import basic as _array  # noqa: E402
from ..array import joining as _joining  # noqa: E402
from ..debugging import checks as _checks  # noqa: E402
from . import elementwise as _math  # noqa: E402
from . import reduce as _reduce  # noqa: E402
from ..array import slicing as _slicing  # noqa: E402

# --- JAX lowering (jit_compile=True, codegen/xla.py) ---
from ..lazy_jax import jnp  # noqa: E402 - callables that import JAX on first use only

Rint.jax = lambda x: jnp.rint(x)


def _jax_in_top_k(predictions, targets, k):
    classes = predictions.shape[1]
    t = targets.astype(np.int64)
    valid = (t >= 0) & (t < classes) & jnp.all(jnp.isfinite(predictions), axis=1)
    picked = jnp.take_along_axis(predictions, jnp.clip(t, 0, classes - 1)[:, None], axis=1)
    return valid & (jnp.sum(predictions > picked, axis=1) < int(k))


InTopKV2.jax = _jax_in_top_k
