"""`tf.tensor_scatter_nd_update` / `_add` / `_sub` / `_max` / `_min`: a copy of a tensor with
updates written at index tuples (the last axis of `indices` addresses a prefix of its dimensions).

Why beside ops/array/slicing.py's ScatterNd (zeros plus updates): these start from a given tensor and
combine with it, which is what users write for "this tensor, but with these entries replaced".
Repeated indices: `update` keeps the last update (TensorFlow's CPU kernel writes in order), the
others combine all of them. Gradients: the tensor's gradient passes where it was not overwritten
(update) or where it was the extreme (max/min, split between ties as TensorFlow splits them);
the updates' gradients are the output gradient gathered at their indices.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop
from ..lazy_jax import jnp  # callables that import JAX on first use only

_INDEX_TYPES = (_dt.int32, _dt.int64)


def _err(message):
    return InvalidArgumentError(None, None, message)


def _flat_indices(tensor, indices, updates):
    """indices as [n, depth] after TensorFlow's checks (shapes, range); updates as [n, ...slice]."""
    depth = indices.shape[-1] if indices.ndim else 0
    lead = indices.shape[:-1]
    slice_shape = tensor.shape[depth:]
    if tensor.ndim == 0 and indices.ndim and int(np.prod(lead, dtype=np.int64)):
        raise _err("Indices and updates specified for empty output shape")
    if indices.ndim == 0 or depth > tensor.ndim or updates.shape != lead + slice_shape:
        raise _err(f"Outer dimensions of indices and update must match. Indices shape: "
                   f"{R.fmt_dims(TensorShape(indices.shape))}, updates shape:{R.fmt_dims(TensorShape(updates.shape))}")
    flat = indices.reshape(int(np.prod(lead, dtype=np.int64)), depth).astype(np.int64)
    bad = np.any((flat < 0) | (flat >= np.array(tensor.shape[:depth], dtype=np.int64)), axis=1)
    if np.any(bad):
        i = int(np.argmax(bad))
        coords = ", ".join(str(int(v)) for v in flat[i])
        raise _err(f"indices[{i}] = [{coords}] does not index into shape {R.fmt_dims(TensorShape(tensor.shape))}")
    return flat, updates.reshape((flat.shape[0],) + slice_shape)


def _kernel(combine):
    def kernel(tensor, indices, updates):
        flat, rows = _flat_indices(tensor, np.asarray(indices), np.asarray(updates))
        out = np.array(tensor, copy=True)
        where = tuple(flat.T)
        if combine is None:  # update: the last write to a place wins (keep each place's last row)
            places = np.ravel_multi_index(tuple(flat.T), tensor.shape[:flat.shape[1]]) if flat.shape[1] else \
                np.zeros(flat.shape[0], np.int64)
            _, last_from_end = np.unique(places[::-1], return_index=True)
            keep = flat.shape[0] - 1 - last_from_end
            out[tuple(flat[keep].T)] = rows[keep]
        else:
            combine.at(out, where, rows)
        return out
    return kernel


def _infer(op_name):
    def infer(inputs, attrs):
        tensor, indices, updates = inputs
        R.check_dtype_in(op_name, indices.dtype, _INDEX_TYPES, "indices", attr="Tindices")
        if updates.dtype is not tensor.dtype:  # (tensor, tensor, updates): the message names input #2, as TF's
            R.check_same_dtype(op_name, (tensor, tensor, updates))
        return [Spec(tensor.shape, tensor.dtype)]
    return infer


def _gathered(g, indices):
    from .slicing import gather_nd
    return gather_nd(g, indices)


def _update_grad(op, g):
    from .basic import zeros_like
    tensor, indices, updates = op.inputs
    return bind(TensorScatterUpdate, (g, indices, zeros_like(updates))), None, _gathered(g, indices)


def _add_grad(op, g):
    return g, None, _gathered(g, op.inputs[1])


def _sub_grad(op, g):
    from ..math.elementwise import negative
    return g, None, negative(_gathered(g, op.inputs[1]))


def _extreme_grad(op, g):
    """Where the output equals the tensor and/or an update, those share the gradient evenly."""
    from ..math.elementwise import cast, equal
    from .slicing import scatter_nd_to_shape
    from .basic import shape
    tensor, indices, updates = op.inputs
    out = op.outputs[0]
    from_tensor = cast(equal(tensor, out), g.dtype)
    from_updates = cast(equal(updates, _gathered(out, indices)), g.dtype)
    sharing = from_tensor + scatter_nd_to_shape(indices, from_updates, shape(tensor, out_type=indices.dtype))
    return g * from_tensor / sharing, None, _gathered(g / sharing, indices) * from_updates


def _scatter_op(name, combine, grad, doc):
    return defop(name, inputs=("tensor", "indices", "updates"), kernel=_kernel(combine), infer=_infer(name),
                 grad=grad, doc=doc)


TensorScatterUpdate = _scatter_op("TensorScatterUpdate", None, _update_grad,
                                  "A copy of `tensor` with `updates` written at `indices` (the last write wins).")
TensorScatterAdd = _scatter_op("TensorScatterAdd", np.add, _add_grad,
                               "A copy of `tensor` with `updates` added at `indices`.")
TensorScatterSub = _scatter_op("TensorScatterSub", np.subtract, _sub_grad,
                               "A copy of `tensor` with `updates` subtracted at `indices`.")
TensorScatterMax = _scatter_op("TensorScatterMax", np.maximum, _extreme_grad,
                               "A copy of `tensor`, each place at `indices` the maximum of it and its updates.")
TensorScatterMin = _scatter_op("TensorScatterMin", np.minimum, _extreme_grad,
                               "A copy of `tensor`, each place at `indices` the minimum of it and its updates.")


def _public(opdef, name, what):
    def scatter(tensor, indices, updates, name=None):
        t = as_tensor(tensor)
        return bind(opdef, (t, as_tensor(indices, _dt.int32), as_tensor(updates, t.dtype)))
    scatter.__name__ = scatter.__qualname__ = name
    scatter.__doc__ = f"`tf.{name}`: `tensor` with the places at `indices` {what} `updates`."
    return scatter


tensor_scatter_nd_update = _public(TensorScatterUpdate, "tensor_scatter_nd_update", "replaced by")
tensor_scatter_nd_add = _public(TensorScatterAdd, "tensor_scatter_nd_add", "plus")
tensor_scatter_nd_sub = _public(TensorScatterSub, "tensor_scatter_nd_sub", "minus")
tensor_scatter_nd_max = _public(TensorScatterMax, "tensor_scatter_nd_max", "the maximum of themselves and")
tensor_scatter_nd_min = _public(TensorScatterMin, "tensor_scatter_nd_min", "the minimum of themselves and")

# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax(method):
    def lower(tensor, indices, updates):
        depth = indices.shape[-1]
        flat = indices.reshape(int(np.prod(indices.shape[:-1], dtype=np.int64)), depth)
        rows = updates.reshape((flat.shape[0],) + tuple(tensor.shape[depth:]))
        at = jnp.asarray(tensor).at[tuple(flat[:, i] for i in range(depth))]  # a folded constant is NumPy
        return at.add(-rows) if method == "subtract" else getattr(at, method)(rows)
    return lower


TensorScatterUpdate.jax = _jax("set")
TensorScatterAdd.jax = _jax("add")
TensorScatterSub.jax = _jax("subtract")
TensorScatterMax.jax = _jax("max")
TensorScatterMin.jax = _jax("min")
