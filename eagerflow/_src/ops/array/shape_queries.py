"""Shape, Size and Rank: a tensor's shape, element count and rank read as tensors (`tf.shape`,
`tf.size`, `tf.rank`).

The bottom of the array family: gradient rules everywhere reshape or reduce back to
`shape(op.inputs[0])`, so this module imports no other op module. Under XLA shapes are static,
so the JAX lowerings give NumPy arrays and shape arithmetic downstream folds at trace time.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop

_NO_ATTRS: dict = {}


def _shape_infer(inputs, attrs):
    rank = inputs[0].shape.rank
    return [Spec(TensorShape([rank]), attrs.get("out_type", _dt.int32))]


Shape = defop("Shape", inputs=("input",), grad=NO_GRADIENT, infer=_shape_infer,
              kernel=lambda x, out_type=_dt.int32: np.array(np.shape(x), dtype=out_type.np_dtype))
Size = defop("Size", inputs=("input",), grad=NO_GRADIENT,
             infer=lambda inputs, attrs: [Spec(TensorShape([]), attrs.get("out_type", _dt.int32))],
             kernel=lambda x, out_type=_dt.int32: np.array(np.size(x), dtype=out_type.np_dtype))
Rank = defop("Rank", inputs=("input",), grad=NO_GRADIENT,
             infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.int32)],
             kernel=lambda x: np.array(np.ndim(x), dtype=np.int32))


def shape(input, out_type=_dt.int32, name=None):
    """`tf.shape`: the dynamic shape as an int32 tensor."""
    x = as_tensor(input)
    out_type = _dt.as_dtype(out_type)
    return bind(Shape, (x,), _NO_ATTRS if out_type is _dt.int32 else {"out_type": out_type})


def size(input, out_type=_dt.int32, name=None):
    x = as_tensor(input)
    out_type = _dt.as_dtype(out_type)
    return bind(Size, (x,), _NO_ATTRS if out_type is _dt.int32 else {"out_type": out_type})


def rank(input, name=None):
    return bind(Rank, (as_tensor(input),))


Shape.jax = lambda x, out_type=_dt.int32: np.array(x.shape, dtype=out_type.np_dtype)
Size.jax = lambda x, out_type=_dt.int32: np.array(int(np.prod(x.shape)), dtype=out_type.np_dtype)
Rank.jax = lambda x: np.array(x.ndim, dtype=np.int32)
