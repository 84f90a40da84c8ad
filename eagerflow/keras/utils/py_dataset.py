"""`keras.utils.PyDataset` (alias `Sequence`): a Python object that hands out whole batches by
index, for data that does not fit in memory or is built on the fly; fit/evaluate/predict iterate it.

What Keras 3.15 does, restated: `__len__` (or the `num_batches` property) gives the batches per
epoch (None: infinite, ended by IndexError or by `steps_per_epoch`); `__getitem__(i)` returns
`x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)` as arrays of rank >= 1; each epoch calls
`on_epoch_begin()` first and `on_epoch_end()` last; fit(shuffle=True) visits a finite dataset's
batches in a new random order each epoch. `workers`/`use_multiprocessing`/`max_queue_size` are
accepted and kept (batches are made in the calling thread here).
"""
from __future__ import annotations

import warnings

import numpy as np

from ..._src.core import nest
from ..._src.core.dtypes import from_numpy
from ..._src.core.tensor import Tensor, make_eager


class PyDataset:
    """Base class: subclass it, call `super().__init__(**kwargs)`, define `__len__` and `__getitem__`."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    @property
    def workers(self):
        return getattr(self, "_workers", 1)

    @property
    def use_multiprocessing(self):
        return getattr(self, "_use_multiprocessing", False)

    @property
    def max_queue_size(self):
        return getattr(self, "_max_queue_size", 10)

    @property
    def num_batches(self):
        """Batches per epoch: `len(self)` by default; None for an infinite dataset."""
        if hasattr(self, "__len__"):
            return len(self)
        return None

    def __getitem__(self, index):
        raise NotImplementedError

    def on_epoch_begin(self):
        """Called at the start of every epoch."""

    def on_epoch_end(self):
        """Called at the end of every epoch."""


Sequence = PyDataset


def is_py_dataset(x) -> bool:
    return isinstance(x, PyDataset)


def _tensor(value):
    if isinstance(value, Tensor):
        if value.shape.rank == 0:
            raise _rank_error(value)
        return value
    array = np.asarray(value)
    if array.ndim == 0:
        raise _rank_error(value)
    if array.dtype.kind == "f" and array.dtype != np.float32:
        array = array.astype(np.float32)  # as fit's arrays: floating data trains in float32
    return make_eager(array, from_numpy(array.dtype))


def _rank_error(value):
    return ValueError(f"When passing a dataset to a Keras model, the arrays must be at least rank 1. Received: "
                      f"{value} of rank 0.")


class PyDatasetBatches:
    """fit/evaluate/predict's view of a PyDataset: one `for` loop is one epoch."""

    def __init__(self, dataset, shuffle=False):
        if not hasattr(dataset, "_workers"):
            warnings.warn("Your `PyDataset` class should call `super().__init__(**kwargs)` in its constructor. "
                          "`**kwargs` can include `workers`, `use_multiprocessing`, `max_queue_size`. Do not pass "
                          "these arguments to `fit()`, as they will be ignored.", UserWarning, stacklevel=4)
        self.dataset = dataset
        self.steps = dataset.num_batches
        if shuffle and self.steps is None:
            warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as an "
                          "infinite PyDataset. The PyDataset is expected to already be shuffled.", UserWarning,
                          stacklevel=4)
        self.shuffle = shuffle and self.steps is not None

    def _indices(self):
        if self.steps is None:
            index = 0
            while True:
                yield index
                index += 1
        order = np.random.permutation(self.steps) if self.shuffle else range(self.steps)
        yield from (int(i) for i in order)

    def __iter__(self):
        dataset = self.dataset
        dataset.on_epoch_begin()
        try:
            for index in self._indices():
                try:
                    element = dataset[index]
                except IndexError:
                    if self.steps is None:
                        return
                    raise
                if isinstance(element, list):
                    element = tuple(element)
                element = element if isinstance(element, tuple) else (element,)
                yield tuple(None if part is None else nest.map_structure(_tensor, part, expand_composites=True)
                            for part in element)
        finally:
            dataset.on_epoch_end()
