"""Picking elements of a tensor by integer indices: GatherV2 (`tf.gather`), GatherNd and ScatterNd (the
gathers' gradient, which sums duplicates), and `tf.boolean_mask` built on them.

StridedSlice (what `x[...]` runs) is in strided_slices.py and re-exported here, where callers import it
from; Slice, Pad's transpose, is in padding.py.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..math import elementwise as _math
from ..math import reduce as _reduce
from ..registry import Spec, bind, defop
from . import basic as _array
from .joining import concat, stack
from .padding import slice  # noqa: F401,A004 - tf.slice, beside Pad (each is the other's gradient)
from .strided_slices import (StridedSlice, StridedSliceGrad, _dense_entries, _err, _ints,  # noqa: F401
                             _is_bool_mask, _numpy_index, _spec_lists, slice_spec_from_key, strided_slice,
                             strided_slice_from_key, strided_slice_grad)


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """`tf.boolean_mask` for a mask over the leading dims: the elements where mask is true."""
    x, m = as_tensor(tensor), as_tensor(mask)
    if m.shape.rank == 0:
        raise ValueError("mask cannot be scalar.")
    if m.shape.rank is None:
        raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                         "E.g. shape=[None] is ok, but shape=None is not.")
    axis = int(axis or 0)  # a negative axis is taken as written, as TensorFlow does (its shape check fails)
    k = m.shape.rank
    if not x.shape[axis:axis + k].is_compatible_with(m.shape):
        raise ValueError(f"Shapes {x.shape[axis:axis + k]} and {m.shape} are incompatible")
    if axis == 0:
        return gather_nd(x, _array.where(m))
    # The masked dimensions merged into one, then the kept positions gathered along it.
    dims = _array.shape(x)
    merged = _array.reshape(x, concat([dims[:axis], [-1], dims[axis + k:]], 0))
    kept = _array.reshape(_array.where(_array.reshape(m, [-1])), [-1])
    return gather(merged, kept, axis=axis)


# --- GatherV2 ---------------------------------------------------------------------------------------

_GATHER_INDEX_TYPES = (_dt.int16, _dt.int32, _dt.int64)


def _check_indices_dtype(op_name, indices, what="Tindices"):
    R.check_dtype_in(op_name, indices.dtype, _GATHER_INDEX_TYPES, "indices", attr=what)


def _gather_axis(axis, rank):
    if axis >= rank:
        raise _err(f"Shape must be at least rank {axis + 1} but is rank {rank}")
    if axis < -rank:
        raise _err(f"Shape must be at least rank {-axis} but is rank {rank}")
    return axis % rank


def _gather_kernel(params, indices, axis, batch_dims=0):
    axis = _gather_axis(int(axis), params.ndim)
    n = params.shape[axis]
    bad = (indices < 0) | (indices >= n)
    if np.any(bad):
        pos = np.argwhere(bad)[0]
        where = f"[{','.join(str(int(p)) for p in pos)}]" if pos.size else ""
        raise _err(f"indices{where} = {int(indices[tuple(pos)])} is not in [0, {n})")
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    # batch_dims > 0: the leading dims of params and indices pair up; gather within each pair.
    lead = params.shape[:batch_dims]
    p = params.reshape((-1,) + params.shape[batch_dims:])
    ix = indices.reshape((-1,) + indices.shape[batch_dims:])
    parts = [np.take(p[b], ix[b], axis=axis - batch_dims) for b in range(p.shape[0])]
    out = np.stack(parts) if parts else np.zeros((0,), params.dtype)
    return out.reshape(lead + out.shape[1:])


def _gather_infer(inputs, attrs):
    params, indices, axis = inputs
    _check_indices_dtype("GatherV2", indices)
    batch_dims = attrs.get("batch_dims", 0)
    a = _ints(axis)
    ps, ishape = params.shape, indices.shape
    if a is None or ps.rank is None or ishape.rank is None:
        return [Spec(TensorShape(None), params.dtype)]
    a = _gather_axis(a[0], ps.rank)
    dims = list(ps[:a]) + list(ishape[batch_dims:]) + list(ps[a + 1:])
    return [Spec(TensorShape(dims), params.dtype)]


def _gather_grad(op, g):
    """A gather along axis 0 gives the rows' gradients as a tf.IndexedSlices (the incoming gradient
    reshaped to one row per index, the indices flattened, the params' shape), as TensorFlow does:
    an embedding table's gradient stays as large as the rows used. Other axes scatter-add the rows
    back into a dense gradient (ScatterNd, which sums duplicates and is differentiable)."""
    params, indices, axis = op.inputs
    if op.attrs.get("batch_dims", 0):
        raise NotImplementedError("gradient of tf.gather with batch_dims > 0 is not supported yet")
    if _ints(axis) == [0]:  # a literal 0 only, as TensorFlow decides (axis=-rank scatters densely)
        return _rows_gradient(params, indices, g), None, None
    pshape = _array.shape(params)
    a = _math.floormod(_math.cast(_array.reshape(axis, []), _dt.int32), _array.rank(params))
    outer = _reduce.reduce_prod(slice(pshape, [0], _array.reshape(a, [1])))
    inner = _reduce.reduce_prod(strided_slice(pshape, _array.reshape(a + 1, [1]), [0], end_mask=1))
    k = _array.size(indices)
    n = _array.reshape(gather(pshape, a), [1])
    g3 = _array.transpose(_array.reshape(g, stack([outer, k, inner])), [1, 0, 2])
    flat = _array.reshape(_math.cast(indices, _dt.int32), stack([k, 1]))
    summed = scatter_nd_to_shape(flat, g3, concat([n, stack([outer, inner])], 0))
    return _array.reshape(_array.transpose(summed, [1, 0, 2]), pshape), None, None


def _rows_gradient(params, indices, g):
    """The IndexedSlices gradient of a gather along axis 0."""
    from ...composite.indexed_slices import IndexedSlices  # composite/ shares this floor
    pshape = _array.shape(params)
    count = _array.reshape(_array.size(indices), [1])
    tail = params.shape[1:] if params.shape.rank else None
    if tail is not None and tail.is_fully_defined() and all(d > 0 for d in tail):  # a static row shape
        values = _array.reshape(g, [-1] + tail.as_list())
    else:
        values = _array.reshape(g, concat([count, strided_slice(pshape, [1], [0], end_mask=1)], 0))
    return IndexedSlices(values, _array.reshape(indices, count), pshape)


GatherV2 = defop("GatherV2", inputs=("params", "indices", "axis"), kernel=_gather_kernel,
                 infer=_gather_infer, grad=_gather_grad,
                 doc="Rows (slices along `axis`) of params picked by integer indices.")


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    p = as_tensor(params)
    ix = as_tensor(indices, _dt.int32)
    axis = batch_dims if axis is None else axis
    attrs = {"batch_dims": int(batch_dims)} if batch_dims else {}
    return bind(GatherV2, (p, ix, as_int_tensor(axis)), attrs)


# --- GatherNd / ScatterNd -----------------------------------------------------------------------------

def _gather_nd_kernel(params, indices):
    depth = indices.shape[-1]
    if depth > params.ndim:
        raise _err(f"index innermost dimension length must be <= params rank; saw: {depth} vs. {params.ndim}")
    flat = indices.reshape(-1, depth)
    limits = np.array(params.shape[:depth])
    bad = np.any((flat < 0) | (flat >= limits), axis=1)
    if np.any(bad):
        i = int(np.argmax(bad))
        coords = ", ".join(str(int(v)) for v in flat[i])
        raise _err(f"indices[{i}] = [{coords}] does not index into param shape "
                   f"{R.fmt_dims(TensorShape(params.shape))}, node name: GatherNd")
    out = params[tuple(flat.T)] if depth else np.broadcast_to(params, (flat.shape[0],) + params.shape)
    return np.array(out.reshape(indices.shape[:-1] + params.shape[depth:]), copy=True)


def _gather_nd_infer(inputs, attrs):
    params, indices = inputs
    _check_indices_dtype("GatherNd", indices)
    ps, ishape = params.shape, indices.shape
    if ishape.rank is None or ishape[-1] is None or ps.rank is None:
        return [Spec(TensorShape(None), params.dtype)]
    depth = ishape[-1]
    if depth > ps.rank:
        R.refuse(f"index innermost dimension length must be <= params rank; saw: {depth} vs. {ps.rank}",
                 f"indices.shape[-1] must be <= params.rank, but saw indices shape: {R.fmt_dims(ishape)} and params "
                 f"shape: {R.fmt_dims(ps)}")
    return [Spec(TensorShape(list(ishape[:-1]) + list(ps[depth:])), params.dtype)]


GatherNd = defop("GatherNd", inputs=("params", "indices"), kernel=_gather_nd_kernel, infer=_gather_nd_infer,
                 grad=lambda op, g: (scatter_nd_to_shape(op.inputs[1], g, _array.shape(op.inputs[0], out_type=op.inputs[1].dtype)), None),
                 doc="Slices of params addressed by the last axis of indices (a coordinate prefix).")


def gather_nd(params, indices, batch_dims=0, name=None):
    if batch_dims:
        raise NotImplementedError("tf.gather_nd with batch_dims > 0 is not supported yet")
    return bind(GatherNd, (as_tensor(params), as_tensor(indices, _dt.int32)))


def _scatter_nd_kernel(indices, updates, shape):
    shape = tuple(int(d) for d in shape)
    depth = indices.shape[-1]
    lead = indices.shape[:-1]
    if updates.shape[:len(lead)] != lead:
        n = len(lead)
        raise _err(f"Dimensions [0,{n}) of indices[shape={R.fmt_dims(TensorShape(indices.shape))}] must match "
                   f"dimensions [0,{n}) of updates[shape={R.fmt_dims(TensorShape(updates.shape))}]")
    if updates.shape[len(lead):] != shape[depth:]:
        raise _err(f"Dimensions [{len(lead)},{updates.ndim}) of updates[shape="
                   f"{R.fmt_dims(TensorShape(updates.shape))}] must match dimensions [{depth},{len(shape)}) of "
                   f"output shape[shape={R.fmt_dims(TensorShape(shape))}]")
    flat = indices.reshape(-1, depth)
    bad = np.any((flat < 0) | (flat >= np.array(shape[:depth], dtype=np.int64)), axis=1)
    if np.any(bad):
        i = int(np.argmax(bad))
        coords = ", ".join(str(int(v)) for v in flat[i])
        raise _err(f"indices[{i}] = [{coords}] does not index into shape {R.fmt_dims(TensorShape(shape))}")
    out = np.zeros(shape, dtype=updates.dtype)
    np.add.at(out, tuple(flat.T), updates.reshape((flat.shape[0],) + shape[depth:]))
    return out


def _scatter_nd_infer(inputs, attrs):
    indices, updates, shape = inputs
    _check_indices_dtype("ScatterNd", indices)
    R.check_same_dtype("ScatterNd", [indices, shape], positions=(0, 2))  # one Tindices for both, as in TF
    dims = _ints(shape)
    if dims is None:
        n = shape.shape[0] if shape.shape.rank == 1 else None
        return [Spec(TensorShape(None if n is None else [None] * n), updates.dtype)]
    if R.building_graph():
        return [Spec(R.graph_shape_from_values(dims), updates.dtype)]
    return [Spec(TensorShape(dims), updates.dtype)]


ScatterNd = defop("ScatterNd", inputs=("indices", "updates", "shape"), kernel=_scatter_nd_kernel,
                  infer=_scatter_nd_infer, grad=lambda op, g: (None, gather_nd(g, op.inputs[0]), None),
                  doc="Zeros of `shape` with updates added at indices (duplicates add up).")


def scatter_nd(indices, updates, shape, name=None):
    """`tf.scatter_nd`: `indices` and a `shape` tensor share one integer dtype (TensorFlow's errors
    otherwise; a Python shape takes the indices' dtype)."""
    ix = as_tensor(indices, _dt.int32)
    return bind(ScatterNd, (ix, as_tensor(updates), as_int_tensor(shape, ix.dtype)))


def scatter_nd_to_shape(indices, updates, shape):
    """`scatter_nd` for gradients and conversions, whose `shape` (a `tf.shape` result, int32) may not
    have the indices' dtype (int64 ids): cast to it first, as the op takes both as its one Tindices
    (and a saved graph holding them mixed would not load in TensorFlow)."""
    ix = as_tensor(indices, _dt.int32)
    dims = as_int_tensor(shape, ix.dtype)
    if dims.dtype is not ix.dtype:
        from .casting import cast
        dims = cast(dims, ix.dtype)
    return bind(ScatterNd, (ix, as_tensor(updates), dims))


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_gather(params, indices, axis, batch_dims=0):
    axis = _gather_axis(int(axis), params.ndim)
    if batch_dims == 0:
        return jnp.take(params, indices, axis=axis)
    import jax  # only ever called while codegen/xla.py compiles (JAX is imported)
    take = lambda p, i: jnp.take(p, i, axis=axis - batch_dims)  # noqa: E731
    for _ in range(batch_dims):
        take = jax.vmap(take)
    return take(params, indices)


def _jax_gather_nd(params, indices):
    depth = indices.shape[-1]
    flat = jnp.reshape(indices, (-1, depth))
    out = params[tuple(flat[:, i] for i in range(depth))] if depth else jnp.broadcast_to(
        params, (flat.shape[0],) + params.shape)
    return jnp.reshape(out, indices.shape[:-1] + params.shape[depth:])


def _jax_scatter_nd(indices, updates, shape):
    shape = tuple(int(d) for d in shape)
    depth = indices.shape[-1]
    flat = jnp.reshape(indices, (-1, depth))
    upd = jnp.reshape(updates, (flat.shape[0],) + shape[depth:])
    return jnp.zeros(shape, updates.dtype).at[tuple(flat[:, i] for i in range(depth))].add(upd)


GatherV2.jax = _jax_gather
GatherNd.jax = _jax_gather_nd
ScatterNd.jax = _jax_scatter_nd
