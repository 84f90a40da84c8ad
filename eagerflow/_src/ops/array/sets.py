"""`tf.sets`: union, intersection, difference and size of the sets along the last dimension.

Each input is a dense Tensor or a SparseTensor; the last dimension holds one set per position of
the leading ("group") dimensions, duplicates ignored. The result of a set operation is a
SparseTensor with each group's values sorted: indices [group..., j], dense shape [group...,
largest result set]. Ops as TensorFlow names them: DenseToDenseSetOperation,
DenseToSparseSetOperation, SparseToSparseSetOperation (`set_operation` is "a-b", "b-a",
"intersection" or "union"), SetSize. Integers and strings only; no gradient (TensorFlow has none);
no XLA lowering (the result's size depends on the values).
"""
from __future__ import annotations

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop

_VALID = (_dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.uint8, _dt.uint16, _dt.string)
# TensorFlow prints the frozenset of its valid dtypes in this order (2.21).
_VALID_TEXT = "frozenset({tf.int32, tf.uint8, tf.int16, tf.int8, tf.string, tf.int64, tf.uint16})"
_OPERATIONS = ("a-b", "b-a", "intersection", "union")


# --- the sets of each group, from a dense or a sparse input -------------------------------------

def _dense_groups(x):
    if x.ndim < 2:
        raise InvalidArgumentError(None, None, f"Shape [{','.join(map(str, x.shape))}] has rank {x.ndim} < 2")
    rows = x.reshape(-1, x.shape[-1])
    return list(x.shape[:-1]), [set(row.tolist()) for row in rows]


def _sparse_groups(indices, values, shape):
    shape = [int(d) for d in np.asarray(shape).reshape(-1)]
    if len(shape) < 2:
        raise InvalidArgumentError(None, None, f"Shape [{','.join(map(str, shape))}] has rank {len(shape)} < 2")
    groups = shape[:-1]
    sets = [set() for _ in range(int(np.prod(groups)))]
    if len(values):
        flat = np.ravel_multi_index(np.asarray(indices)[:, :-1].T.astype(np.intp), groups)
        for g, v in zip(flat.tolist(), np.asarray(values).tolist()):
            sets[g].add(v)
    return groups, sets


def _combine(groups_a, sets_a, groups_b, sets_b, operation):
    if groups_a != groups_b:
        raise InvalidArgumentError(None, None, f"Mismatched shapes [{','.join(map(str, groups_a))}] vs "
                                               f"[{','.join(map(str, groups_b))}]")
    combine = {"a-b": lambda a, b: a - b, "b-a": lambda a, b: b - a,
               "intersection": lambda a, b: a & b, "union": lambda a, b: a | b}[operation]
    return [sorted(combine(a, b)) for a, b in zip(sets_a, sets_b)]


def _as_sparse_parts(groups, results, dtype):
    """(indices int64 [N, rank], values [N], dense_shape int64 [rank]) of the sorted result sets."""
    width = max((len(r) for r in results), default=0)
    rank = len(groups) + 1
    positions = np.array(list(np.ndindex(*groups)) if groups else [()], dtype=np.int64).reshape(-1, rank - 1)
    indices = [list(positions[g]) + [j] for g, r in enumerate(results) for j in range(len(r))]
    values = [v for r in results for v in r]
    return (np.array(indices, np.int64).reshape(-1, rank), np.array(values, dtype=dtype.np_dtype).reshape(-1),
            np.array(list(groups) + [width], np.int64))


def _operation_kernel(parts_a, parts_b, dtype, set_operation):
    groups_a, sets_a = parts_a
    groups_b, sets_b = parts_b
    return _as_sparse_parts(groups_a, _combine(groups_a, sets_a, groups_b, sets_b, set_operation), dtype)


def _dense_dense(set1, set2, set_operation, validate_indices=True):
    dtype = _dt.as_dtype(set1.dtype)
    return _operation_kernel(_dense_groups(set1), _dense_groups(set2), dtype, set_operation)


def _dense_sparse(set1, indices2, values2, shape2, set_operation, validate_indices=True):
    dtype = _dt.as_dtype(set1.dtype)
    return _operation_kernel(_dense_groups(set1), _sparse_groups(indices2, values2, shape2), dtype, set_operation)


def _sparse_sparse(indices1, values1, shape1, indices2, values2, shape2, set_operation, validate_indices=True):
    dtype = _dt.as_dtype(values1.dtype)
    return _operation_kernel(_sparse_groups(indices1, values1, shape1), _sparse_groups(indices2, values2, shape2),
                             dtype, set_operation)


def _result_specs(rank, dtype):
    return [Spec(TensorShape([None, rank]), _dt.int64), Spec(TensorShape([None]), dtype),
            Spec(TensorShape([rank]), _dt.int64)]


def _rank_of(dense=None, shape=None):
    if dense is not None:
        return dense.shape.rank
    return shape.shape[0] if shape.shape.rank == 1 else None


DenseToDenseSetOperation = defop(
    "DenseToDenseSetOperation", inputs=("set1", "set2"), kernel=_dense_dense, multi_output=True,
    infer=lambda inputs, attrs: _result_specs(_rank_of(inputs[0]), inputs[0].dtype), grad=NO_GRADIENT,
    doc="A set operation on the last dimension of two dense tensors; the result as SparseTensor parts.")
DenseToSparseSetOperation = defop(
    "DenseToSparseSetOperation", inputs=("set1", "set2_indices", "set2_values", "set2_shape"),
    kernel=_dense_sparse, multi_output=True, grad=NO_GRADIENT,
    infer=lambda inputs, attrs: _result_specs(_rank_of(inputs[0]), inputs[0].dtype),
    doc="A set operation between a dense tensor and a SparseTensor's parts.")
SparseToSparseSetOperation = defop(
    "SparseToSparseSetOperation",
    inputs=("set1_indices", "set1_values", "set1_shape", "set2_indices", "set2_values", "set2_shape"),
    kernel=_sparse_sparse, multi_output=True, grad=NO_GRADIENT,
    infer=lambda inputs, attrs: _result_specs(_rank_of(shape=inputs[2]), inputs[1].dtype),
    doc="A set operation between two SparseTensors' parts.")


def _set_size_kernel(indices, values, shape, validate_indices=True):
    groups, sets = _sparse_groups(indices, values, shape)
    return np.array([len(s) for s in sets], np.int32).reshape(groups)


def _set_size_infer(inputs, attrs):
    shape = inputs[2]
    rank = _rank_of(shape=shape)
    return [Spec(TensorShape(None if rank is None else [None] * (rank - 1)), _dt.int32)]


SetSize = defop("SetSize", inputs=("set_indices", "set_values", "set_shape"), kernel=_set_size_kernel,
                infer=_set_size_infer, grad=NO_GRADIENT, doc="The number of distinct values of each set.")


# --- tf.sets ------------------------------------------------------------------------------------

def _operand(value, arg):
    x = value if isinstance(value, SparseTensor) else as_tensor(value)
    if x.dtype not in _VALID:
        raise TypeError(f"'{arg}' has invalid dtype `{x.dtype}` not in supported dtypes: `{_VALID_TEXT}`.")
    return x


def _set_operation(a, b, set_operation, validate_indices):
    if a.dtype is not b.dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}.")
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
    if isinstance(b, SparseTensor):
        if isinstance(a, SparseTensor):
            parts = bind(SparseToSparseSetOperation, (a.indices, a.values, a.dense_shape,
                                                      b.indices, b.values, b.dense_shape), attrs)
            rank = a.shape.rank
        else:
            parts = bind(DenseToSparseSetOperation, (a, b.indices, b.values, b.dense_shape), attrs)
            rank = a.shape.rank
    else:
        parts = bind(DenseToDenseSetOperation, (a, b), attrs)
        rank = a.shape.rank
    indices, values, dense_shape = parts
    shape = TensorShape(None) if rank is None else TensorShape([None] * rank)
    if not isinstance(a, SparseTensor) and a.shape.rank is not None:
        shape = TensorShape(a.shape.as_list()[:-1] + [None])
    return SparseTensor._from_parts(indices, values, dense_shape, shape)


def _ordered(a, b, symmetric):
    """Dense first: TensorFlow has no Sparse-Dense kernel; a symmetric operation swaps its inputs."""
    a, b = _operand(a, "a"), _operand(b, "b")
    flipped = isinstance(a, SparseTensor) and not isinstance(b, SparseTensor)
    return (b, a, flipped) if flipped else (a, b, False)


def set_union(a, b, validate_indices=True):
    """`tf.sets.union`."""
    a, b, _ = _ordered(a, b, True)
    return _set_operation(a, b, "union", validate_indices)


def set_intersection(a, b, validate_indices=True):
    """`tf.sets.intersection`."""
    a, b, _ = _ordered(a, b, True)
    return _set_operation(a, b, "intersection", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True):
    """`tf.sets.difference`: a - b (or b - a with aminusb=False)."""
    a, b, flipped = _ordered(a, b, False)
    if flipped:
        aminusb = not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def set_size(a, validate_indices=True):
    """`tf.sets.size`: the number of distinct values in each set of a SparseTensor."""
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a!s}.")
    _operand(a, "a")
    return bind(SetSize, (a.indices, a.values, a.dense_shape), {"validate_indices": bool(validate_indices)})
