"""`tf.hessians` and `tf.identity_n`, beside the gradient code they use.

hessians(ys, xs): for each x, the matrix of second derivatives of sum(ys), shaped x.shape + x.shape;
built like TensorFlow's, by differentiating each entry of the (flattened) gradient again, so it
works only where tf.gradients does (inside tf.function). identity_n passes several tensors through
one IdentityN op (gradients pass straight back).
"""
from __future__ import annotations

from ..core import nest
from ..ops.operands import as_tensor
from ..ops.registry import bind
from .custom_gradient import IdentityN
from .gradients import gradients


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """`tf.hessians`: a list with one Hessian per x."""
    from ..ops.array.basic import reshape, shape
    from ..ops.array.joining import concat, stack
    xs = nest.flatten(xs, expand_composites=True)
    first = gradients(ys, xs)
    out = []
    for x, grad in zip(xs, first):
        if grad is None:
            raise ValueError("None values not supported.")
        n = grad.shape.num_elements()
        if n is None:
            raise ValueError("tf.hessians needs a statically known number of elements in each x")
        flat = reshape(grad, [-1])
        rows = []
        for j in range(n):
            second = gradients(flat[j], x)[0]
            if second is None:
                raise ValueError("None values not supported.")
            rows.append(second)
        full = stack(rows) if rows else reshape(flat, [0])
        dims = x.shape.as_list() if x.shape.is_fully_defined() else None
        out.append(reshape(full, dims + dims if dims is not None else concat([shape(x), shape(x)], 0)))
    return out


def identity_n(input, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.identity_n`: the tensors unchanged, as the outputs of one IdentityN op."""
    tensors = [as_tensor(t) for t in input]
    return list(bind(IdentityN, tuple(tensors), {"_custom": None}, name=name))
