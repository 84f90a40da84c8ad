"""A Variable's row-wise reads and updates: sparse_read, gather_nd, scatter_* (with tf.IndexedSlices),
scatter_nd_*, and count_up_to.

The reads are ordinary gathers of the variable's value, so their gradient reaches the variable
through ReadVariableOp (dense, where TensorFlow returns IndexedSlices for sparse_read: the same
numbers). The updates are stateful ops on the handle (TensorFlow's Resource* op names), one
definition each for eager calls and traced graphs; like `assign`, they replace the array instead of
writing into it, so a tensor read earlier keeps its value. Checks and messages follow TF 2.21's
kernels; TF's CPU kernel writes past a row for updates of the wrong width, we refuse them.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError, OutOfRangeError
from ..core.tensor import Tensor
from ..core.update_locks import locked_update
from ..ops.registry import NO_GRADIENT, Spec, bind, defop
from ..composite.indexed_slices import IndexedSlices

_INDEX_DTYPES = (np.int32, np.int64)


def _err(message):
    return InvalidArgumentError(None, None, message)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


# How TensorFlow's attr errors name a dtype (DT_FLOAT is "float").
_ATTR_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _check_indices(indices, attr="Tindices"):
    if indices.dtype not in _INDEX_DTYPES:
        name = _dt.from_numpy(indices.dtype).name
        raise _err(f"Value for attr '{attr}' of {_ATTR_NAMES.get(name, name)} is not in the list of allowed values: "
                   f"int32, int64")


# --- scatter_*: rows chosen by a vector of indices -----------------------------------------------

def _scatter_kernel(apply):
    @locked_update
    def kernel(var, indices, updates):
        params = var._array
        _check_indices(indices)
        want = tuple(indices.shape) + params.shape[1:]
        if updates.shape != () and updates.shape != want:
            raise _err(f"Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got "
                       f"updates.shape {_dims(updates.shape)}, indices.shape {_dims(indices.shape)}, params.shape "
                       f"{_dims(params.shape)}")
        flat = np.ravel(indices)
        for i, index in enumerate(flat):
            if not 0 <= index < params.shape[0]:
                raise _err(f"indices[{i}] = {index} is not in [0, {params.shape[0]})")
        out = params.copy()
        apply(out, indices, np.broadcast_to(updates, want).astype(params.dtype, copy=False))
        var._array = out
        return []
    return kernel


def _update(out, indices, updates):
    out[indices] = updates  # repeated indices: the last update wins


def _divide(out, indices, updates):
    if not np.all(updates):
        raise _err("updates must not contain 0")
    if out.dtype.kind in "iu":
        np.floor_divide.at(out, indices, updates)
    else:
        np.divide.at(out, indices, updates)


_SCATTER_RULES = {
    "ResourceScatterUpdate": _update,
    "ResourceScatterAdd": lambda out, i, u: np.add.at(out, i, u),
    "ResourceScatterSub": lambda out, i, u: np.subtract.at(out, i, u),
    "ResourceScatterMul": lambda out, i, u: np.multiply.at(out, i, u),
    "ResourceScatterDiv": _divide,
    "ResourceScatterMax": lambda out, i, u: np.maximum.at(out, i, u),
    "ResourceScatterMin": lambda out, i, u: np.minimum.at(out, i, u),
}


def _no_outputs(inputs, attrs):
    return []


SCATTER_OPS = {name: defop(name, inputs=("resource", "indices", "updates"), kernel=_scatter_kernel(rule),
                           infer=_no_outputs, grad=NO_GRADIENT, multi_output=True, stateful=True,
                           doc="Updates rows of a variable chosen by indices (tf.Variable.scatter_*).")
               for name, rule in _SCATTER_RULES.items()}


# --- scatter_nd_*: elements or slices chosen by index tuples -------------------------------------

def _scatter_nd_kernel(apply):
    @locked_update
    def kernel(var, indices, updates):
        params = var._array
        _check_indices(indices)
        k = indices.shape[-1] if indices.ndim else 0
        batch = indices.shape[:-1]
        b = len(batch)
        if updates.shape[:b] != batch:
            raise _err(f"Dimensions [0,{b}) of indices[shape={_dims(indices.shape)}] = {_dims(batch)[1:-1]} must "
                       f"match dimensions [0,{b}) of updates[shape={_dims(updates.shape)}] = "
                       f"{_dims(updates.shape[:b])[1:-1]}")
        if k > params.ndim or updates.shape[b:] != params.shape[k:]:
            raise _err(f"Dimensions [{k},{params.ndim}) of input[shape={_dims(params.shape)}] must match dimensions "
                       f"[{b},{updates.ndim}) of updates[shape={_dims(updates.shape)}]")
        rows = indices.reshape(-1, k)
        for i, row in enumerate(rows):
            if any(not 0 <= j < d for j, d in zip(row, params.shape)):
                raise _err(f"indices[{i}] = {_dims(row.tolist()).replace(',', ', ')} does not index into shape "
                           f"{_dims(params.shape)}")
        out = params.copy()
        where = tuple(rows.T)
        apply(out, where, updates.reshape((len(rows),) + params.shape[k:]).astype(params.dtype, copy=False))
        var._array = out
        return []
    return kernel


_SCATTER_ND_RULES = {
    "ResourceScatterNdUpdate": _update,
    "ResourceScatterNdAdd": lambda out, i, u: np.add.at(out, i, u),
    "ResourceScatterNdSub": lambda out, i, u: np.subtract.at(out, i, u),
    "ResourceScatterNdMax": lambda out, i, u: np.maximum.at(out, i, u),
    "ResourceScatterNdMin": lambda out, i, u: np.minimum.at(out, i, u),
}

SCATTER_ND_OPS = {name: defop(name, inputs=("ref", "indices", "updates"), kernel=_scatter_nd_kernel(rule),
                              infer=_no_outputs, grad=NO_GRADIENT, multi_output=True, stateful=True,
                              doc="Updates elements or slices of a variable chosen by index tuples "
                                  "(tf.Variable.scatter_nd_*).")
                  for name, rule in _SCATTER_ND_RULES.items()}


# --- count_up_to ----------------------------------------------------------------------------------

@locked_update
def _count_up_to(var, limit):
    value = var._array
    _check_indices(value, "T")
    if value >= limit:
        raise OutOfRangeError(None, None, f"Reached limit of {limit}")
    var._array = np.asarray(value + 1, dtype=value.dtype)
    return np.array(value, copy=True)


def _count_infer(inputs, attrs):
    from ..ops.variables.resource import _var_spec
    shape, dtype = _var_spec(inputs[0])
    return [Spec(shape, dtype)]


ResourceCountUpTo = defop("ResourceCountUpTo", inputs=("resource",), kernel=_count_up_to, infer=_count_infer,
                          grad=NO_GRADIENT, stateful=True,
                          doc="Increments an integer variable until `limit`; returns the value before.")


class SparseUpdates:
    """The Variable methods of this module (mixed into Variable; `self` is the variable)."""

    __slots__ = ()

    def sparse_read(self, indices, name=None):
        from ..ops.array.slicing import gather
        return gather(self._as_tensor(), indices)

    def gather_nd(self, indices, name=None):
        from ..ops.array.slicing import gather_nd
        return gather_nd(self._as_tensor(), indices)

    def _scatter(self, op_name, sparse_delta):
        if not isinstance(sparse_delta, IndexedSlices):
            shown = np.asarray(sparse_delta) if not isinstance(sparse_delta, Tensor) else sparse_delta.numpy()
            if isinstance(sparse_delta, (list, tuple)):
                shown = sparse_delta
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: {shown}")
        values = convert_to_tensor(sparse_delta.values, dtype=self._dtype)
        indices = convert_to_tensor(sparse_delta.indices)
        bind(SCATTER_OPS[op_name], (self._handle, indices, values))
        return self

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterUpdate", sparse_delta)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterAdd", sparse_delta)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterSub", sparse_delta)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterMul", sparse_delta)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterDiv", sparse_delta)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterMax", sparse_delta)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterMin", sparse_delta)

    def _scatter_nd(self, op_name, indices, updates):
        indices = convert_to_tensor(indices)
        updates = convert_to_tensor(updates, dtype=self._dtype)
        bind(SCATTER_ND_OPS[op_name], (self._handle, indices, updates))
        return self

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdUpdate", indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdAdd", indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdSub", indices, updates)

    def scatter_nd_max(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdMax", indices, updates)

    def scatter_nd_min(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdMin", indices, updates)

    def count_up_to(self, limit):
        """Deprecated in TensorFlow (use Dataset.range), kept because old input pipelines call it."""
        return bind(ResourceCountUpTo, (self._handle,), {"limit": int(limit)})


# --- JAX lowerings (jit_compile=True, codegen/xla.py): the new value of the variable, as XLA's
# scatter. As in TensorFlow's XLA kernels (checked against TF 2.21): no range checks, an index out of
# [0, rows) (negative ones too) drops its update, a repeated index of an update keeps the last update,
# and division by zero gives inf instead of an error. ResourceCountUpTo has no XLA kernel in
# TensorFlow either: under jit_compile=True it is refused with TensorFlow's message. ---
from ..ops.lazy_jax import jnp  # noqa: E402 - callables that import JAX on first use only


def _jax_dropping_negatives(indices, rows):
    """Indices with the negative ones moved out of range (JAX would count them from the end)."""
    return jnp.where(indices < 0, rows, indices)


def _jax_last_wins(flat, rows):
    """`flat` with every update but the last to the same row moved out of range (XLA's scatter does
    not say which of repeated updates lands)."""
    positions = jnp.arange(flat.shape[0])
    last = jnp.full((rows + 1,), -1).at[flat].max(positions, mode="drop")
    return jnp.where(last[jnp.clip(flat, 0, rows)] == positions, flat, rows)


def _jax_apply(name, params, where, updates):
    """The scatter named by `name` (Update/Add/Sub/Mul/Div/Max/Min) of `updates` at `where`."""
    at = params.at[where]
    kind = name.replace("ResourceScatter", "").replace("Nd", "")
    if kind == "Update":
        return at.set(updates, mode="drop")
    if kind == "Add":
        return at.add(updates, mode="drop")
    if kind == "Sub":
        return at.add(-updates, mode="drop")
    if kind == "Max":
        return at.max(updates, mode="drop")
    if kind == "Min":
        return at.min(updates, mode="drop")
    factor = jnp.ones_like(params).at[where].multiply(updates, mode="drop")
    if kind == "Mul":
        return params * factor
    if params.dtype.kind in "iu":  # repeated divisors: one division by their product
        return jnp.floor_divide(params, factor)
    return params / factor


def _jax_scatter(name):
    def lowering(params, indices, updates):
        params = jnp.asarray(params)  # a value known at trace time is a NumPy array
        rows = params.shape[0]
        want = tuple(indices.shape) + tuple(params.shape[1:])
        flat = _jax_dropping_negatives(jnp.ravel(indices), rows)
        updates = jnp.reshape(jnp.broadcast_to(updates, want).astype(params.dtype), (flat.shape[0],) + want[indices.ndim:])
        if name == "ResourceScatterUpdate":
            flat = _jax_last_wins(flat, rows)
        return [], {0: _jax_apply(name, params, flat, updates)}
    lowering.updates_variables = True
    return lowering


def _jax_scatter_nd(name):
    def lowering(params, indices, updates):
        params = jnp.asarray(params)
        k = indices.shape[-1]
        rows = jnp.reshape(indices, (-1, k))
        out_of_range = jnp.any((rows < 0) | (rows >= jnp.asarray(params.shape[:k], dtype=rows.dtype)), axis=1)
        count = 1
        for d in params.shape[:k]:
            count *= d
        flat = jnp.where(out_of_range, count, jnp.ravel_multi_index(tuple(rows.T), params.shape[:k], mode="clip"))
        if name == "ResourceScatterNdUpdate":
            flat = _jax_last_wins(flat, count)
        updates = jnp.reshape(updates, (rows.shape[0],) + tuple(params.shape[k:])).astype(params.dtype)
        new = _jax_apply(name, jnp.reshape(params, (count,) + tuple(params.shape[k:])), flat, updates)
        return [], {0: jnp.reshape(new, params.shape)}
    lowering.updates_variables = True
    return lowering


for _name, _op in SCATTER_OPS.items():
    _op.jax = _jax_scatter(_name)
for _name, _op in SCATTER_ND_OPS.items():
    _op.jax = _jax_scatter_nd(_name)
