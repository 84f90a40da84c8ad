"""`tf.math.cumulative_logsumexp` (one op, computed with NumPy's running logaddexp so no term
underflows) and small composites of `tf.math`: `polyval`, `lbeta`, `is_non_decreasing`,
`is_strictly_increasing`, `accumulate_n`."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..validation import check_rule
from ..registry import Spec, bind, defop
from ..array import basic as _array
from . import elementwise as _math
from . import reduce as _reduce
from . import special as _special
from ..lazy_jax import jax_module, jnp  # callables that import JAX on first use only


def _cumulative_logsumexp_kernel(x, axis, exclusive=False, reverse=False):
    a = int(axis)
    if reverse:
        x = np.flip(x, a)
    out = np.logaddexp.accumulate(x, axis=a).astype(x.dtype, copy=False)
    if exclusive:  # shift by one along the axis, log(0) = -inf entering first
        first = np.full_like(np.take(out, [0], axis=a), -np.inf)
        out = np.concatenate([first, np.take(out, np.arange(x.shape[a] - 1), axis=a)], axis=a)
    return np.flip(out, a) if reverse else out


def _cumulative_logsumexp_grad(op, g):
    """TensorFlow's rule: the incoming gradient split into its positive and negative parts, whose
    logs are accumulated the other way (stable where exp(-output) would overflow)."""
    x, axis = op.inputs
    out = op.outputs[0]
    ex, rev = op.attrs.get("exclusive", False), op.attrs.get("reverse", False)
    lowest = as_tensor(float(np.finfo(g.dtype.np_dtype).min), g.dtype)
    zero = _array.zeros_like(g)
    log_pos = _array.where(_math.greater(g, zero), _math.log(_array.where(_math.greater(g, zero), g,
                                                                           _array.ones_like(g))), lowest + zero)
    log_neg = _array.where(_math.less(g, zero), _math.log(_array.where(_math.less(g, zero), -g,
                                                                        _array.ones_like(g))), lowest + zero)
    pos = _math.exp(cumulative_logsumexp(log_pos - out, axis, exclusive=ex, reverse=not rev) + x)
    neg = _math.exp(cumulative_logsumexp(log_neg - out, axis, exclusive=ex, reverse=not rev) + x)
    return pos - neg, None


def _cumulative_logsumexp_infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("CumulativeLogsumexp", x.dtype, R.FLOATS)
    return [Spec(x.shape, x.dtype)]


CumulativeLogsumexp = defop("CumulativeLogsumexp", inputs=("x", "axis"), kernel=_cumulative_logsumexp_kernel,
                            infer=_cumulative_logsumexp_infer, grad=_cumulative_logsumexp_grad)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """`tf.math.cumulative_logsumexp`: log(cumsum(exp(x))) along `axis`, without overflow or underflow."""
    t = as_tensor(x)
    ax = as_tensor(axis, _dt.int32)
    attrs = {"exclusive": bool(exclusive), "reverse": bool(reverse)}
    check_rule(CumulativeLogsumexp, (t, ax), attrs)
    return bind(CumulativeLogsumexp, (t, ax), attrs)


def polyval(coeffs, x, name=None):
    """`tf.math.polyval`: coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule."""
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = as_tensor(x)
    if not coeffs:
        return _array.zeros_like(x)
    result = as_tensor(coeffs[0], x.dtype)
    for c in coeffs[1:]:
        result = as_tensor(c, x.dtype) + result * x
    return result


def lbeta(x, name=None):
    """`tf.math.lbeta`: log of the multivariate Beta function over the last axis,
    sum(lgamma(x)) - lgamma(sum(x)) (-inf for an empty last axis)."""
    x = as_tensor(x)
    return (_reduce.reduce_sum(_special.lgamma(x), axis=-1)
            - _special.lgamma(_reduce.reduce_sum(x, axis=-1)))


def _ordered(x, strictly):
    t = as_tensor(x, _dt.int32)
    if not (t.dtype.is_integer or t.dtype.is_floating):
        raise TypeError(f"Expected x to be numeric, instead found: {t}")
    flat = _array.reshape(t, [-1])
    pairs = (_math.less if strictly else _math.less_equal)(flat[:-1], flat[1:])
    return _reduce.reduce_all(pairs)


def is_non_decreasing(x, name=None):
    """`tf.math.is_non_decreasing`: True when each element (in row-major order) is >= the one before."""
    return _ordered(x, strictly=False)


def is_strictly_increasing(x, name=None):
    """`tf.math.is_strictly_increasing`: True when each element is > the one before."""
    return _ordered(x, strictly=True)


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """`tf.math.accumulate_n` (deprecated in TensorFlow for add_n, which it is here)."""
    return _math.add_n(list(inputs) if not isinstance(inputs, Tensor) else [inputs])


# --- JAX lowering (jit_compile=True, codegen/xla.py) ---


def _jax_cumulative_logsumexp(x, axis, exclusive=False, reverse=False):
    a = int(axis) % x.ndim
    out = jax_module().lax.cumlogsumexp(x, axis=a, reverse=reverse)
    if exclusive:
        first = jnp.full_like(jnp.take(out, np.array([0]), axis=a), -np.inf)
        if reverse:
            out = jnp.concatenate([jnp.take(out, np.arange(1, x.shape[a]), axis=a), first], axis=a)
        else:
            out = jnp.concatenate([first, jnp.take(out, np.arange(x.shape[a] - 1), axis=a)], axis=a)
    return out.astype(x.dtype)


CumulativeLogsumexp.jax = _jax_cumulative_logsumexp
