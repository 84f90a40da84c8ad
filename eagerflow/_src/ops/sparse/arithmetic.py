"""Arithmetic on SparseTensors: SparseAdd (and its SparseAddGrad), SparseTensorDenseAdd,
SparseSparseMaximum/Minimum, SparseTensorDenseMatMul, SparseSoftmax and `map_values`.

SparseAdd and the max/min ops merge their two operands' entries as TensorFlow's kernels do: one
pass over both index lists assuming each is in row-major order, so unordered operands give
TensorFlow's (unordered, possibly repeated) result too, not a sorted one.
"""
from __future__ import annotations

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from ..array.joining import stack
from ..operands import as_tensor
from ..math.reduce import reduce_sum
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..math.segments import unsorted_segment_sum
from ..array.slicing import gather, gather_nd
from .conversion import as_sparse, bad, fmt_index, linear, unknown_dims
from ..array.unique import unique


def _compare(a, b):
    """-1, 0 or 1: how index rows a and b compare in row-major order."""
    for x, y in zip(a, b):
        if x != y:
            return -1 if x < y else 1
    return 0


def _merge(a_idx, b_idx):
    """[(i or None, j or None)] pairing the entries of two index lists in one ordered pass."""
    out, i, j = [], 0, 0
    while i < len(a_idx) and j < len(b_idx):
        c = _compare(a_idx[i], b_idx[j])
        if c < 0:
            out.append((i, None))
            i += 1
        elif c > 0:
            out.append((None, j))
            j += 1
        else:
            out.append((i, j))
            i += 1
            j += 1
    out += [(k, None) for k in range(i, len(a_idx))] + [(None, k) for k in range(j, len(b_idx))]
    return out


def _check_same_shape(a_shape, b_shape):
    a_shape, b_shape = np.asarray(a_shape).reshape(-1), np.asarray(b_shape).reshape(-1)
    if a_shape.size != b_shape.size:
        raise bad(f"Operands do not have the same ranks; got shapes: {fmt_index(a_shape)} and {fmt_index(b_shape)}")
    for d, (x, y) in enumerate(zip(a_shape, b_shape)):
        if x != y:
            raise bad(f"Operands' shapes do not match: got {x} and {y} for dimension {d}")


# --- SparseAdd ---------------------------------------------------------------------------------

def _add_kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    _check_same_shape(a_shape, b_shape)
    idx, vals = [], []
    for i, j in _merge(a_indices, b_indices):
        v = a_values[i] + b_values[j] if i is not None and j is not None else (
            a_values[i] if i is not None else b_values[j])
        if thresh <= abs(v):
            idx.append(a_indices[i] if i is not None else b_indices[j])
            vals.append(v)
    rank = a_indices.shape[1]
    return (np.array(idx, np.int64).reshape(-1, rank), np.array(vals, dtype=a_values.dtype).reshape(-1),
            np.asarray(a_shape, np.int64))


def _add_infer(inputs, attrs):
    a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh = inputs
    if b_values.dtype is not a_values.dtype:
        raise bad(f"cannot compute SparseAdd as input #4(zero-based) was expected to be a {a_values.dtype.name} "
                  f"tensor but is a {b_values.dtype.name} tensor")
    rank = a_indices.shape.as_list()[1] if a_indices.shape.rank == 2 else None
    return [Spec(TensorShape([None, rank]), _dt.int64), Spec(TensorShape([None]), a_values.dtype),
            Spec(a_shape.shape, _dt.int64)]


def _add_grad(op, g_indices, g_values, g_shape):
    a_indices, _, _, b_indices, _, _, _ = op.inputs
    a_grad, b_grad = bind(SparseAddGrad, (g_values, a_indices, b_indices, op.outputs[0]))
    return None, a_grad, None, None, b_grad, None, None


SparseAdd = defop("SparseAdd", inputs=("a_indices", "a_values", "a_shape", "b_indices", "b_values", "b_shape",
                                       "thresh"), multi_output=True, kernel=_add_kernel, infer=_add_infer,
                  grad=_add_grad, doc="The sum of two SparseTensors; sums below `thresh` in magnitude dropped.")


def _add_grad_kernel(backprop_val_grad, a_indices, b_indices, sum_indices):
    """Each operand entry's gradient is the output gradient at the same index (0 if it was dropped)."""
    def pick(indices):
        out = np.zeros(indices.shape[0], backprop_val_grad.dtype)
        k = 0
        for i in range(indices.shape[0]):
            while k < sum_indices.shape[0] and _compare(sum_indices[k], indices[i]) < 0:
                k += 1
            if k < sum_indices.shape[0] and _compare(sum_indices[k], indices[i]) == 0:
                out[i] = backprop_val_grad[k]
        return out
    return pick(a_indices), pick(b_indices)


def _add_grad_infer(inputs, attrs):
    grad, a_indices, b_indices = inputs[:3]
    rows = lambda t: t.shape.as_list()[0] if t.shape.rank else None  # noqa: E731
    return [Spec(TensorShape([rows(a_indices)]), grad.dtype), Spec(TensorShape([rows(b_indices)]), grad.dtype)]


SparseAddGrad = defop("SparseAddGrad", inputs=("backprop_val_grad", "a_indices", "b_indices", "sum_indices"),
                      multi_output=True, kernel=_add_grad_kernel, grad=NO_GRADIENT, infer=_add_grad_infer,
                      doc="SparseAdd's gradient: the sum's value gradients sent to each operand's entries.")


# --- SparseTensorDenseAdd ----------------------------------------------------------------------

def _dense_add_kernel(a_indices, a_values, a_shape, b):
    shape = tuple(int(d) for d in np.asarray(a_shape).reshape(-1))
    if shape != b.shape:
        raise bad(f"Dimension mismatch: expected {b.ndim}-D (operand b) to have shape {fmt_index(shape)} "
                  f"but got {fmt_index(b.shape)}") if len(shape) == b.ndim else bad(
            f"Dimension mismatch: expected 2-D (operand b) but got {b.ndim}-D")
    out = b.copy()
    np.add.at(out, tuple(np.asarray(a_indices, np.int64).T), a_values)
    return out


SparseTensorDenseAdd = defop(
    "SparseTensorDenseAdd", inputs=("a_indices", "a_values", "a_shape", "b"), kernel=_dense_add_kernel,
    infer=lambda inputs, attrs: [Spec(inputs[3].shape, inputs[3].dtype)],
    grad=lambda op, g: (None, gather_nd(g, op.inputs[0]), None, g),
    doc="A dense tensor plus a SparseTensor of its shape.")


def add(a, b, threshold=0):
    """`tf.sparse.add`: sparse + sparse (a SparseTensor) or sparse + dense (a dense Tensor)."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        thresh = _array.constant(threshold, _real_dtype(a.dtype))
        indices, values, shape = bind(SparseAdd, (a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                  b.dense_shape, thresh))
        return SparseTensor._from_parts(indices, values, shape, a.shape)
    sp, dense = (a, b) if isinstance(a, SparseTensor) else (b, a)
    if not isinstance(sp, SparseTensor):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add?")
    return bind(SparseTensorDenseAdd, (sp.indices, sp.values, sp.dense_shape, as_tensor(dense, sp.dtype)))


def _real_dtype(dtype):
    return {_dt.complex64: _dt.float32, _dt.complex128: _dt.float64}.get(dtype, dtype)


# --- SparseSparseMaximum / SparseSparseMinimum --------------------------------------------------

def _extremum_kernel(pick):
    def kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        _check_same_shape(a_shape, b_shape)
        zero = np.zeros((), a_values.dtype)
        idx, vals = [], []
        for i, j in _merge(a_indices, b_indices):
            idx.append(a_indices[i] if i is not None else b_indices[j])
            vals.append(pick(a_values[i] if i is not None else zero, b_values[j] if j is not None else zero))
        return np.array(idx, np.int64).reshape(-1, a_indices.shape[1]), np.array(vals, a_values.dtype).reshape(-1)
    return kernel


def _extremum_infer(inputs, attrs):
    rank = inputs[0].shape.as_list()[1] if inputs[0].shape.rank == 2 else None
    return [Spec(TensorShape([None, rank]), _dt.int64), Spec(TensorShape([None]), inputs[1].dtype)]


def _extremum_grad(take_a):
    """TensorFlow's rule: the output gradient goes to the operand that was picked (a on ties for
    the maximum, as its kernel's comparison picks a)."""
    def grad(op, g_indices, g_values):
        a_indices, a_values, a_shape, b_indices, b_values, b_shape = op.inputs
        a_dense = _densify(a_indices, a_values, a_shape, op.outputs[0])
        b_dense = _densify(b_indices, b_values, b_shape, op.outputs[0])
        chose_a = take_a(a_dense, b_dense)
        zeros = _array.zeros_like(g_values)
        ga, gb = _array.where(chose_a, g_values, zeros), _array.where(chose_a, zeros, g_values)
        a_grad, _ = bind(SparseAddGrad, (ga, a_indices, b_indices, op.outputs[0]))
        _, b_grad = bind(SparseAddGrad, (gb, a_indices, b_indices, op.outputs[0]))
        return None, a_grad, None, None, b_grad, None
    return grad


def _densify(indices, values, shape, at):
    """An operand's values at the output's indices (0 where it has none)."""
    from .conversion import SparseToDense
    dense = bind(SparseToDense, (indices, shape, values, _array.zeros([], values.dtype)), {"validate_indices": False})
    return gather_nd(dense, at)


SparseSparseMaximum = defop(
    "SparseSparseMaximum", inputs=("a_indices", "a_values", "a_shape", "b_indices", "b_values", "b_shape"),
    multi_output=True, kernel=_extremum_kernel(np.maximum), infer=_extremum_infer,
    grad=_extremum_grad(_math.greater_equal), doc="The elementwise maximum of two SparseTensors (absent = 0).")
SparseSparseMinimum = defop(
    "SparseSparseMinimum", inputs=("a_indices", "a_values", "a_shape", "b_indices", "b_values", "b_shape"),
    multi_output=True, kernel=_extremum_kernel(np.minimum), infer=_extremum_infer,
    grad=_extremum_grad(_math.less_equal), doc="The elementwise minimum of two SparseTensors (absent = 0).")


def _extremum(op, sp_a, sp_b):
    a, b = as_sparse(sp_a), as_sparse(sp_b)
    indices, values = bind(op, (a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape))
    return SparseTensor._from_parts(indices, values, a.dense_shape, a.shape)


def maximum(sp_a, sp_b, name=None):
    """`tf.sparse.maximum`: entries of either operand, the larger value (an absent entry is 0)."""
    return _extremum(SparseSparseMaximum, sp_a, sp_b)


def minimum(sp_a, sp_b, name=None):
    """`tf.sparse.minimum`: entries of either operand, the smaller value (an absent entry is 0)."""
    return _extremum(SparseSparseMinimum, sp_a, sp_b)


# --- SparseTensorDenseMatMul -------------------------------------------------------------------

def _matmul_kernel(a_indices, a_values, a_shape, b, adjoint_a=False, adjoint_b=False):
    a_shape = [int(d) for d in np.asarray(a_shape).reshape(-1)]
    rows, cols = (1, 0) if adjoint_a else (0, 1)
    b_mat = np.conj(b.T) if adjoint_b else b
    m, k = a_shape[rows], a_shape[cols]
    if b_mat.shape[0] != k:
        raise bad(f"Cannot multiply A and B because inner dimension does not match: {k} vs. {b_mat.shape[0]}.  "
                  f"Did you forget a transpose?  Dimensions of A: [{a_shape[0]}, {a_shape[1]}).  Dimensions of B: "
                  f"{fmt_index(b.shape)}")
    out = np.zeros((m, b_mat.shape[1]), np.result_type(a_values, b))
    values = np.conj(a_values) if adjoint_a else a_values
    for n in range(a_indices.shape[0]):
        i, j = int(a_indices[n, rows]), int(a_indices[n, cols])
        if not 0 <= j < k:
            raise bad(f"k ({j}) from index[{n},{cols}] out of bounds (>={k})")
        if not 0 <= i < m:
            raise bad(f"i ({i}) from index[{n},{rows}] out of bounds (>={m})")
        out[i] += values[n] * b_mat[j]
    return out


def _matmul_infer(inputs, attrs):
    a_indices, a_values, a_shape, b = inputs
    if b.dtype is not a_values.dtype:
        raise bad(f"cannot compute SparseTensorDenseMatMul as input #3(zero-based) was expected to be a "
                  f"{a_values.dtype.name} tensor but is a {b.dtype.name} tensor")
    b_dims = b.shape.as_list() if b.shape.rank == 2 else [None, None]
    n = b_dims[0] if attrs.get("adjoint_b") else b_dims[1]
    return [Spec(TensorShape([None, n]), a_values.dtype)]


def _matmul_grad(op, g):
    """TensorFlow's rule: d values = the row of g times the row of op(B) each entry pairs; d B =
    op(A)^T g (transposed back for adjoint_b)."""
    a_indices, a_values, a_shape, b = op.inputs
    adjoint_a, adjoint_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
    b_grad = bind(SparseTensorDenseMatMul, (a_indices, a_values, a_shape, g),
                  {"adjoint_a": not adjoint_a, "adjoint_b": False})
    if adjoint_b:
        b_grad = _array.transpose(b_grad)
    rows, cols = (1, 0) if adjoint_a else (0, 1)
    b_mat = _array.transpose(b) if adjoint_b else b
    g_rows = gather(g, a_indices[:, rows])
    b_rows = gather(b_mat, a_indices[:, cols])
    return None, reduce_sum(g_rows * b_rows, axis=1), None, b_grad


SparseTensorDenseMatMul = defop(
    "SparseTensorDenseMatMul", inputs=("a_indices", "a_values", "a_shape", "b"), kernel=_matmul_kernel,
    infer=_matmul_infer, grad=_matmul_grad,
    doc="op(A) @ op(B) for a sparse 2-D A and a dense B (op: the adjoint when asked).")


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """`tf.sparse.sparse_dense_matmul`: sparse @ dense, or dense @ sparse (then computed as
    (sparse^T @ dense^T)^T, as TensorFlow does)."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        dense = as_tensor(sp_a, b.dtype)
        out = bind(SparseTensorDenseMatMul, (b.indices, b.values, b.dense_shape, dense),
                   {"adjoint_a": not adjoint_b, "adjoint_b": not adjoint_a})
        return _array.transpose(out)
    sp = as_sparse(sp_a)
    return bind(SparseTensorDenseMatMul, (sp.indices, sp.values, sp.dense_shape, as_tensor(b, sp.dtype)),
                {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)})


# --- SparseSoftmax -----------------------------------------------------------------------------

def _groups(indices, shape):
    """Each entry's group: the entries that share every coordinate but the last."""
    lead = indices[:, :-1]
    keys = linear(lead, np.asarray(shape).reshape(-1)[:-1]) if lead.shape[1] else np.zeros(len(indices), np.int64)
    _, group = np.unique(keys, return_inverse=True)
    return group.reshape(-1)


def _softmax_kernel(sp_indices, sp_values, sp_shape):
    if sp_indices.shape[0] == 0:
        return sp_values.copy()
    group = _groups(sp_indices, sp_shape)
    peak = np.full(group.max() + 1, -np.inf, sp_values.dtype)
    np.maximum.at(peak, group, sp_values)
    e = np.exp(sp_values - peak[group])
    total = np.zeros_like(peak)
    np.add.at(total, group, e)
    return (e / total[group]).astype(sp_values.dtype)


def _softmax_grad(op, g):
    """d x = (g - sum over the group of g * y) * y, y the softmax (TensorFlow's rule)."""
    indices, _, shape = op.inputs
    y = op.outputs[0]
    rank = indices.shape.as_list()[1] if indices.shape.rank == 2 else None
    if rank is None or rank < 2:
        group = _array.zeros_like(_math.cast(y, _dt.int32))
    else:
        keys = reduce_sum(indices[:, :rank - 1] * _row_strides(shape, rank), axis=1)
        group = unique(keys).idx
    sums = unsorted_segment_sum(g * y, group, _array.shape(y)[0])
    return None, (g - gather(sums, group)) * y, None


def _row_strides(shape, rank):
    """Row-major strides of dense_shape[:-1], as a tensor (the group key of softmax's gradient)."""
    dims = [shape[i] for i in range(rank - 1)]
    strides, acc = [], _array.constant(1, _dt.int64)
    for d in reversed(dims):
        strides.append(acc)
        acc = acc * d
    return stack(list(reversed(strides)))


SparseSoftmax = defop("SparseSoftmax", inputs=("sp_indices", "sp_values", "sp_shape"), kernel=_softmax_kernel,
                      infer=lambda inputs, attrs: [Spec(inputs[1].shape, inputs[1].dtype)], grad=_softmax_grad,
                      doc="Softmax over the present values of each innermost row; absent entries stay absent.")


def softmax(sp_input, name=None):
    """`tf.sparse.softmax`: per innermost row, over the present values only."""
    sp = as_sparse(sp_input)
    return SparseTensor._from_parts(sp.indices, bind(SparseSoftmax, (sp.indices, sp.values, sp.dense_shape)),
                                    sp.dense_shape, sp.shape)


def map_values(op, *args, **kwargs):
    """`tf.sparse.map_values`: `op` applied to the values of the SparseTensor arguments (which must
    share their indices), other arguments passed as they are."""
    found = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = found[0]
    swap = lambda a: a.values if isinstance(a, SparseTensor) else a  # noqa: E731
    values = op(*[swap(a) for a in args], **{k: swap(v) for k, v in kwargs.items()})
    return SparseTensor._from_parts(first.indices, values, first.dense_shape, first.shape)
