"""`Dataset.ragged_batch` (and `tf.data.experimental.dense_to_ragged_batch`): batches of elements whose
shapes differ, as RaggedTensors rather than padded.

Each component whose shape is not fully known becomes ragged up to its last unknown dimension (its
ragged_rank is that dimension's index; a component unknown only in its first dimension stays a Tensor
under a RaggedTensorSpec of ragged_rank 0), then the elements are batched: the batch of such rows is
a RaggedTensor (data/composite_elements.py). Components of fully known shape, or of unknown rank, and
components that are already composites are batched as they are, as TensorFlow does."""
from __future__ import annotations

import numpy as np

from ..composite.ragged_tensor import RaggedTensorSpec
from ..core import dtypes as _dt
from ..core import nest
from ..core.tensor import TensorSpec
from .dataset import Dataset


def _ragged_spec(spec, row_splits_dtype):
    if not isinstance(spec, TensorSpec) or spec.shape.rank is None or spec.shape.is_fully_defined():
        return spec
    ragged_rank = max(axis for axis, size in enumerate(spec.shape.as_list()) if size is None)
    return RaggedTensorSpec(spec.shape, spec.dtype, ragged_rank, row_splits_dtype)


def _to_ragged(spec, value):
    """An eager dense value as a RaggedTensor of `spec` (every row of a level as long as the others)."""
    if not isinstance(spec, RaggedTensorSpec) or spec.ragged_rank == 0 or hasattr(value, "ragged_rank"):
        return value
    from ..core.tensor import make_eager
    from .composite_elements import pack_components
    array, rank = np.asarray(value.numpy()), spec.ragged_rank
    dims = array.shape
    flat = array.reshape((int(np.prod(dims[:rank + 1])),) + dims[rank + 1:])
    splits = [np.arange(int(np.prod(dims[:level])) + 1, dtype=spec.row_splits_dtype.np_dtype) * dims[level]
              for level in range(1, rank + 1)]
    return pack_components(spec, [make_eager(flat, value.dtype)] +
                           [make_eager(s, spec.row_splits_dtype) for s in splits])


class DenseToRaggedDataset(Dataset):
    """The input's elements with each partly-known dense component turned ragged (a stream)."""
    _name = "_DenseToRaggedDataset"
    _indexable = False

    def __init__(self, parent, row_splits_dtype):
        self._parent = parent
        self._spec = nest.map_structure(lambda s: _ragged_spec(s, _dt.as_dtype(row_splits_dtype)),
                                        parent.element_spec)
        self._size = parent._size

    def _stream(self):
        specs = nest.flatten(self._spec)
        for element in self._parent._elements():
            leaves = [_to_ragged(s, v) for s, v in zip(specs, nest.flatten(element))]
            yield nest.pack_sequence_as(self._spec, leaves) if nest.is_nested(self._spec) else leaves[0]


def ragged_batch(dataset, batch_size, drop_remainder=False, row_splits_dtype=_dt.int64):
    from .transforms import BatchDataset
    spec = dataset.element_spec
    turned = nest.map_structure(lambda s: _ragged_spec(s, _dt.as_dtype(row_splits_dtype)), spec)
    if nest.flatten(turned) != nest.flatten(spec):
        dataset = DenseToRaggedDataset(dataset, row_splits_dtype)
    return BatchDataset(dataset, batch_size, drop_remainder)


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=_dt.int64):
    """`tf.data.experimental.dense_to_ragged_batch`: the transformation `Dataset.apply` takes."""
    return lambda dataset: ragged_batch(dataset, batch_size, drop_remainder, row_splits_dtype)
