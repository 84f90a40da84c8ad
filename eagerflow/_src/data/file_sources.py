"""What TextLineDataset and TFRecordDataset share: the `filenames` argument and the reading order.

`filenames` is a string, a list or tensor of strings (any rank, read in row-major order) or a
dataset of string scalars, as in TensorFlow. Files are opened only when a pass reads them, so a
missing file fails at iteration ("<path>; No such file or directory"), not at construction.

These datasets are streams (dataset.py): Python reads the files in order, eagerly or, inside a
tf.function, when the function runs (stream.py), as GeneratorDataset does. With
`num_parallel_reads` > 1 the files are read as TensorFlow's deterministic interleave reads them:
that many files open at once, one record from each in turn; a finished file gives its turn up and
the next file takes its slot at that slot's next turn.
"""
from __future__ import annotations

import os

import numpy as np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..core.shape import TensorShape
from ..core.tensor import TensorSpec, make_eager
from ..ops.registry import static_value
from .dataset import AUTOTUNE, Dataset
from .structure import UNKNOWN


def _path(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class FileRecordsDataset(Dataset):
    """A stream of tf.string scalars: the records of each file. Subclasses say how a file splits
    into records (`_records(path)`, a generator of bytes)."""

    _indexable = False

    def __init__(self, filenames, num_parallel_reads=None):
        if isinstance(filenames, Dataset):
            spec = filenames.element_spec
            if not isinstance(spec, TensorSpec) or spec.dtype != _dt.string:
                raise TypeError("The `filenames` argument must contain `tf.string` elements. Got a dataset of "
                                f"`{spec}` elements.")
            self._filenames = filenames
        else:
            tensor = convert_to_tensor(filenames)
            if tensor.dtype != _dt.string:
                raise TypeError("The `filenames` argument must contain `tf.string` elements. Got "
                                f"`{tensor.dtype!r}` elements.")
            value = static_value(tensor)  # an eager tensor's, or a constant's inside a trace
            if value is None:
                raise TypeError(f"{type(self).__name__} reads its files with Python when it is iterated, so its "
                                "`filenames` must be known outside the traced function: build the dataset "
                                "outside tf.function and pass it in.")
            self._filenames = [_path(v) for v in np.asarray(value, dtype=object).reshape(-1)]
        self._parallel = 1 if num_parallel_reads is None else int(num_parallel_reads)
        if self._parallel == AUTOTUNE:
            self._parallel = os.cpu_count() or 1
        self._spec = TensorSpec(TensorShape([]), _dt.string)
        self._size = UNKNOWN

    def _paths(self):
        if isinstance(self._filenames, Dataset):
            return (_path(t.numpy()) for t in self._filenames._elements())
        return iter(self._filenames)

    def _stream(self):
        records = (self._records(path) for path in self._paths())
        source = _interleaved(records, self._parallel) if self._parallel > 1 else _chained(records)
        for record in source:
            yield make_eager(np.array(record, dtype=object), _dt.string)

    def _records(self, path):
        raise NotImplementedError


def _chained(iterators):
    for it in iterators:
        yield from it


def _interleaved(iterators, cycle):
    slots = [None] * cycle
    index, open_count, exhausted = 0, 0, False
    end = object()
    while not exhausted or open_count:
        if slots[index] is None:
            if not exhausted:
                slots[index] = next(iterators, None)
                if slots[index] is None:
                    exhausted = True
                else:
                    open_count += 1
                    continue
        else:
            value = next(slots[index], end)
            if value is not end:
                yield value
            else:
                slots[index] = None
                open_count -= 1
        index = (index + 1) % cycle
