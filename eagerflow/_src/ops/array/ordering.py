"""Ordering: ReverseV2 (tf.reverse), TopKV2 (tf.math.top_k) and the sorts built on it (tf.sort,
tf.argsort), as TensorFlow builds them.

TopKV2 is stable (equal values keep their original order), which is what makes argsort stable. A row
holding a NaN is ordered as TensorFlow's kernel leaves it (nan_ordering.py).
"""
from __future__ import annotations

import collections

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor, static_ints
from ..registry import Spec, bind, defop, static_value
from . import basic as _array
from .nan_ordering import nan_row_order
from . import joining as _joining
from ..math import elementwise as _math
from . import sequences as _sequences
from . import slicing as _slicing
from ..lazy_jax import lax, jnp  # callables that import JAX on first use only


# --- ReverseV2 -----------------------------------------------------------------------------------

def _reverse_axes(axes, r):
    out = []
    for i, a in enumerate(axes):
        if not -r <= a < r:
            raise InvalidArgumentError(None, None, f"'axis'[{i}] = {a} is out of valid range [0, {r - 1}")
        a %= r
        if a in out:
            raise InvalidArgumentError(None, None, f"axis {a} specified more than once.")
        out.append(a)
    return tuple(out)


def _reverse_infer(inputs, attrs):
    x, axis = inputs
    a = static_ints(axis)
    if a is not None and x.shape.rank is not None:
        _reverse_axes(a, x.shape.rank)
    return [Spec(x.shape, x.dtype)]


ReverseV2 = defop("ReverseV2", inputs=("tensor", "axis"), infer=_reverse_infer,
                  kernel=lambda x, axis: np.flip(x, _reverse_axes([int(a) for a in np.ravel(axis)], x.ndim)).copy(),
                  grad=lambda op, g: (reverse(g, op.inputs[1]), None))


def reverse(tensor, axis, name=None):
    return bind(ReverseV2, (as_tensor(tensor), as_int_tensor(axis)))


# --- TopKV2, sort, argsort -------------------------------------------------------------------------

def _top_k_kernel(x, k, sorted=True, index_type=_dt.int32):
    k = int(k)
    if x.ndim < 1:
        raise InvalidArgumentError(None, None, f"input must be >= 1-D, got shape {R.fmt_dims(TensorShape(x.shape))}")
    if k < 0:
        raise InvalidArgumentError(None, None, f"Need k >= 0, got {k}")
    n = x.shape[-1]
    if n < k:
        raise InvalidArgumentError(None, None, f"input must have at least k columns. Had {n}, needed {k}")
    # Stable descending order (equal values keep the lower index first): sort the reversed row
    # ascending, stably, then read it backwards.
    order = np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1][..., :k]
    indices = (n - 1 - order).astype(index_type.np_dtype)
    if x.dtype.kind in "fV" and k:  # rows holding a NaN: where TensorFlow's procedure leaves it
        rows, nan_rows = x.reshape(-1, n), indices.reshape(-1, k)
        for r in np.flatnonzero(np.isnan(rows).any(axis=-1)):
            nan_rows[r] = nan_row_order(rows[r], k)
    return np.take_along_axis(x, indices.astype(np.intp), axis=-1), indices


def _top_k_infer(inputs, attrs):
    x, k = inputs
    R.check_dtype_in("TopKV2", x.dtype, R.REAL_NUMBERS, "input")
    kv = static_value(k)
    index_type = attrs.get("index_type", _dt.int32)
    if x.shape.rank is None:
        return [Spec(TensorShape(None), x.dtype), Spec(TensorShape(None), index_type)]
    if x.shape.rank < 1:
        raise InvalidArgumentError(None, None, f"input must be >= 1-D, got shape {R.fmt_dims(x.shape)}")
    n = x.shape[-1]
    if kv is not None:
        kv = int(kv)
        graph = R.graph_shape_check(inputs)  # the graph shape function's words
        if kv < 0:
            raise InvalidArgumentError(None, None, f"Dimension size, given by scalar input 1, must be non-negative "
                                                   f"but is {kv}" if graph else f"Need k >= 0, got {kv}")
        if n is not None and n < kv:
            raise InvalidArgumentError(None, None, f"input must have last dimension >= k = {kv} but is {n}" if graph
                                       else f"input must have at least k columns. Had {n}, needed {kv}")
    out = TensorShape(list(x.shape[:-1]) + [kv])
    return [Spec(out, x.dtype), Spec(out, index_type)]


def _top_k_grad(op, g, _unused_index_grad=None):
    """Scatter the values' gradient back to the positions the indices name, row by row."""
    x, idx = op.inputs[0], _math.cast(op.outputs[1], _dt.int32)
    n = _slicing.strided_slice(_array.shape(x), [-1], [0], [1], shrink_axis_mask=1)
    k = _slicing.strided_slice(_array.shape(idx), [-1], [0], [1], shrink_axis_mask=1)
    rows = _array.size(x) // _math.maximum(n, 1)
    offsets = _array.reshape(_sequences.range(0, rows) * n, [-1, 1])
    flat = _array.reshape(_array.reshape(idx, _joining.stack([rows, k])) + offsets, [-1, 1])
    dx = _slicing.scatter_nd_to_shape(flat, _array.reshape(g, [-1]), _array.reshape(_array.size(x), [1]))
    return _array.reshape(dx, _array.shape(x)), None


TopKV2 = defop("TopKV2", inputs=("input", "k"), kernel=_top_k_kernel, infer=_top_k_infer, grad=_top_k_grad,
               multi_output=True, doc="The k largest entries of each last-axis row, and their indices (stable).")


def top_k(input, k=1, sorted=True, index_type=_dt.int32, name=None):
    """`tf.math.top_k`: (values, indices); equal values keep their original order."""
    index_type = _dt.as_dtype(index_type)
    attrs = {"sorted": bool(sorted)}
    if index_type is not _dt.int32:
        attrs["index_type"] = index_type
    values, indices = bind(TopKV2, (as_tensor(input), as_int_tensor(k)), attrs)
    return TopKResult(values, indices)


# TensorFlow's named result of top_k: `.values`, `.indices`; a namedtuple, so tf.nest and
# tf.function outputs keep it as one.
TopKResult = collections.namedtuple("TopKV2", ["values", "indices"])


def _sort_along(values, axis, direction, want_indices):
    """sort/argsort as TensorFlow builds them: TopKV2 over the whole last axis, with the axis moved
    last by a transpose, and values flipped by a decreasing map (negation, or bitwise NOT for
    integers so the most negative int does not overflow) for ASCENDING."""
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
                         f"direction={direction}")
    x = as_tensor(values)
    if not isinstance(axis, (int, np.integer)):
        v = static_value(axis) if isinstance(axis, Tensor) else None
        if v is None:
            raise ValueError(f"axis must be a constant scalar, got {axis!r}")
        axis = int(v)
    r = x.shape.rank
    if r is None:
        raise ValueError("sort needs an input of known rank")
    if r == 0:
        raise ValueError(f"Axis {axis} is out of bounds for a tensor of rank 0")
    if not -r <= axis < r:  # TensorFlow reads the axis' size from the shape vector: that slice refuses it
        if state.graph is not None:
            raise ValueError(f"slice index {axis} of dimension 0 out of bounds.")
        raise InvalidArgumentError(None, None, f"slice index {axis} of dimension 0 out of bounds. "
                                               f"[Op:StridedSlice]")
    axis %= r
    perm = None
    if axis != r - 1:
        perm = list(range(r))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = _array.transpose(x, perm)
    flip = (lambda t: _math.invert_(t)) if x.dtype.is_integer else _math.negative
    ascending = direction == "ASCENDING"
    n = x.shape[-1] if x.shape[-1] is not None else _slicing.strided_slice(_array.shape(x), [-1], [0], [1],
                                                                            shrink_axis_mask=1)
    vals, idx = top_k(flip(x) if ascending else x, n)
    out = idx if want_indices else (flip(vals) if ascending else vals)
    return out if perm is None else _array.transpose(out, perm)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    return _sort_along(values, axis, direction, want_indices=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 positions that sort `values` along `axis` (always stable here, as TopKV2 is)."""
    return _sort_along(values, axis, direction, want_indices=True)


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_top_k(x, k, sorted=True, index_type=_dt.int32):  # noqa: A002 - TensorFlow's attribute name
    values, indices = lax.top_k(x, int(k))  # ties: the lower index first, as the kernel
    return values, indices.astype(index_type.np_dtype)


ReverseV2.jax = lambda x, axis: jnp.flip(x, _reverse_axes([int(a) for a in np.ravel(axis)], x.ndim))
TopKV2.jax = _jax_top_k
