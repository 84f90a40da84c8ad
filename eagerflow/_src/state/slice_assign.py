"""`v[1:3].assign(x)`: writing a slice of a variable (TensorFlow's ResourceStridedSliceAssign).

In TensorFlow, indexing a variable returns an ordinary tensor (a snapshot of the slice) to which an
`assign` method was attached. Our tensors have fixed slots, so the slice tensor's class becomes a
slot-free subclass that adds `assign`, and where it came from (the variable and the slice spec) is
kept in a side table whose entries die with the tensor: each entry is found by id() but holds a weak
reference to its tensor, checked on lookup and removed by its callback, so a reused id never finds a
stale entry. An entry holds its variable strongly, as TF's attached closure does, and nothing else
holds the entry.

The write is a stateful op like `assign`, with no gradient; reads after it see the new value, and
their gradient still reaches the variable through ReadVariableOp.
"""
from __future__ import annotations

import weakref

import numpy as np

from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.update_locks import locked_update
from ..ops.registry import NO_GRADIENT, bind, defop
from ..ops.array.slicing import (StridedSlice, _dense_entries, _is_bool_mask, _numpy_index, _spec_lists, boolean_mask,
                           slice_spec_from_key)

_ORIGINS = {}  # id(slice tensor) -> (weakref to it, variable, begin, end, strides, attrs)


@locked_update
def _strided_slice_assign(var, begin, end, strides, value, **attrs):
    params = var._array
    index = _numpy_index(params.shape, *_spec_lists(begin, end, strides), attrs)
    target = params[index].shape
    try:
        value = np.broadcast_to(value, target)
    except ValueError:
        raise InvalidArgumentError(None, None, f"Cannot broadcast input shape [{','.join(map(str, np.shape(value)))}] "
                                               f"into final shape [{','.join(map(str, target))}]") from None
    out = params.copy()
    out[index] = value
    var._array = out
    return []


ResourceStridedSliceAssign = defop(
    "ResourceStridedSliceAssign", inputs=("ref", "begin", "end", "strides", "value"), kernel=_strided_slice_assign,
    infer=lambda inputs, attrs: [], grad=NO_GRADIENT, multi_output=True, stateful=True,
    doc="Writes a strided slice of a variable (`v[1:3].assign(x)`).")


def _assign(self, value, name=None):
    """Writes `value` (broadcast to the slice's shape) into the variable this slice was read from;
    returns the variable."""
    entry = _ORIGINS.get(id(self))
    if entry is None or entry[0]() is not self:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute 'assign'")
    _, var, begin, end, strides, attrs = entry
    value = convert_to_tensor(value, dtype=var.dtype)
    bind(ResourceStridedSliceAssign, (var.handle, begin, end, strides, value), attrs)
    return var


_SLICE_CLASSES = {}  # tensor class -> its slot-free subclass with `assign`


def _assignable(cls):
    sub = _SLICE_CLASSES.get(cls)
    if sub is None:  # setdefault: threads racing here agree on one class
        sub = _SLICE_CLASSES.setdefault(cls, type(f"{cls.__name__}VariableSlice", (cls,), {
            "__slots__": (), "assign": _assign, "__module__": __name__,
            "__doc__": "A slice read from a variable: a tensor that can also be assigned to."}))
    return sub


def _forget(key, ref):
    entry = _ORIGINS.get(key)
    if entry is not None and entry[0] is ref:
        del _ORIGINS[key]


def slice_of(variable, key):
    """`variable[key]`: the slice's value, as a tensor with an `assign` method (a boolean mask
    gives a plain tensor, as in TensorFlow)."""
    read = variable._as_tensor()
    if _is_bool_mask(key):
        return boolean_mask(read, key)
    begin, end, strides, attrs = slice_spec_from_key(key)
    t = bind(StridedSlice, (read, begin, end, strides), attrs)
    t.__class__ = _assignable(type(t))
    k = id(t)
    _ORIGINS[k] = (weakref.ref(t, lambda r, k=k: _forget(k, r)), variable, begin, end, strides, attrs)
    return t


# --- JAX lowering (jit_compile=True, codegen/xla.py): the variable's new value, the slice replaced.
# begin/end/strides are known at trace time (XLA needs static slices, as TensorFlow's does). ---
from ..ops.lazy_jax import jnp  # noqa: E402 - callables that import JAX on first use only


def _jax_strided_slice_assign(params, begin, end, strides, value, **attrs):
    if not isinstance(begin, (np.ndarray, np.generic)):  # v[t].assign(x) with t a loop counter
        return [], {0: _jax_dynamic_rows_assign(jnp.asarray(params), begin, strides, value, attrs)}
    index = _numpy_index(params.shape, *_spec_lists(begin, end, strides), attrs)
    target = np.broadcast_to(np.zeros((), bool), params.shape)[index].shape  # no memory: a view
    if not _broadcastable(np.shape(value), target):
        raise InvalidArgumentError(None, None, f"Cannot broadcast input shape [{','.join(map(str, np.shape(value)))}] "
                                               f"into final shape [{','.join(map(str, target))}]")
    new = jnp.asarray(params).at[index].set(jnp.broadcast_to(value, target).astype(params.dtype))
    return [], {0: new}


def _jax_dynamic_rows_assign(params, begin, strides, value, attrs):
    """`v[i].assign(x)`, `v[i, :, j]...` with indices known only at run time: every sliced dim is
    a single index (the others whole), so the write is one XLA dynamic-update-slice. Indices out
    of range are clamped into it, as XLA's dynamic slices do."""
    from jax import lax
    strides = np.asarray(strides) if isinstance(strides, (np.ndarray, np.generic)) else None
    bit = lambda name, i: (attrs.get(name, 0) >> i) & 1  # noqa: E731
    starts, target = [], []
    for entry in _dense_entries(params.ndim, len(begin), attrs):
        whole = entry[0] == "range" and (entry[1] is None or (
            bit("begin_mask", entry[1]) and bit("end_mask", entry[1]) and strides is not None
            and strides[entry[1]] == 1))
        if strides is None or not (whole or (entry[0] == "shrink" and strides[entry[1]] == 1)):
            raise InvalidArgumentError(None, None, "XLA compilation of a variable slice assignment with indices known "
                                                   "only at run time supports single indices and whole dims "
                                                   "(v[i], v[i, :]); make the slice bounds constants.")
        size = params.shape[entry[2]]
        if whole:
            starts.append(jnp.zeros((), begin.dtype))
            target.append(size)
        else:
            b = begin[entry[1]]
            starts.append(jnp.where(b < 0, b + size, b))
    update = jnp.broadcast_to(value, tuple(target)).astype(params.dtype)
    full_shape = [1 if e[0] == "shrink" else params.shape[e[2]]
                  for e in _dense_entries(params.ndim, len(begin), attrs)]
    return lax.dynamic_update_slice(params, jnp.reshape(update, full_shape), starts)


def _broadcastable(shape, target):
    try:
        np.broadcast_shapes(shape, target)
    except ValueError:
        return False
    return np.broadcast_shapes(shape, target) == tuple(target)


_jax_strided_slice_assign.updates_variables = True
ResourceStridedSliceAssign.jax = _jax_strided_slice_assign
