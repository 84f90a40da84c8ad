"""BroadcastTo (`tf.broadcast_to`) and its reverse SumToShape (`sum_to`), each the other's gradient.

sum_to is what every gradient rule of a broadcasting op calls to bring its gradient back to an
input's shape (TensorFlow builds BroadcastGradientArgs + Sum + Reshape for it; we record one op),
so this module sits at the bottom of the op families beside Shape.
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..lazy_jax import jnp, static_dims  # callables that import JAX on first use only
from ..operands import as_int_tensor, as_tensor, static_ints
from ..registry import Spec, bind, defop, static_value
from .shape_queries import shape


def _broadcast_to_infer(inputs, attrs):
    x, shp = inputs
    dims = static_ints(shp)
    if dims is None:
        n = shp.shape[0] if shp.shape.rank == 1 else None
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    target = TensorShape(dims)
    out = R.broadcast_shape(x.shape, target)
    if out != target and out.is_fully_defined():
        raise InvalidArgumentError(None, None, f"Unable to broadcast tensor of shape {R.fmt_dims(x.shape)} to tensor "
                                               f"of shape {R.fmt_dims(target)}")
    return [Spec(target, x.dtype)]


BroadcastTo = defop("BroadcastTo", inputs=("input", "shape"), infer=_broadcast_to_infer,
                    kernel=lambda x, s: np.broadcast_to(x, tuple(int(d) for d in s)).copy(),
                    grad=lambda op, g: (sum_to(g, op.inputs[0]), None))


def broadcast_to(input, shape, name=None):
    return bind(BroadcastTo, (as_tensor(input), as_int_tensor(shape)))


def sum_to(grad, like):
    """Reduces a broadcast gradient back to the shape of the input `like` (TF: BroadcastGradientArgs
    + Sum + Reshape). Free when the shapes already agree."""
    if grad is None:
        return None
    gs, ls = grad.shape, like.shape
    if gs == ls and ls.is_fully_defined():
        return grad
    return bind(SumToShape, (grad, shape(like)))


def _broadcast_axes(grad_shape, shape):
    """The axes a gradient of `grad_shape` was broadcast along to come from `shape`: its extra leading
    axes and those where `shape` has a 1 (the NumPy kernel and the JAX lowering sum over them)."""
    lead = len(grad_shape) - len(shape)
    return tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape) if d == 1 and grad_shape[i + lead] != 1)


def _sum_to_kernel(g, shape):
    shape = tuple(shape.tolist()) if isinstance(shape, np.ndarray) else tuple(int(d) for d in shape)
    if g.shape == shape:
        return g
    axes = _broadcast_axes(g.shape, shape)
    if axes:  # NOTE: the ndarray method, not np.sum: this runs once per broadcast op in every backward pass
        g = g.sum(axis=axes)
    return g.reshape(shape)


def _sum_to_infer(inputs, attrs):
    value = static_value(inputs[1])
    shape = TensorShape(None) if value is None else TensorShape([int(d) for d in value])
    if value is None and inputs[1].shape.rank == 1 and inputs[1].shape[0] is not None:
        shape = TensorShape([None] * inputs[1].shape[0])
    return [Spec(shape, inputs[0].dtype)]


SumToShape = defop(
    "SumToShape", inputs=("grad", "shape"), kernel=_sum_to_kernel, infer=_sum_to_infer,
    grad=lambda op, g: (broadcast_to(g, shape(op.inputs[0])), None),
    doc="Sums a broadcast gradient down to a shape (one op where TensorFlow uses three).")


def _jax_sum_to(g, shape):
    shape = static_dims(shape)
    axes = _broadcast_axes(g.shape, shape)
    return jnp.reshape(jnp.sum(g, axis=axes) if axes else g, shape)


BroadcastTo.jax = lambda x, s: jnp.broadcast_to(x, static_dims(s))
SumToShape.jax = _jax_sum_to
