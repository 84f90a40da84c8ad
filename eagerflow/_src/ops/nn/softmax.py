"""Softmax and LogSoftmax (`tf.nn.softmax`, `tf.nn.log_softmax`): the ops over the last axis, other
axes moved there and back, with their gradients and JAX lowerings.

Why apart from basic.py: these normalise along an axis (a max and a sum per row, float16 computed in
float32), where basic.py's activations act on each element alone; basic.py re-exports these names.
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ..array import basic as _array
from ..math import elementwise as _math
from ..math import reduce as _reduce
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop
from ..lazy_jax import jnp, lax  # callables that import JAX on first use only


def _softmax_kernel(x):
    # float16 is computed in float32, as TensorFlow does: a sum of 65,505 exps passes float16's max
    # (the ufuncs' own reductions, in place: np.max/np.sum's Python layers were most of a small call's cost)
    if x.shape[-1] == 0:  # no classes: an empty result, as TensorFlow gives (the reductions have no identity)
        return np.empty_like(x)
    w = x.astype(np.float32) if x.dtype == np.float16 else x
    e = np.subtract(w, np.maximum.reduce(w, axis=-1, keepdims=True))
    np.exp(e, out=e)
    np.divide(e, np.add.reduce(e, axis=-1, keepdims=True), out=e)
    return e.astype(x.dtype, copy=False)


def _log_softmax_kernel(x):
    if x.shape[-1] == 0:
        return np.empty_like(x)
    w = x.astype(np.float32) if x.dtype == np.float16 else x
    shifted = w - np.max(w, axis=-1, keepdims=True)
    return (shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))).astype(x.dtype, copy=False)


def _softmax_rule(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, R.FLOATS, "logits")
        if x.shape.rank == 0:
            raise InvalidArgumentError(None, None, "logits must have >= 1 dimension, got []")
        return [Spec(x.shape, x.dtype)]
    return infer


def _softmax_grad(op, g):
    y = op.outputs[0]
    return (g - _reduce.reduce_sum(g * y, -1, keepdims=True)) * y


def _log_softmax_grad(op, g):
    return g - _reduce.reduce_sum(g, -1, keepdims=True) * _math.exp(op.outputs[0])


Softmax = defop("Softmax", inputs=("logits",), kernel=_softmax_kernel, infer=_softmax_rule("Softmax"),
                grad=_softmax_grad)
LogSoftmax = defop("LogSoftmax", inputs=("logits",), kernel=_log_softmax_kernel, infer=_softmax_rule("LogSoftmax"),
                   grad=_log_softmax_grad)


def _swap_to_last(x, axis):
    """(x with `axis` moved last, the permutation that undoes it) or (x, None) when already last."""
    rank = x.shape.rank
    if axis == -1 or (rank is not None and axis == rank - 1):
        return x, None
    if rank is None:
        raise ValueError(f"softmax over axis {axis} needs a tensor of known rank")
    if not -rank <= axis < rank:
        raise InvalidArgumentError(None, None, f"`dim` must be in the range [{-rank}, {rank}) where {rank} is "
                                               f"the number of dimensions in the input. Received: dim={axis}")
    axis %= rank
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]  # a swap is its own inverse
    return _array.transpose(x, perm), perm


def _along_axis(opdef, logits, axis):
    x = as_tensor(logits)
    if x.shape.rank == 0:
        raise InvalidArgumentError(None, None, f"logits must have >= 1 dimension, got [] [Op:{opdef.name}]")
    if axis is None:
        axis = -1
    x, perm = _swap_to_last(x, int(axis))
    out = bind(opdef, (x,))
    return out if perm is None else _array.transpose(out, perm)


def softmax(logits, axis=None, name=None):
    return _along_axis(Softmax, logits, axis)


def log_softmax(logits, axis=None, name=None):
    return _along_axis(LogSoftmax, logits, axis)


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_softmax(x, log=False):
    w = x.astype(np.float32) if x.dtype == np.float16 else x
    shifted = w - lax.stop_gradient(jnp.max(w, axis=-1, keepdims=True))
    if log:
        out = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=-1, keepdims=True))
    else:
        e = jnp.exp(shifted)
        out = e / jnp.sum(e, axis=-1, keepdims=True)
    return out.astype(x.dtype)


Softmax.jax = _jax_softmax
LogSoftmax.jax = lambda x: _jax_softmax(x, log=True)
