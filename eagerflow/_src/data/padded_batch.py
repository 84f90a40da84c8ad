"""`Dataset.padded_batch`: batches of elements whose shapes differ, each component padded to a
common shape: `padded_shapes` where given (a None dimension: the longest in the batch), else the
longest in the batch along every dimension. A stream (the padding depends on each batch)."""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.convert import convert_to_tensor
from ..core.errors import DataLossError, InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import Tensor, TensorSpec, make_eager
from .dataset import Dataset
from .structure import is_static


def _leaves_up_to(spec, value):
    """`value`'s parts aligned with the flattened `spec` (a leaf of `spec` takes a whole part)."""
    if not nest.is_nested(spec, expand_composites=True):
        return [value]
    if isinstance(spec, dict):
        return [leaf for k in sorted(spec) for leaf in _leaves_up_to(spec[k], value[k])]
    if len(value) != len(spec):
        raise ValueError(f"The two structures don't have the same nested structure: {spec} and {value}")
    return [leaf for s, v in zip(spec, value) for leaf in _leaves_up_to(s, v)]


def _can_pad(padded, shape):
    """Same rank, and no known dimension padded to fewer than the element's known size."""
    if padded.rank is None or shape.rank is None:
        return True
    if padded.rank != shape.rank:
        return False
    return all(p is None or d is None or p >= d for p, d in zip(padded.as_list(), shape.as_list()))


def _padded_shapes(flat, padded_shapes, spec):
    if padded_shapes is None:
        for i, s in enumerate(flat):
            if s.shape.rank is None:
                raise ValueError(f"You must provide `padded_shapes` argument because component {i} has unknown rank.")
        return [s.shape for s in flat]
    shapes = []
    for s, p in zip(flat, _leaves_up_to(spec, padded_shapes)):
        p = TensorShape(None if p is None else list(p.as_list() if isinstance(p, TensorShape) else p))
        if not _can_pad(p, s.shape):
            raise ValueError(f"The padded shape {p} is not compatible with the shape {s.shape} of the "
                             "corresponding input component.")
        shapes.append(p)
    return shapes


def _padding_values(flat, padding_values, spec):
    if padding_values is None:
        return [np.array(b"", dtype=object) if s.dtype == _dt.string else np.zeros((), s.dtype.np_dtype)
                for s in flat]
    nested = nest.is_nested(padding_values, expand_composites=True)
    values = _leaves_up_to(spec, padding_values) if nested else [padding_values] * len(flat)
    out = []
    for s, v in zip(flat, values):
        t = v if isinstance(v, Tensor) else convert_to_tensor(v)
        if t.dtype != s.dtype:
            raise TypeError(f"Invalid `padding_values`. `padding_values` values type <dtype: '{t.dtype.name}'> does not "
                            f"match type <dtype: '{s.dtype.name}'> of the corresponding input component.")
        if t.shape.rank != 0:
            raise ValueError(f"Invalid `padding_values`. `padding_values` values should be scalars, but got {t}.")
        out.append(t.numpy())
    return out


class PaddedBatchDataset(Dataset):
    _name = "_PaddedBatchDataset"
    _indexable = False

    def __init__(self, parent, batch_size, padded_shapes, padding_values, drop_remainder):
        self._parent = parent
        b = int(batch_size.numpy()) if isinstance(batch_size, Tensor) else int(batch_size)
        if b <= 0:
            raise InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        self._b, self._drop = b, bool(drop_remainder)
        spec = parent.element_spec
        flat = nest.flatten(spec, expand_composites=True)
        for s in flat:
            if not isinstance(s, TensorSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce tensor elements but "
                                "type spec of elements in the input dataset is not a subclass of TensorSpec: "
                                f"`{s!r}`.")
        self._shapes = _padded_shapes(flat, padded_shapes, spec)
        self._values = _padding_values(flat, padding_values, spec)
        lead = b if self._drop else None
        self._spec = nest.pack_sequence_as(spec, [TensorSpec(TensorShape([lead]).concatenate(p), s.dtype)
                                                  for p, s in zip(self._shapes, flat)], expand_composites=True)
        n = parent._size
        if not is_static(n) or n < 0:
            self._size = n if is_static(n) else (n // b if self._drop else (n + b - 1) // b)
        else:
            self._size = n // b if self._drop else (n + b - 1) // b

    def _stream(self):
        rows = []
        for element in self._parent._elements():
            rows.append(element)
            if len(rows) == self._b:
                yield self._pad(rows)
                rows = []
        if rows and not self._drop:
            yield self._pad(rows)

    def _pad(self, rows):
        flat_rows = [nest.flatten(r, expand_composites=True) for r in rows]
        out = []
        for i, (shape, value, spec) in enumerate(zip(self._shapes, self._values,
                                                     nest.flatten(self._parent.element_spec, expand_composites=True))):
            arrays = [r[i].numpy() for r in flat_rows]
            rank = arrays[0].ndim
            wanted = shape.as_list() if shape.rank is not None else [None] * rank
            target = []
            for axis, d in enumerate(wanted):
                longest = max(a.shape[axis] for a in arrays)
                if d is not None and longest > d:
                    raise DataLossError(None, None, "Attempted to pad to a smaller size than the input element.")
                target.append(longest if d is None else d)
            batch = np.full([len(arrays)] + target, value, dtype=arrays[0].dtype)
            for j, a in enumerate(arrays):
                batch[(j,) + tuple(slice(0, k) for k in a.shape)] = a
            out.append(make_eager(batch, spec.dtype))
        return nest.pack_sequence_as(self._parent.element_spec, out, expand_composites=True)
