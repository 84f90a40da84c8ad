"""Dataset elements whose components are RaggedTensors or SparseTensors, as tf.data has them.

A component's spec is then a RaggedTensorSpec or SparseTensorSpec. Two views of such an element:
- its *leaves*: the values the user sees (a RaggedTensor, a SparseTensor, or a Tensor where the spec
  is a RaggedTensorSpec of ragged_rank 0: a row of a ragged source is dense, as in TensorFlow);
- its *components*: the plain tensors the leaves flatten to (`nest.flatten(..., expand_composites=True)`,
  [flat_values, *nested_row_splits] or [indices, values, dense_shape]): what crosses a traced function's
  boundary and the stream ops (stream.py), repacked by `pack_components` from the spec.

Batching and unbatching differ from stacking: a batch of ragged rows is a RaggedTensor of one more
ragged dimension, a batch of SparseTensors one SparseTensor whose dense shape is the largest of the
rows'. A dataset carrying composites is a stream (iterated in Python, also from inside tf.function
through the stream ops), so these run on eager values with NumPy.
"""
from __future__ import annotations

import numpy as np

from ..composite.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..composite.sparse_tensor import SparseTensor, SparseTensorSpec
from ..core import nest
from ..core.shape import TensorShape
from ..core.tensor import Tensor, TensorSpec, make_eager

COMPOSITES = (RaggedTensor, SparseTensor)


def is_composite_spec(spec) -> bool:
    return isinstance(spec, (RaggedTensorSpec, SparseTensorSpec))


def has_composites(spec) -> bool:
    return any(is_composite_spec(s) for s in nest.flatten(spec))


def leaf_spec(value):
    """The spec of one element leaf: a composite's own TypeSpec, else a TensorSpec."""
    if isinstance(value, COMPOSITES):
        return value._type_spec
    from .structure import DatasetSpec
    if isinstance(value, DatasetSpec) or hasattr(value, "_open"):
        return value if isinstance(value, DatasetSpec) else DatasetSpec(value.element_spec)
    return TensorSpec(value.shape, value.dtype)


def spec_of(structure):
    """The element spec of a structure of element leaves."""
    return nest.map_structure(leaf_spec, structure)


def _ragged_component_specs(spec):
    if spec.ragged_rank == 0:
        return [TensorSpec(spec.shape, spec.dtype)]
    return list(spec._component_specs())


def component_specs(spec):
    """The TensorSpecs of the components, in flattening order."""
    out = []
    for s in nest.flatten(spec):
        if isinstance(s, RaggedTensorSpec):
            out.extend(_ragged_component_specs(s))
        elif isinstance(s, SparseTensorSpec):
            out.extend(s._component_specs())
        else:
            out.append(s)
    return out


def _ragged_dims(spec):
    """The static row lengths of a ragged spec's ragged levels, outermost first."""
    return spec.shape.as_list()[1:spec.ragged_rank + 1] if spec.shape.rank is not None else None


def _pack_leaf(spec, parts):
    if isinstance(spec, RaggedTensorSpec):
        if spec.ragged_rank == 0:
            return parts[0]
        return RaggedTensor(None, None, _internal=True).__tf_unflatten__(parts, _ragged_dims(spec))
    if isinstance(spec, SparseTensorSpec):
        return SparseTensor._from_parts(*parts, spec.shape)
    return parts[0]


def _width(spec):
    if isinstance(spec, RaggedTensorSpec):
        return 1 + spec.ragged_rank
    return 3 if isinstance(spec, SparseTensorSpec) else 1


def pack_components(spec, flat):
    """The element of `spec` rebuilt from its components (eager or symbolic tensors)."""
    flat, leaves, at = list(flat), [], 0
    for s in nest.flatten(spec):
        leaves.append(_pack_leaf(s, flat[at:at + _width(s)]))
        at += _width(s)
    if at != len(flat):
        raise ValueError(f"{len(flat)} components given for an element of {at}: {spec}")
    return nest.pack_sequence_as(spec, leaves) if nest.is_nested(spec) else leaves[0]


# --- batching ------------------------------------------------------------------------------------


def batched_spec(spec, lead):
    """The spec of a batch of elements of `spec`, `lead` its static batch dimension (or None)."""
    def batch(s):
        if s.shape.rank is None:
            shape = TensorShape(None)
        else:
            shape = TensorShape([lead]).concatenate(s.shape)
        if isinstance(s, RaggedTensorSpec):
            return RaggedTensorSpec(shape, s.dtype, s.ragged_rank + 1, s.row_splits_dtype)
        if isinstance(s, SparseTensorSpec):
            return SparseTensorSpec(shape, s.dtype)
        if isinstance(s, TensorSpec):
            return TensorSpec(shape, s.dtype)
        return s
    return nest.map_structure(batch, spec)


def unbatched_spec(spec):
    """The spec of one row of an element of `spec` (rank >= 1)."""
    def row(s):
        shape = TensorShape(s.shape.as_list()[1:]) if s.shape.rank is not None else TensorShape(None)
        if isinstance(s, RaggedTensorSpec):
            return RaggedTensorSpec(shape, s.dtype, max(s.ragged_rank - 1, 0), s.row_splits_dtype)
        if isinstance(s, SparseTensorSpec):
            return SparseTensorSpec(shape, s.dtype)
        return TensorSpec(shape, s.dtype)
    return nest.map_structure(row, spec)


def _arrays(value):
    return [np.asarray(t.numpy()) for t in nest.flatten(value, expand_composites=True)]


def _batch_ragged(spec, rows):
    """Rows of `spec` (Tensors for ragged_rank 0, else RaggedTensors) as one RaggedTensor of ragged_rank + 1."""
    parts = [_arrays(r) for r in rows]
    splits_type = spec.row_splits_dtype.np_dtype
    nrows = [len(p[1]) - 1 if len(p) > 1 else p[0].shape[0] for p in parts]
    outer = np.concatenate([[0], np.cumsum(nrows)]).astype(splits_type)
    inner = []
    for level in range(1, spec.ragged_rank + 1):
        offset, pieces = 0, []
        for p in parts:
            pieces.append(p[level][:-1] + offset)
            offset += int(p[level][-1])
        inner.append(np.concatenate(pieces + [np.asarray([offset])]).astype(splits_type))
    flat_dtype = spec.dtype
    values = np.concatenate([p[0] for p in parts]) if parts else np.zeros([0], flat_dtype.np_dtype)
    components = [make_eager(values, flat_dtype)] + [make_eager(s, spec.row_splits_dtype) for s in [outer] + inner]
    return _pack_leaf(batched_spec(spec, None), components)


def _int64(array):
    from ..core import dtypes as _dt
    return make_eager(np.asarray(array, np.int64), _dt.int64)


def _batch_sparse(spec, rows):
    parts = [_arrays(r) for r in rows]
    rank = len(parts[0][2])
    indices = [np.concatenate([np.full((len(p[0]), 1), i, np.int64), p[0].reshape(-1, rank)], axis=1)
               for i, p in enumerate(parts)]
    dense = np.max(np.stack([p[2] for p in parts]), axis=0) if rank else np.zeros([0], np.int64)
    return SparseTensor(_int64(np.concatenate(indices)),
                        make_eager(np.concatenate([p[1] for p in parts]), spec.dtype),
                        _int64(np.concatenate([[len(parts)], dense])))


def stack_leaves(spec, rows):
    """One leaf of a batch: `rows` (eager values of `spec`) stacked, as tf.data's batch does."""
    if isinstance(spec, RaggedTensorSpec):
        return _batch_ragged(spec, rows)
    if isinstance(spec, SparseTensorSpec):
        return _batch_sparse(spec, rows)
    from ..ops.array.joining import stack
    return stack(list(rows))


def stack_with_spec(spec, elements):
    """Whole elements stacked leaf by leaf."""
    specs = nest.flatten(spec)
    columns = zip(*[nest.flatten(e) for e in elements])
    leaves = [stack_leaves(s, list(col)) for s, col in zip(specs, columns)]
    return nest.pack_sequence_as(spec, leaves) if nest.is_nested(spec) else leaves[0]


def leaf_rows(spec, value):
    """The rows of one batched leaf (eager), each a value of `unbatched_spec(spec)`."""
    if isinstance(spec, SparseTensorSpec) or isinstance(value, SparseTensor):
        indices, values, dense = _arrays(value)
        rows = []
        for i in range(int(dense[0])):
            keep = indices[:, 0] == i
            rows.append(SparseTensor(_int64(indices[keep][:, 1:]), make_eager(values[keep], value.dtype),
                                     _int64(dense[1:])))
        return rows
    if isinstance(value, RaggedTensor):
        return [value[i] for i in range(int(value.nrows().numpy()))]
    arrays = np.asarray(value.numpy())
    return [make_eager(np.asarray(a), value.dtype) for a in arrays]


def element_rows(spec, element):
    """An element's rows (unbatch); every leaf must have as many rows."""
    specs, leaves = nest.flatten(spec), nest.flatten(element)
    columns = [leaf_rows(s, v) for s, v in zip(specs, leaves)]
    counts = {len(c) for c in columns}
    if len(counts) > 1:
        from ..core.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, "Input element must have the same batch size in each component. "
                                               f"Component 0 had size {len(columns[0])} but another component had "
                                               "a different size.")
    row_spec = unbatched_spec(spec)
    for r in range(counts.pop() if counts else 0):
        leaves_r = [c[r] for c in columns]
        yield nest.pack_sequence_as(row_spec, leaves_r) if nest.is_nested(row_spec) else leaves_r[0]


# --- sources -------------------------------------------------------------------------------------


def slices_size_and_spec(tensors):
    """from_tensor_slices of a structure holding RaggedTensors/SparseTensors: (number of rows, row spec). A
    ragged row loses one ragged dimension (a Tensor once none is left), as in TensorFlow."""
    from .structure import UNKNOWN
    leaves = nest.flatten(tensors)
    if any(leaf.shape.rank == 0 for leaf in leaves):
        raise ValueError("Unbatching a tensor is only supported for rank >= 1")
    sizes = {leaf.shape[0] for leaf in leaves if leaf.shape.rank}
    if len(sizes) > 1:
        first, dim = sorted(sizes, key=str)[:2]
        raise ValueError(f"Dimensions {first} and {dim} are not compatible")
    size = sizes.pop() if sizes else None
    return (UNKNOWN if size is None else size), nest.map_structure(lambda v: unbatched_spec(leaf_spec(v)), tensors)


def source_rows(tensors, size):
    """The rows of such a source, one element each."""
    for i in range(max(int(size), 0)):
        yield nest.map_structure(lambda leaf: leaf_row(leaf, i), tensors)


def leaf_row(value, index):
    """Row `index` (a Python int) of a source leaf."""
    if isinstance(value, RaggedTensor):
        return value[index]
    if isinstance(value, SparseTensor):
        return leaf_rows(value._type_spec, value)[index]
    from ..ops.array.slicing import gather
    return gather(value, index)


def is_leaf(value) -> bool:
    return isinstance(value, (Tensor,) + COMPOSITES)
