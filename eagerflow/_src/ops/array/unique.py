"""`tf.unique` and `tf.unique_with_counts`: the distinct values of a vector in order of first
appearance, each element's position among them, and (with counts) how often each appears.

The output length depends on the data: under jit_compile=True the input must be known when
compiling (codegen/xla.py then compiles the arguments it comes from in as constants, as
TensorFlow's XLA compiles its data-dependent shapes per value).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop


def _unique_parts(x, out_idx):
    x = np.asarray(x)
    if x.ndim != 1:
        raise InvalidArgumentError(None, None, "unique expects a 1D vector.")
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")  # NumPy sorts the values; TensorFlow keeps first appearances
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    index_type = out_idx.np_dtype
    return values[order], rank[inverse.reshape(-1)].astype(index_type), counts[order].astype(index_type)


def _infer(with_counts):
    def infer(inputs, attrs):
        x = inputs[0]
        if x.shape.rank is not None and x.shape.rank != 1:
            raise InvalidArgumentError(None, None, "unique expects a 1D vector.")
        index_type = attrs.get("out_idx", _dt.int32)
        specs = [Spec(TensorShape([None]), x.dtype), Spec(x.shape, index_type)]
        return specs + [Spec(TensorShape([None]), index_type)] if with_counts else specs
    return infer


Unique = defop("Unique", inputs=("x",), multi_output=True, grad=NO_GRADIENT, infer=_infer(False),
               kernel=lambda x, out_idx=_dt.int32: _unique_parts(x, out_idx)[:2],
               doc="The distinct values of a vector in order of first appearance, and each element's index there.")
UniqueWithCounts = defop("UniqueWithCounts", inputs=("x",), multi_output=True, grad=NO_GRADIENT,
                         infer=_infer(True), kernel=lambda x, out_idx=_dt.int32: _unique_parts(x, out_idx),
                         doc="Unique's outputs and how many times each distinct value appears.")


class UniqueResult(tuple):
    """TensorFlow's named result: `.y`, `.idx` (and `.count`), and unpacks as a tuple."""
    __slots__ = ()
    _fields = ("y", "idx")

    def __new__(cls, *parts):
        return tuple.__new__(cls, parts)

    y = property(lambda self: self[0])
    idx = property(lambda self: self[1])

    def __repr__(self):
        return f"Unique(y={self[0]!r}, idx={self[1]!r})"


class UniqueWithCountsResult(UniqueResult):
    __slots__ = ()
    _fields = ("y", "idx", "count")
    count = property(lambda self: self[2])

    def __repr__(self):
        return f"UniqueWithCounts(y={self[0]!r}, idx={self[1]!r}, count={self[2]!r})"


def unique(x, out_idx=_dt.int32, name=None):
    """`tf.unique`: (y, idx) with x == tf.gather(y, idx)."""
    return UniqueResult(*bind(Unique, (as_tensor(x),), {"out_idx": _dt.as_dtype(out_idx)}))


def unique_with_counts(x, out_idx=_dt.int32, name=None):
    """`tf.unique_with_counts`: (y, idx, count)."""
    return UniqueWithCountsResult(*bind(UniqueWithCounts, (as_tensor(x),), {"out_idx": _dt.as_dtype(out_idx)}))


# --- JAX lowerings: only on values known when compiling (np.asarray raises on a traced one, and
# codegen/xla.py compiles the arguments the input comes from in as constants) ---
Unique.jax = lambda x, out_idx=_dt.int32: list(_unique_parts(np.asarray(x), out_idx)[:2])
UniqueWithCounts.jax = lambda x, out_idx=_dt.int32: list(_unique_parts(np.asarray(x), out_idx))
