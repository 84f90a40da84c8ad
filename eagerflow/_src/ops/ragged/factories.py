"""tf.ragged: building RaggedTensors (constant, from_row_splits/lengths/value_rowids, range), their
row partitions (row_splits_to_segment_ids, segment_ids_to_row_splits) and RaggedTensorToTensor.

Partitions are computed with ordinary ops (cumsum, repeat, segment sums), so they trace. The
factories check their arguments as TensorFlow does, with its messages, as Assert ops: at once
eagerly, at every call inside a tf.function (as TensorFlow's assertion ops do there).
"""
from __future__ import annotations

import numpy as np

from ...composite.ragged_tensor import RaggedTensor
from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from ..array import sequences as _sequences
from ..debugging.checks import assert_equal, assert_non_negative
from ..array.joining import concat, stack
from ..operands import as_tensor
from ..math.reduce import cumsum, reduce_all, reduce_max, reduce_sum
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..array.repeat import repeat
from ..math.segments import unsorted_segment_sum
from ..array.slicing import gather, gather_nd


def _bad(message):
    return InvalidArgumentError(None, None, message)


def _splits_tensor(value, dtype=None):
    t = as_tensor(value, _dt.int64)
    if not t.dtype.is_integer:
        raise TypeError(f"row partition must be int32 or int64, got {t.dtype.name}")
    if t.dtype not in (_dt.int32, _dt.int64):
        t = _math.cast(t, _dt.int64)
    return t if dtype is None or t.dtype is dtype else _math.cast(t, dtype)


def _values_tensor(values):
    return values if isinstance(values, RaggedTensor) else as_tensor(values)


def _nvals(values):
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=_dt.int64)
    return _array.shape(values, out_type=_dt.int64)[0]


def _check_partition(splits, values, factory, what="RaggedTensor"):
    """TensorFlow's checks of a row partition, as Assert ops: eagerly they raise at once, inside a
    tf.function they run at every call, with the same words (ops/debugging/checks.py)."""
    assert_equal(splits[0], _array.constant(0, splits.dtype),
                 message=f"Arguments to {factory} do not form a valid {what}:zero")
    assert_non_negative(splits[1:] - splits[:-1],
                        message=f"Arguments to {factory} do not form a valid {what}:monotonic")
    _check_nvals(splits, values)


def _check_nvals(splits, values):
    assert_equal(_math.cast(splits[-1], _dt.int64), _nvals(values),
                 message="Arguments to _from_row_partition do not form a valid RaggedTensor")


def from_row_splits(values, row_splits, validate=True):
    values, splits = _values_tensor(values), _splits_tensor(row_splits)
    if validate:
        _check_partition(splits, values, "from_row_splits")
    return RaggedTensor(values, splits, _internal=True)


def row_lengths(row_splits):
    return row_splits[1:] - row_splits[:-1]


def _lengths_to_splits(lengths):
    zero = _array.zeros([1], lengths.dtype)
    return concat([zero, cumsum(lengths)], axis=0)


def from_row_lengths(values, row_lengths, validate=True):
    values, lengths = _values_tensor(values), _splits_tensor(row_lengths)
    if validate:
        assert_non_negative(lengths, message="Arguments to from_row_lengths do not form a valid RowPartition")
    splits = _lengths_to_splits(lengths)
    if validate:
        _check_nvals(splits, values)
    return RaggedTensor(values, splits, _internal=True)


def from_value_rowids(values, value_rowids, nrows=None, validate=True):
    values, rowids = _values_tensor(values), _splits_tensor(value_rowids)
    if validate:
        message = "Arguments to from_value_rowids do not form a valid RowPartition"
        assert_non_negative(rowids[:1], message=message)
        assert_non_negative(rowids[1:] - rowids[:-1], message=message)
    splits = segment_ids_to_row_splits(rowids, nrows, out_type=rowids.dtype)
    return RaggedTensor(values, splits, _internal=True)


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """`tf.ragged.row_splits_to_segment_ids`: each value's row (row i repeated row_length(i) times)."""
    splits = _splits_tensor(splits)
    lengths = row_lengths(splits)
    ids = repeat(_sequences.range(_array.shape(lengths, out_type=splits.dtype)[0], dtype=splits.dtype), lengths)
    return ids if out_type is None else _math.cast(ids, out_type)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """`tf.ragged.segment_ids_to_row_splits`: the row_splits whose rows hold each sorted id's run."""
    ids = _splits_tensor(segment_ids)
    out_type = _dt.as_dtype(out_type) if out_type is not None else ids.dtype
    if num_segments is None:
        n = _math.maximum(reduce_max(_math.cast(ids, _dt.int64)) + 1, _array.constant(0, _dt.int64)) \
            if ids.shape.as_list() != [0] else _array.constant(0, _dt.int64)
    else:
        n = as_tensor(num_segments, _dt.int64)
    counts = unsorted_segment_sum(_array.ones_like(_math.cast(ids, out_type)), ids, _math.cast(n, _dt.int32))
    return _lengths_to_splits(counts)


def bounding_shape(rt):
    """[nrows, the longest row at each ragged level, the flat values' inner dimensions] (int64)."""
    dims = [rt.nrows(out_type=_dt.int64)]
    level = rt
    while isinstance(level, RaggedTensor):
        lengths = _math.cast(row_lengths(level.row_splits), _dt.int64)
        dims.append(_math.maximum(reduce_max(concat([lengths, _array.zeros([1], _dt.int64)], 0)),
                                  _array.constant(0, _dt.int64)))
        level = level.values
    inner = _array.shape(rt.flat_values, out_type=_dt.int64)[1:]
    return concat([stack(dims), inner], axis=0)


# --- RaggedTensorToTensor ----------------------------------------------------------------------

def _coords_np(splits_list, nvals):
    idx = np.arange(nvals, dtype=np.int64)
    cols = []
    for s in reversed(splits_list):
        s = np.asarray(s, np.int64)
        row = np.searchsorted(s, idx, side="right") - 1
        cols.insert(0, idx - s[row])
        idx = row
    cols.insert(0, idx)
    return np.stack(cols, axis=1) if nvals else np.zeros((0, len(splits_list) + 1), np.int64)


def _partitions_as_splits(tensors, types):
    """Row splits of each ragged dimension from TensorFlow's partition encodings: ROW_SPLITS as they
    are; FIRST_DIM_SIZE (the number of rows) then VALUE_ROWIDS (each value's row, ascending) as
    TensorFlow's own graphs write them (tf.strings.split, TextVectorization)."""
    types = [t.decode() if isinstance(t, bytes) else t for t in types] or ["ROW_SPLITS"] * len(tensors)
    splits, rows = [], None
    for kind, t in zip(types, tensors):
        t = np.asarray(t, np.int64)
        if kind == "FIRST_DIM_SIZE":
            rows = int(t)
        elif kind == "VALUE_ROWIDS":
            if rows is None:
                raise InvalidArgumentError(None, None, "VALUE_ROWIDS needs the number of rows before it")
            counts = np.bincount(t.reshape(-1), minlength=rows)[:rows] if t.size else np.zeros(rows, np.int64)
            splits.append(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))
            rows = t.size
        else:
            splits.append(t)
            rows = int(t[-1]) if t.size else 0
    return splits


def _to_tensor_kernel(shape, values, default_value, *row_partition_tensors, row_partition_types=()):
    splits = _partitions_as_splits(row_partition_tensors, row_partition_types)
    k = len(splits)
    coords = _coords_np(splits, values.shape[0])
    bounding = [len(splits[0]) - 1] + [int(np.max(np.diff(s), initial=0)) for s in splits] + list(values.shape[1:])
    wanted = np.asarray(shape, np.int64).reshape(-1)
    out_shape = bounding if wanted.size == 0 or (wanted.size == 1 and np.ndim(shape) == 0) else [
        b if w < 0 else int(w) for w, b in zip(wanted, bounding)]
    out = np.empty(out_shape, values.dtype)
    out[...] = default_value
    inside = np.all(coords < np.asarray(out_shape[:k + 1], np.int64), axis=1)
    inner = tuple(slice(0, d) for d in out_shape[k + 1:])
    out[tuple(coords[inside].T)] = values[inside][(slice(None),) + inner]
    return out


def _to_tensor_infer(inputs, attrs):
    shape, values, default_value = inputs[:3]
    k = len(inputs) - 3 - sum(t in ("FIRST_DIM_SIZE", b"FIRST_DIM_SIZE") for t in attrs.get("row_partition_types", ()))
    from ..registry import static_value
    wanted = static_value(shape)
    inner = values.shape.as_list()[1:] if values.shape.rank is not None else None
    if inner is None:
        return [Spec(TensorShape(None), values.dtype)]
    dims = [_first_dim(inputs[3:], attrs.get("row_partition_types", ()))] + [None] * k + inner
    if wanted is not None and np.ndim(wanted) == 1:
        asked = [int(w) for w in np.asarray(wanted).reshape(-1)]
        if len(asked) != len(dims):
            return [Spec(TensorShape([None if w < 0 else w for w in asked]), values.dtype)]
        dims = [d if w < 0 else w for w, d in zip(asked, dims)]  # -1: as many as the ragged value has
    return [Spec(TensorShape(dims), values.dtype)]


def _first_dim(partitions, types):
    """The number of rows when the first partition says it statically (a ROW_SPLITS vector of known
    length, or a constant FIRST_DIM_SIZE), as TensorFlow's shape function does; else None."""
    from ..registry import static_value
    if not partitions or not types:
        return None
    kind = types[0].decode() if isinstance(types[0], bytes) else types[0]
    if kind == "ROW_SPLITS":
        length = partitions[0].shape.as_list()[0] if partitions[0].shape.rank == 1 else None
        return length - 1 if length else None
    if kind == "FIRST_DIM_SIZE":
        size = static_value(partitions[0])
        return int(size) if size is not None and np.ndim(size) == 0 else None
    return None


def value_coordinates(splits_list, nvals):
    """Each flat value's coordinates in the dense result, built from ops (the gradient's gather)."""
    idx = _sequences.range(nvals, dtype=_dt.int64)
    cols = []
    for s in reversed(splits_list):
        s = _math.cast(s, _dt.int64)
        row = gather(row_splits_to_segment_ids(s), idx)
        cols.insert(0, idx - gather(s, row))
        idx = row
    cols.insert(0, idx)
    return stack(cols, axis=1)


def _to_tensor_grad(op, g):
    if any(t not in ("ROW_SPLITS", b"ROW_SPLITS") for t in op.attrs.get("row_partition_types", ())):
        raise LookupError("RaggedTensorToTensor has a gradient for ROW_SPLITS partitions only")
    shape, values, default_value = op.inputs[:3]
    splits = list(op.inputs[3:])
    k = len(splits)
    coords = value_coordinates(splits, _array.shape(values, out_type=_dt.int64)[0])
    bound = _array.shape(g, out_type=_dt.int64)[:k + 1]
    inside = reduce_all(_math.less(coords, bound), axis=1)
    picked = gather_nd(g, _math.minimum(coords, bound - 1))
    inside = _array.reshape(inside, [-1] + [1] * (picked.shape.rank - 1)) if picked.shape.rank else inside
    values_grad = _array.where(inside, picked, _array.zeros_like(picked))
    default_grad = reduce_sum(g) - reduce_sum(values_grad) if default_value.shape.rank == 0 else None
    return (None, values_grad, default_grad) + (None,) * k


RaggedTensorToTensor = defop("RaggedTensorToTensor", inputs=("shape", "values", "default_value",
                                                             "row_partition_tensors"),
                             kernel=_to_tensor_kernel, infer=_to_tensor_infer, grad=_to_tensor_grad,
                             doc="A RaggedTensor padded with default_value (or cut) to a dense shape.")


def to_tensor(rt, default_value=None, shape=None):
    flat = rt.flat_values
    if default_value is None:
        default = _array.zeros([], flat.dtype) if flat.dtype is not _dt.string else _array.constant("", _dt.string)
    else:
        default = as_tensor(default_value) if hasattr(default_value, "dtype") else _array.constant(default_value,
                                                                                                  flat.dtype)
    if shape is None:
        wanted = _array.constant(-1, _dt.int64)
    else:
        dims = TensorShape(shape).as_list() if not hasattr(shape, "dtype") else None
        wanted = (_array.constant([-1 if d is None else d for d in dims], _dt.int64) if dims is not None
                  else _math.cast(shape, _dt.int64))
    splits = rt.nested_row_splits
    dense = bind(RaggedTensorToTensor, (wanted, flat, default) + tuple(splits),
                 {"row_partition_types": ("ROW_SPLITS",) * len(splits)})
    if shape is None and getattr(dense, "is_symbolic", False) and rt.shape.rank == dense.shape.rank:
        dense.set_shape(rt.shape)  # the ragged value's uniform dimensions (a [1, 1, None] stays [1, 1, None])
    return dense


# --- RaggedRange -------------------------------------------------------------------------------

def _range_kernel(starts, limits, deltas, Tsplits=_dt.int64):
    starts, limits, deltas = np.broadcast_arrays(np.asarray(starts), np.asarray(limits), np.asarray(deltas))
    rows = []
    for s, l, d in zip(starts.reshape(-1), limits.reshape(-1), deltas.reshape(-1)):
        if d == 0:
            raise _bad("Requires delta != 0")
        rows.append(np.arange(s, l, d, dtype=starts.dtype))
    lengths = [len(r) for r in rows]
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(Tsplits.np_dtype)
    return splits, (np.concatenate(rows) if rows else np.zeros(0, starts.dtype)).astype(starts.dtype)


def _range_infer(inputs, attrs):
    """One row per element of the broadcast inputs (scalars or vectors): a static row count where their
    shapes say it (1 for scalars), so the splits' length is known, as TensorFlow knows it."""
    rows = 1
    for spec in inputs:
        dims = spec.shape.as_list() if spec.shape.rank is not None else [None]
        if dims and (dims[0] is None or len(dims) > 1):
            rows = None
            break
        rows = dims[0] if dims and dims[0] != 1 else rows
    return [Spec(TensorShape([None if rows is None else rows + 1]), attrs.get("Tsplits", _dt.int64)),
            Spec(TensorShape([None]), inputs[0].dtype)]


RaggedRange = defop("RaggedRange", inputs=("starts", "limits", "deltas"), multi_output=True, kernel=_range_kernel,
                    grad=NO_GRADIENT, infer=_range_infer,
                    doc="Row i is range(starts[i], limits[i], deltas[i]): the splits and the values.")


def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=_dt.int64):
    """`tf.ragged.range`: one range per row (starts, limits and deltas broadcast)."""
    if limits is None:
        starts, limits = 0, starts
    limits = as_tensor(limits, dtype)
    dtype = limits.dtype if dtype is None else _dt.as_dtype(dtype)
    parts = [as_tensor(v, dtype) for v in (starts, limits, deltas)]
    parts = [p if p.dtype is dtype else _math.cast(p, dtype) for p in parts]
    splits, values = bind(RaggedRange, tuple(parts), {"Tsplits": _dt.as_dtype(row_splits_dtype)})
    return RaggedTensor(values, splits, _internal=True)


# --- constant and map_flat_values --------------------------------------------------------------

def _depth(value):
    """The nesting depth of the scalars in a nested list (TensorFlow's error when they differ); an
    empty list fits any depth (`[[[1]], []]` is fine), so the depth of one without scalars is None."""
    if not isinstance(value, (list, tuple)):
        return 0
    depths = {_depth(v) for v in value} - {None}
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    return 1 + depths.pop() if depths else None


def _empty_depth(value):
    return 1 + max((_empty_depth(v) for v in value), default=0) if isinstance(value, (list, tuple)) else 0


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=_dt.int64):
    """`tf.ragged.constant`: a RaggedTensor from a nested list (a Tensor when nothing is ragged)."""
    depth = _depth(pylist)
    if depth is None:  # no scalars at all: nested empty lists, as deep as the deepest path
        depth = _empty_depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(depth - 1, 0) if inner_shape is None else max(depth - 1 - len(inner_shape), 0)
    if ragged_rank == 0 or depth == 0:
        return _array.constant(pylist, dtype)
    splits_dtype = _dt.as_dtype(row_splits_dtype)
    levels, items = [], list(pylist)
    for _ in range(ragged_rank):
        lengths = [len(v) for v in items]
        levels.append(np.concatenate([[0], np.cumsum(lengths)]).astype(splits_dtype.np_dtype))
        items = [x for v in items for x in v]
    inner = depth - 1 - ragged_rank
    if items:
        flat = _array.constant(items, dtype)
    else:
        flat = _array.zeros([0] + [0] * inner, _dt.float32 if dtype is None else dtype)
    result = flat
    for splits in reversed(levels):
        result = RaggedTensor(result, _array.constant(splits, splits_dtype), _internal=True)
    return result


def map_flat_values(op, *args, **kwargs):
    """`tf.ragged.map_flat_values`: `op` on the flat values of the RaggedTensor arguments."""
    found = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not found:
        return op(*args, **kwargs)
    swap = lambda a: a.flat_values if isinstance(a, RaggedTensor) else a  # noqa: E731
    return found[0].with_flat_values(op(*[swap(a) for a in args], **{k: swap(v) for k, v in kwargs.items()}))
