"""ListDiff (`tf.compat.v1.setdiff1d`) and `tf.sparse.mask`, which TensorFlow builds from it: the
rows of an IndexedSlices whose indices are not in `mask_indices`.

ListDiff's output length depends on the data: under jit_compile=True its inputs must be known when
compiling (codegen/xla.py compiles the arguments they come from in as constants, as TensorFlow's
XLA does for this op), like Unique (ops/array/unique.py).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop
from ..array.slicing import gather


def _list_diff(x, y, out_idx=_dt.int32):
    x, y = np.asarray(x), np.asarray(y)
    if x.ndim != 1:
        raise InvalidArgumentError(None, None, "x should be a 1D vector.")
    if y.ndim != 1:
        raise InvalidArgumentError(None, None, "y should be a 1D vector.")
    keep = ~np.isin(x, y)
    return x[keep], np.nonzero(keep)[0].astype(out_idx.np_dtype)


def _list_diff_infer(inputs, attrs):
    x = inputs[0]
    return [Spec(TensorShape([None]), x.dtype), Spec(TensorShape([None]), attrs.get("out_idx", _dt.int32))]


ListDiff = defop("ListDiff", inputs=("x", "y"), multi_output=True, kernel=_list_diff, infer=_list_diff_infer,
                 grad=UNREGISTERED_GRADIENT, doc="The values of x not in y, in order, and their positions in x.")
ListDiff.jax = lambda x, y, out_idx=_dt.int32: list(_list_diff(np.asarray(x), np.asarray(y), out_idx))


def setdiff1d(x, y, index_dtype=_dt.int32, name=None):
    """`tf.compat.v1.setdiff1d`: (out, idx) with out = x[idx] the values of x missing from y."""
    x = as_tensor(x)
    y = as_tensor(y, x.dtype)
    return tuple(bind(ListDiff, (x, y), {"out_idx": _dt.as_dtype(index_dtype)}))


def mask(a, mask_indices, name=None):
    """`tf.sparse.mask`: the IndexedSlices `a` without the rows whose index is in mask_indices."""
    out_indices, to_gather = setdiff1d(a.indices, mask_indices)
    # type(a): an IndexedSlices again, without ops/ importing state/ (a higher floor)
    return type(a)(gather(a.values, to_gather), out_indices, a.dense_shape)
