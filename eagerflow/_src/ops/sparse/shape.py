"""Shape changes of SparseTensors: SparseConcat, SparseReshape, SparseSlice (+SparseSliceGrad),
SparseSplit, SparseFillEmptyRows (+SparseFillEmptyRowsGrad), and the compositions `transpose`,
`expand_dims`, `eye` and `to_indicator` (built from other ops, as TensorFlow builds them).
"""
from __future__ import annotations

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from ..array import sequences as _sequences
from ..array.joining import concat, stack
from ..operands import as_tensor
from ..registry import NO_GRADIENT, UNREGISTERED_GRADIENT, Spec, bind, defop
from ..array.slicing import gather
from .conversion import SparseToDense, as_sparse, bad, fmt_index, linear, reorder


def _ints(a):
    return [int(d) for d in np.asarray(a).reshape(-1)]


def _rank_of(indices):
    return indices.shape.as_list()[1] if indices.shape.rank == 2 else None


def _parts_specs(rank, dtype):
    return [Spec(TensorShape([None, rank]), _dt.int64), Spec(TensorShape([None]), dtype),
            Spec(TensorShape([rank]), _dt.int64)]


# --- SparseConcat ------------------------------------------------------------------------------

def _concat_kernel(*arrays, concat_dim, N):
    indices, values, shapes = arrays[:N], arrays[N:2 * N], [_ints(s) for s in arrays[2 * N:]]
    rank = len(shapes[0])
    dim = concat_dim % rank
    for k, shape in enumerate(shapes[1:], 1):
        for d in range(rank):
            if d != dim and shape[d] != shapes[0][d]:
                raise bad(f"Input shapes must match: expected {shapes[0][d]} for dimension {d} but got {shape[d]} "
                          f"at position {k}")
    offset, moved = 0, []
    for ix, shape in zip(indices, shapes):
        ix = np.array(ix, np.int64)
        ix[:, dim] += offset
        offset += shape[dim]
        moved.append(ix)
    out_indices = np.concatenate(moved).reshape(-1, rank)
    out_values = np.concatenate(values)
    out_shape = list(shapes[0])
    out_shape[dim] = offset
    order = np.argsort(linear(out_indices, out_shape), kind="stable")  # TensorFlow's output is row-major
    return out_indices[order], out_values[order], np.asarray(out_shape, np.int64)


def _concat_infer(inputs, attrs):
    n = attrs["N"]
    return _parts_specs(_rank_of(inputs[0]), inputs[n].dtype)


SparseConcat = defop("SparseConcat", inputs=("indices", "values", "shapes"), multi_output=True,
                     kernel=_concat_kernel, infer=_concat_infer, grad=NO_GRADIENT,
                     doc="SparseTensors joined along one axis (not differentiable in TensorFlow).")


def sparse_concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """`tf.sparse.concat`: joins along `axis`; with expand_nonconcat_dims the other dimensions
    become the largest among the inputs."""
    sps = [as_sparse(s, "Inputs") for s in sp_inputs]
    shapes = [s.dense_shape for s in sps]
    if expand_nonconcat_dims:
        rank = sps[0].shape.rank
        largest = shapes[0]
        for s in shapes[1:]:
            largest = _math.maximum(largest, s)
        dim = axis % rank
        keep = _array.constant([1 if d == dim else 0 for d in range(rank)], _dt.int64)
        shapes = [s * keep + largest * (1 - keep) for s in shapes]
    n = len(sps)
    out = bind(SparseConcat, tuple(s.indices for s in sps) + tuple(s.values for s in sps) + tuple(shapes),
               {"concat_dim": int(axis), "N": n})
    return SparseTensor._from_parts(*out)


# --- SparseReshape -----------------------------------------------------------------------------

def _reshape_kernel(input_indices, input_shape, new_shape):
    old, new = _ints(input_shape), _ints(new_shape)
    total = int(np.prod(old, dtype=np.int64))
    unknown = [i for i, d in enumerate(new) if d == -1]
    if len(unknown) > 1:
        raise bad(f"only one output dimension may be -1, not both {unknown[0]} and {unknown[1]}")
    known = int(np.prod([d for d in new if d != -1], dtype=np.int64))
    shown = fmt_index([1 if d == -1 else d for d in new])
    if unknown:
        if known == 0 or total % known:
            raise bad(f"Input to reshape is a SparseTensor with {total} dense values, but the requested shape "
                      f"requires a multiple of {known}. input_shape={fmt_index(old)} output_shape={shown}")
        new[unknown[0]] = total // known
    elif known != total:
        raise bad(f"Input to reshape is a tensor with {total} dense values, but the requested shape has {known}. "
                  f"input_shape={fmt_index(old)} output_shape={shown}")
    flat = linear(np.asarray(input_indices, np.int64), old)
    out = np.stack(np.unravel_index(flat, new), axis=1) if len(new) else np.zeros((len(flat), 0), np.int64)
    return out.astype(np.int64).reshape(-1, len(new)), np.asarray(new, np.int64)


def _reshape_infer(inputs, attrs):
    n = inputs[2].shape.as_list()[0] if inputs[2].shape.rank == 1 else None
    return [Spec(TensorShape([None, n]), _dt.int64), Spec(TensorShape([n]), _dt.int64)]


SparseReshape = defop("SparseReshape", inputs=("input_indices", "input_shape", "new_shape"), multi_output=True,
                      kernel=_reshape_kernel, infer=_reshape_infer, grad=UNREGISTERED_GRADIENT,
                      doc="The indices of the same entries in a dense array of another shape (values unchanged).")


def reshape(sp_input, shape, name=None):
    """`tf.sparse.reshape`: the same values at their positions in `shape` (one -1 allowed)."""
    sp = as_sparse(sp_input)
    indices, dense_shape = bind(SparseReshape, (sp.indices, sp.dense_shape, as_tensor(shape, _dt.int64)))
    return SparseTensor._from_parts(indices, sp.values, dense_shape)


# --- SparseSlice -------------------------------------------------------------------------------

def _slice_window(indices, shape, start, size):
    shape, start, size = _ints(shape), _ints(start), _ints(size)
    end = [min(s + z, d) for s, z, d in zip(start, size, shape)]
    out_shape = [max(e - s, 0) for s, e in zip(start, end)]
    inside = np.all((indices >= np.asarray(start, np.int64)) & (indices < np.asarray(end, np.int64)), axis=1) \
        if len(indices) else np.zeros(0, bool)
    return inside, np.asarray(start, np.int64), np.asarray(out_shape, np.int64)


def _slice_kernel(indices, values, shape, start, size):
    inside, start, out_shape = _slice_window(np.asarray(indices, np.int64), shape, start, size)
    return (indices[inside] - start).reshape(-1, len(out_shape)), values[inside], out_shape


def _slice_grad(op, g_indices, g_values, g_shape):
    indices, values, shape, start, size = op.inputs
    return None, bind(SparseSliceGrad, (g_values, indices, start, op.outputs[0])), None, None, None


SparseSlice = defop("SparseSlice", inputs=("indices", "values", "shape", "start", "size"), multi_output=True,
                    kernel=_slice_kernel, grad=_slice_grad,
                    infer=lambda inputs, attrs: _parts_specs(_rank_of(inputs[0]), inputs[1].dtype),
                    doc="The entries inside a window [start, start + size), shifted to start at 0.")


def _slice_grad_kernel(backprop_val_grad, input_indices, input_start, output_indices):
    out = np.zeros(input_indices.shape[0], backprop_val_grad.dtype)
    shifted = {tuple(row): k for k, row in enumerate(np.asarray(output_indices, np.int64) + input_start)}
    for i, row in enumerate(np.asarray(input_indices, np.int64)):
        k = shifted.get(tuple(row))
        if k is not None:
            out[i] = backprop_val_grad[k]
    return out


SparseSliceGrad = defop("SparseSliceGrad", inputs=("backprop_val_grad", "input_indices", "input_start",
                                                   "output_indices"), kernel=_slice_grad_kernel,
                        grad=UNREGISTERED_GRADIENT,
                        infer=lambda inputs, attrs: [Spec(TensorShape([inputs[1].shape.as_list()[0]
                                                                       if inputs[1].shape.rank else None]),
                                                          inputs[0].dtype)],
                        doc="SparseSlice's gradient: each sliced value's gradient back at its input entry, "
                            "0 elsewhere.")


def sparse_slice(sp_input, start, size, name=None):
    """`tf.sparse.slice`: the window [start, start + size) clipped to the dense shape."""
    sp = as_sparse(sp_input)
    out = bind(SparseSlice, (sp.indices, sp.values, sp.dense_shape, as_tensor(start, _dt.int64),
                             as_tensor(size, _dt.int64)))
    return SparseTensor._from_parts(*out)


# --- SparseSplit -------------------------------------------------------------------------------

def _split_kernel(split_dim, indices, values, shape, num_split):
    shape = _ints(shape)
    dim = int(split_dim) % len(shape)
    size, extra = divmod(shape[dim], num_split)
    parts_i, parts_v, parts_s, begin = [], [], [], 0
    for k in range(num_split):
        width = size + (1 if k < extra else 0)
        start = [0] * len(shape)
        start[dim] = begin
        window = list(shape)
        window[dim] = width
        i, v, s = _slice_kernel(indices, values, shape, start, window)
        parts_i.append(i), parts_v.append(v), parts_s.append(s)
        begin += width
    return tuple(parts_i + parts_v + parts_s)


def _split_infer(inputs, attrs):
    n = attrs["num_split"]
    rank = _rank_of(inputs[1])
    specs = _parts_specs(rank, inputs[2].dtype)
    return [specs[0]] * n + [specs[1]] * n + [specs[2]] * n


SparseSplit = defop("SparseSplit", inputs=("split_dim", "indices", "values", "shape"), multi_output=True,
                    kernel=_split_kernel, infer=_split_infer, grad=UNREGISTERED_GRADIENT,
                    doc="num_split SparseTensors along one axis (the first ones one wider when it does not divide).")


def split(sp_input=None, num_split=None, axis=None, name=None):
    """`tf.sparse.split`: a list of num_split SparseTensors along `axis`."""
    sp = as_sparse(sp_input)
    out = bind(SparseSplit, (as_tensor(axis, _dt.int64), sp.indices, sp.values, sp.dense_shape),
               {"num_split": int(num_split)})
    n = int(num_split)
    return [SparseTensor._from_parts(out[k], out[n + k], out[2 * n + k]) for k in range(n)]


# --- SparseFillEmptyRows -----------------------------------------------------------------------

def _fill_kernel(indices, values, dense_shape, default_value):
    rows = int(_ints(dense_shape)[0])
    indices = np.asarray(indices, np.int64)
    order = np.argsort(indices[:, 0], kind="stable") if len(indices) else np.zeros(0, np.int64)
    present = np.zeros(rows, bool)
    present[indices[:, 0]] = True
    out_i, out_v, where = [], [], np.zeros(len(indices), np.int64)
    by_row = {r: [] for r in range(rows)}
    for k in order:
        by_row[int(indices[k, 0])].append(k)
    for r in range(rows):
        if not by_row[r]:
            row = np.zeros(indices.shape[1], np.int64)
            row[0] = r
            out_i.append(row)
            out_v.append(default_value)
        for k in by_row[r]:
            where[k] = len(out_i)
            out_i.append(indices[k])
            out_v.append(values[k])
    return (np.array(out_i, np.int64).reshape(-1, indices.shape[1]), np.array(out_v, values.dtype).reshape(-1),
            ~present, where)


def _fill_infer(inputs, attrs):
    indices, values = inputs[:2]
    rows = None
    return [Spec(TensorShape([None, _rank_of(indices)]), _dt.int64), Spec(TensorShape([None]), values.dtype),
            Spec(TensorShape([rows]), _dt.bool_), Spec(TensorShape([None]), _dt.int64)]


def _fill_grad(op, g_indices, g_values, g_empty, g_map):
    d_values, d_default = bind(SparseFillEmptyRowsGrad, (op.outputs[3], g_values))
    return None, d_values, None, d_default


SparseFillEmptyRows = defop("SparseFillEmptyRows", inputs=("indices", "values", "dense_shape", "default_value"),
                            multi_output=True, kernel=_fill_kernel, infer=_fill_infer, grad=_fill_grad,
                            doc="An entry of default_value at column 0 of every empty row; entries sorted by row.")


def _fill_grad_kernel(reverse_index_map, grad_values):
    d_values = grad_values[reverse_index_map]
    mask = np.ones(len(grad_values), bool)
    mask[reverse_index_map] = False
    return d_values, np.asarray(grad_values[mask].sum(), grad_values.dtype)


SparseFillEmptyRowsGrad = defop(
    "SparseFillEmptyRowsGrad", inputs=("reverse_index_map", "grad_values"), multi_output=True,
    kernel=_fill_grad_kernel, grad=UNREGISTERED_GRADIENT,
    infer=lambda inputs, attrs: [Spec(inputs[0].shape, inputs[1].dtype), Spec(TensorShape([]), inputs[1].dtype)],
    doc="SparseFillEmptyRows' gradient: the values' share and the filled entries' sum for default_value.")


def fill_empty_rows(sp_input, default_value, name=None):
    """`tf.sparse.fill_empty_rows`: (the filled SparseTensor, which rows were empty)."""
    sp = as_sparse(sp_input)
    default = as_tensor(default_value, sp.dtype)
    if default.dtype is not sp.dtype:
        default = _array.constant(default_value, sp.dtype)
    indices, values, empty, _ = bind(SparseFillEmptyRows, (sp.indices, sp.values, sp.dense_shape, default))
    return SparseTensor._from_parts(indices, values, sp.dense_shape, sp.shape), empty


# --- compositions ------------------------------------------------------------------------------

def transpose(sp_input, perm=None, name=None):
    """`tf.sparse.transpose`: the indices' columns and dense_shape permuted, then reordered."""
    sp = as_sparse(sp_input)
    rank = sp.shape.rank
    perm = list(range(rank))[::-1] if perm is None else [int(p) for p in np.asarray(perm).reshape(-1)]
    p = _array.constant(perm, _dt.int32)
    moved = SparseTensor._from_parts(gather(sp.indices, p, axis=1), sp.values, gather(sp.dense_shape, p),
                                     TensorShape([sp.shape.as_list()[i] for i in perm]))
    return reorder(moved)


def expand_dims(sp_input, axis=None, name=None):
    """`tf.sparse.expand_dims`: a dimension of size 1 inserted at `axis` (negative from the end)."""
    sp = as_sparse(sp_input)
    rank = sp.shape.rank
    axis = int(axis if axis is not None else -1)
    if axis < 0:
        axis += rank + 1
    column = _array.zeros_like(sp.indices[:, :1])
    indices = concat([sp.indices[:, :axis], column, sp.indices[:, axis:]], axis=1)
    one = _array.constant([1], _dt.int64)
    shape = concat([sp.dense_shape[:axis], one, sp.dense_shape[axis:]], axis=0)
    dims = sp.shape.as_list()
    return SparseTensor._from_parts(indices, sp.values, shape, TensorShape(dims[:axis] + [1] + dims[axis:]))


def eye(num_rows, num_columns=None, dtype=_dt.float32, name=None):
    """`tf.sparse.eye`: ones on the diagonal of a num_rows x num_columns SparseTensor."""
    dtype = _dt.as_dtype(dtype)
    rows = as_tensor(num_rows, _dt.int64)
    cols = rows if num_columns is None else as_tensor(num_columns, _dt.int64)
    rows, cols = _math.cast(rows, _dt.int64), _math.cast(cols, _dt.int64)
    diag = _sequences.range(_math.minimum(rows, cols), dtype=_dt.int64)
    indices = stack([diag, diag], axis=1)
    values = _array.ones_like(_math.cast(diag, dtype))
    return SparseTensor._from_parts(indices, values, stack([rows, cols]))


def to_indicator(sp_input, vocab_size, name=None):
    """`tf.sparse.to_indicator`: bool [..., vocab_size], True at each entry's value along the last axis."""
    sp = as_sparse(sp_input)
    ids = _math.cast(sp.values, _dt.int64)
    indices = concat([sp.indices[:, :-1], _array.expand_dims(ids, 1)], axis=1)
    shape = concat([sp.dense_shape[:-1], _array.reshape(as_tensor(vocab_size, _dt.int64), [1])], axis=0)
    return bind(SparseToDense, (indices, shape, _array.ones_like(_math.cast(ids, _dt.bool_)),
                                _array.constant(False, _dt.bool_)), {"validate_indices": False})
