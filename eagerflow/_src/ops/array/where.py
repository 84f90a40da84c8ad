"""`tf.where`: SelectV2 picks elementwise between two tensors by a condition, with broadcasting;
Where, its one-argument form, gives the coordinates of the true entries.

The select's gradient routes the incoming gradient to one side or the other (zeros elsewhere) and
sums it back to each input's shape, so this module sits above filled_tensors.py and broadcasting.py.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .branchless_select import select as _branchless_select
from .broadcasting import sum_to
from .filled_tensors import zeros_like


def _select_infer(inputs, attrs):
    c, x, y = inputs
    R.check_input_dtype("SelectV2", inputs, 0, _dt.bool_)
    R.check_same_dtype("SelectV2", (x, y), first_index=1)
    if not R.building_graph():  # the kernel's words name all three shapes
        try:
            R.broadcast_shape(R.broadcast_shape(c.shape, x.shape), y.shape)
        except InvalidArgumentError:
            raise InvalidArgumentError(None, None, f"condition {R.fmt_dims(c.shape)}, then {R.fmt_dims(x.shape)}, "
                                                   f"and else {R.fmt_dims(y.shape)} must be broadcastable") from None
    shape = R.broadcast_shape(R.broadcast_shape(c.shape, x.shape), y.shape)
    return [Spec(shape, x.dtype)]


def _select_grad(op, g):
    c, x, y = op.inputs
    zeros = zeros_like(g)
    return None, sum_to(where(c, g, zeros), x), sum_to(where(c, zeros, g), y)


SelectV2 = defop("SelectV2", inputs=("condition", "t", "e"), infer=_select_infer, grad=_select_grad,
                 kernel=_branchless_select)
Where = defop("Where", inputs=("input",), grad=NO_GRADIENT,
              infer=lambda inputs, attrs: [Spec(TensorShape([None, inputs[0].shape.rank]), _dt.int64)],
              kernel=lambda c: np.argwhere(c).astype(np.int64))


def where(condition, x=None, y=None, name=None):
    """`tf.where`: elementwise select with broadcasting; with one argument, the true coordinates."""
    c = as_tensor(condition)
    if x is None and y is None:
        return bind(Where, (c,))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    if isinstance(x, Tensor) or not isinstance(y, Tensor):
        x = as_tensor(x)
        y = as_tensor(y, x.dtype)
    else:
        y = as_tensor(y)
        x = as_tensor(x, y.dtype)
    return bind(SelectV2, (c, x, y))


SelectV2.jax = lambda c, x, y: jnp.where(c, x, y)
# tf.where(c) with one argument: its row count is the data's, so `c` must be known when compiling;
# on a run-time `c`, np.asarray raises and codegen/xla.py compiles the arguments c comes from in as
# constants (TensorFlow's XLA compiles it with bounded dynamic shapes, which JAX does not have).
Where.jax = lambda c: np.argwhere(np.asarray(c)).astype(np.int64)
