"""`Dataset.sparse_batch` (and `tf.data.experimental.dense_to_sparse_batch`): batches of dense elements of
different shapes as one SparseTensor each, [batch] + `row_shape`, holding every value of every element
(zeros too) at its place. A None dimension of `row_shape` is the largest in the batch; an element larger
than `row_shape` is TensorFlow's DataLossError, one of another rank its InvalidArgumentError."""
from __future__ import annotations

import numpy as np

from ..composite.sparse_tensor import SparseTensor, SparseTensorSpec
from ..core import dtypes as _dt
from ..core.errors import DataLossError, InvalidArgumentError
from ..core.shape import TensorShape, as_shape
from ..core.tensor import make_eager
from .dataset import Dataset
from .structure import is_static


def _shape_text(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


class SparseBatchDataset(Dataset):
    _name = "_DenseToSparseBatchDataset"
    _indexable = False

    def __init__(self, parent, batch_size, row_shape):
        self._parent, self._b = parent, int(batch_size)
        if self._b <= 0:
            raise InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        self._row = as_shape(row_shape)
        spec = parent.element_spec
        self._spec = SparseTensorSpec(TensorShape([None]).concatenate(self._row), spec.dtype)
        n = parent._size
        self._size = n if not is_static(n) or n < 0 else (n + self._b - 1) // self._b

    def _stream(self):
        rows = []
        for element in self._parent._elements():
            rows.append(np.asarray(element.numpy()))
            if len(rows) == self._b:
                yield self._sparse(rows)
                rows = []
        if rows:
            yield self._sparse(rows)

    def _sparse(self, rows):
        wanted = self._row.as_list()
        for row in rows:
            if row.ndim != len(wanted):
                raise InvalidArgumentError(None, None, f"Input element had shape ({_shape_text(row.shape)}) that is "
                                                       f"incompatible with the row shape ({_shape_text(wanted)}).")
            if any(w is not None and d > w for d, w in zip(row.shape, wanted)):
                raise DataLossError(None, None, f"Input element had shape ({_shape_text(row.shape)}) that is larger "
                                                f"than the row shape ({_shape_text(wanted)}).")
        dims = [w if w is not None else max(r.shape[axis] for r in rows) for axis, w in enumerate(wanted)]
        indices = [np.concatenate([np.full((r.size, 1), i, np.int64),
                                   np.argwhere(np.ones(r.shape, bool)).astype(np.int64).reshape(r.size, r.ndim)], 1)
                   for i, r in enumerate(rows)]
        values = np.concatenate([r.reshape(-1) for r in rows])
        dtype = self._spec.dtype
        return SparseTensor(make_eager(np.concatenate(indices), _dt.int64), make_eager(values, dtype),
                            make_eager(np.array([len(rows)] + dims, np.int64), _dt.int64))


def dense_to_sparse_batch(batch_size, row_shape):
    """`tf.data.experimental.dense_to_sparse_batch`: the transformation `Dataset.apply` takes."""
    return lambda dataset: SparseBatchDataset(dataset, batch_size, row_shape)



