"""The SparseTensor <-> dense ops and the index checks every sparse kernel shares.

SparseToDense (tf.sparse.to_dense; TensorFlow's XLA compiles it, so it has a JAX lowering),
SparseReorder (tf.sparse.reorder), and the compositions `from_dense` (Where + GatherNd + Shape, as
TensorFlow builds it) and `retain` (a gather of the kept entries). A sparse op takes its operand's
three parts as inputs and returns the parts of its result: a SparseTensor is never an op input.
"""
from __future__ import annotations

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from ..operands import as_tensor
from ..math.reduce import reduce_sum
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from ..array import sequences as _sequences
from ..array.slicing import gather, gather_nd, scatter_nd_to_shape

# --- index checks (TensorFlow's words) ---------------------------------------------------------


def fmt_index(row) -> str:
    return "[" + ",".join(str(int(v)) for v in row) + "]"


def bad(message):
    return InvalidArgumentError(None, None, message)


def linear(indices, shape):
    """Each index's position in row-major order of `shape` (the order sparse ops expect)."""
    if indices.shape[0] == 0 or len(shape) == 0:
        return np.zeros(indices.shape[0], np.int64)
    strides = np.append(np.cumprod(np.asarray(shape[1:], np.int64)[::-1])[::-1], 1)  # prod(shape[i + 1:])
    return indices.astype(np.int64) @ strides


def check_indices(indices, shape, ordered=True):
    """TensorFlow's SparseToDense validation: each index in bounds, and (ordered) strictly
    increasing in row-major order, naming the first offender as its kernel does."""
    shape = np.asarray(shape, np.int64)
    for i in range(indices.shape[0]):
        row = indices[i]
        if np.any(row < 0) or np.any(row >= shape):
            raise bad(f"indices[{i}] = {fmt_index(row)} is out of bounds: need 0 <= index < {fmt_index(shape)}")
        if ordered and i > 0:
            prev = indices[i - 1]
            diff = np.nonzero(row != prev)[0]
            if diff.size == 0:
                raise bad(f"indices[{i}] = {fmt_index(row)} is repeated")
            if row[diff[0]] < prev[diff[0]]:
                raise bad(f"indices[{i}] = {fmt_index(row)} is out of order. Many sparse ops require sorted "
                          f"indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n")


def as_sparse(value, what="Input"):
    if not isinstance(value, SparseTensor):
        raise TypeError(f"{what} must be a SparseTensor.")
    return value


def known_dims(tensor):
    """A shape tensor's value as a list of ints where it is known at trace time, else None."""
    value = static_value(tensor)
    return None if value is None else [int(v) for v in np.asarray(value).reshape(-1)]


def unknown_dims(shape_tensor):
    n = shape_tensor.shape.as_list()[0] if shape_tensor.shape.rank == 1 else None
    return TensorShape(None if n is None else [None] * n)


# --- SparseToDense -----------------------------------------------------------------------------

def _to_dense_kernel(indices, output_shape, values, default_value, validate_indices=True):
    shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
    indices = np.asarray(indices, np.int64)
    if indices.ndim < 2:
        indices = indices.reshape(-1, 1)
    values = np.asarray(values)
    if validate_indices:
        check_indices(indices, shape)
    elif indices.size and (np.any(indices < 0) or np.any(indices >= np.asarray(shape, np.int64))):
        raise bad(f"Indices are not valid (out of bounds).  Shape: {fmt_index(shape)}")
    out = np.full(shape, default_value, dtype=values.dtype)
    if indices.shape[0]:
        out[tuple(indices.T)] = np.broadcast_to(values, (indices.shape[0],))
    return out


def _to_dense_infer(inputs, attrs):
    indices, output_shape, values, default_value = inputs
    if values.dtype is not default_value.dtype:
        raise bad(f"Expected default_value of type {values.dtype.name}, got {default_value.dtype.name}")
    dims = known_dims(output_shape)
    return [Spec(TensorShape(dims) if dims is not None else unknown_dims(output_shape), values.dtype)]


def _to_dense_grad(op, g):
    indices, _, values, _ = op.inputs
    values_grad = gather_nd(g, indices)
    return None, None, values_grad, reduce_sum(g) - reduce_sum(values_grad)


def _jax_to_dense(indices, output_shape, values, default_value, validate_indices=True):
    from ..lazy_jax import jnp
    shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
    idx = jnp.reshape(indices, (-1, len(shape)))
    out = jnp.full(shape, default_value, values.dtype)
    return out.at[tuple(idx[:, i] for i in range(len(shape)))].set(jnp.broadcast_to(values, (idx.shape[0],)))


SparseToDense = defop("SparseToDense", inputs=("sparse_indices", "output_shape", "sparse_values", "default_value"),
                      kernel=_to_dense_kernel, infer=_to_dense_infer, grad=_to_dense_grad, jax=_jax_to_dense,
                      doc="A dense array of default_value with the values written at the indices.")


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """`tf.sparse.to_dense`: the dense array; indices must be sorted and unique unless
    validate_indices=False (then the last of repeated indices wins)."""
    sp = as_sparse(sp_input)
    dtype = sp.dtype
    if default_value is None:
        default = _array.zeros([], dtype) if dtype is not _dt.string else _array.constant("", _dt.string)
    elif hasattr(default_value, "dtype"):
        default = as_tensor(default_value)
    else:  # a Python number takes the values' dtype (TensorFlow: default_value=1 for float values)
        default = _array.constant(default_value, dtype)
    return bind(SparseToDense, (sp.indices, sp.dense_shape, sp.values, default),
                {"validate_indices": bool(validate_indices)})


# --- from_dense (a composition, as TensorFlow's) -----------------------------------------------

def from_dense(tensor, name=None):
    """`tf.sparse.from_dense`: the non-zero (non-empty for strings) entries of a dense tensor."""
    x = as_tensor(tensor)
    zero = _array.zeros([], x.dtype) if x.dtype is not _dt.string else _array.constant("", _dt.string)
    indices = _array.where(_math.not_equal(x, zero))
    values = gather_nd(x, indices)
    dense_shape = _array.shape(x, out_type=_dt.int64)
    return SparseTensor._from_parts(indices, values, dense_shape, x.shape)


# --- SparseReorder -----------------------------------------------------------------------------

def _reorder_kernel(indices, values, shape):
    order = np.argsort(linear(indices, np.asarray(shape).reshape(-1)), kind="stable")
    return indices[order], values[order]


def _reorder_infer(inputs, attrs):
    indices, values, shape = inputs
    return [Spec(indices.shape, _dt.int64), Spec(values.shape, values.dtype)]


def _reorder_grad(op, g_indices, g_values):
    """Each value's gradient is the reordered gradient at the position the value moved to
    (TensorFlow's rule: reorder the positions 0..N-1 alongside, and send the gradient back)."""
    indices, values, shape = op.inputs
    _, moved = bind(SparseReorder, (indices, _sequences.range(_array.shape(values, out_type=_dt.int64)[0],
                                                              dtype=_dt.int64), shape))
    return None, scatter_nd_to_shape(_array.expand_dims(moved, 1), g_values, _array.shape(values, out_type=_dt.int64)), None


SparseReorder = defop("SparseReorder", inputs=("input_indices", "input_values", "input_shape"), multi_output=True,
                      kernel=_reorder_kernel, infer=_reorder_infer, grad=_reorder_grad,
                      doc="The same entries with the indices in row-major (canonical) order.")


def reorder(sp_input, name=None):
    """`tf.sparse.reorder`: canonical row-major order (stable for repeated indices)."""
    sp = as_sparse(sp_input)
    indices, values = bind(SparseReorder, (sp.indices, sp.values, sp.dense_shape))
    return SparseTensor._from_parts(indices, values, sp.dense_shape, sp.shape)


def retain(sp_input, to_retain):
    """`tf.sparse.retain`: the entries where `to_retain` (bool [N]) is True, in order."""
    sp = as_sparse(sp_input)
    keep = as_tensor(to_retain, _dt.bool_)
    n = sp.indices.shape.as_list()[0] if sp.indices.shape.rank else None
    if keep.shape.rank is not None and keep.shape.rank != 1:
        raise ValueError(f"Shape {keep.shape} must have rank 1")
    m = keep.shape.as_list()[0] if keep.shape.rank == 1 else None
    if n is not None and m is not None and n != m:
        raise ValueError(f"Dimensions {n} and {m} are not compatible")
    where = _array.reshape(_array.where(keep), [-1])
    return SparseTensor._from_parts(gather(sp.indices, where), gather(sp.values, where), sp.dense_shape, sp.shape)
