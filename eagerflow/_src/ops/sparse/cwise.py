"""SparseDenseCwiseMul / SparseDenseCwiseDiv: `sp * dense` and `sp / dense` (SparseTensor's operators),
the dense operand broadcast to the SparseTensor's shape and read at its indices only; the result
keeps the SparseTensor's indices. Gradients as TensorFlow's: w.r.t. the values and the dense operand
(the latter summed back over the broadcast dimensions).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from ..array.joining import concat
from ..operands import as_tensor
from ..registry import Spec, bind, defop
from ..array.slicing import gather_nd, scatter_nd_to_shape
from .conversion import bad, fmt_index


def _at_indices(indices, shape, dense):
    shape = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    try:
        full = np.broadcast_to(dense, shape) if dense.ndim <= len(shape) else None
    except ValueError:
        full = None
    if full is None:
        raise bad(f"SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: "
                  f"{fmt_index(shape)} vs. {fmt_index(dense.shape)}")
    return full[tuple(np.asarray(indices, np.int64).T)] if len(indices) else np.zeros(0, dense.dtype)


def _infer(inputs, attrs):
    indices, values, shape, dense = inputs
    return [Spec(TensorShape([indices.shape.as_list()[0] if indices.shape.rank else None]), values.dtype)]


def _dense_at(op):
    """The dense operand broadcast to the sparse shape, read at the sparse indices; and the indices
    scaled down to the dense operand's own (rank-padded) shape, where its gradient is summed."""
    indices, values, shape, dense = op.inputs
    rank = indices.shape.as_list()[1]
    dense_shape = _array.shape(dense, out_type=_dt.int64)
    ones = _array.ones([rank - (dense.shape.rank or 0)], _dt.int64)
    padded = concat([ones, dense_shape], axis=0)
    scaled = indices // (shape // padded)
    return gather_nd(_array.reshape(dense, padded), scaled), scaled, padded


def _grad(divide):
    def grad(op, g):
        indices, values, shape, dense = op.inputs
        y, scaled, padded = _dense_at(op)
        if divide:
            dx, dy_values = g / y, -g * values / (y * y)
        else:
            dx, dy_values = g * y, g * values
        dy = _array.reshape(scatter_nd_to_shape(scaled, dy_values, padded), _array.shape(dense))
        return None, dx, None, dy
    return grad


SparseDenseCwiseMul = defop("SparseDenseCwiseMul", inputs=("sp_indices", "sp_values", "sp_shape", "dense"),
                            kernel=lambda i, v, s, d: (v * _at_indices(i, s, d)).astype(v.dtype),
                            infer=_infer, grad=_grad(False),
                            doc="The SparseTensor's values times the dense operand (broadcast) at its indices.")
SparseDenseCwiseDiv = defop("SparseDenseCwiseDiv", inputs=("sp_indices", "sp_values", "sp_shape", "dense"),
                            kernel=lambda i, v, s, d: (v / _at_indices(i, s, d)).astype(v.dtype),
                            infer=_infer, grad=_grad(True),
                            doc="The SparseTensor's values over the dense operand (broadcast) at its indices.")


def cwise(op, sp, dense):
    """`sp * dense` / `sp / dense` as a SparseTensor with sp's indices."""
    other = as_tensor(dense, sp.dtype)
    if other.dtype is not sp.dtype:
        other = _math.cast(other, sp.dtype) if not hasattr(dense, "dtype") else other
    values = bind(op, (sp.indices, sp.values, sp.dense_shape, other))
    return sp.__class__._from_parts(sp.indices, values, sp.dense_shape, sp.shape)
