"""What fit/evaluate/predict iterate over: arrays cut into batches, or a tf.data Dataset.

Arrays: floating arrays are converted to float32 once (as Keras' array adapter does), each epoch
is optionally shuffled with one permutation, and batches are contiguous slices. A Dataset's
elements are `x`, `(x, y)` or `(x, y, sample_weight)`, already batched.
"""
from __future__ import annotations

import numpy as np

from ..._src.core import nest
from ..._src.core.tensor import Tensor
from ..._src.state.variables import Variable


def _as_array(value):
    if isinstance(value, (Tensor, Variable)):
        value = value.numpy()
    value = np.asarray(value)
    if value.dtype.kind == "f" and value.dtype != np.float32:
        value = value.astype(np.float32)
    return value


def is_dataset(x):
    from ..._src.data.dataset import Dataset
    return isinstance(x, Dataset)


def _sizes_message(arrays):
    parts = []
    for name, value in zip(("x", "y", "sample_weight"), arrays):
        if value is not None:
            sizes = ", ".join(str(a.shape[0]) for a in nest.flatten(value))
            parts.append(f"'{name}' sizes: {sizes}\n")
    return "".join(parts)


class ArrayBatches:
    def __init__(self, x, y=None, sample_weight=None, batch_size=32, shuffle=False):
        self.x = nest.map_structure(_as_array, x)
        self.y = None if y is None else nest.map_structure(_as_array, y)
        self.sample_weight = None if sample_weight is None else _as_array(sample_weight)
        counts = {a.shape[0] for part in (self.x, self.y, self.sample_weight) if part is not None
                  for a in nest.flatten(part)}
        if len(counts) != 1:
            raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the same number of "
                             "samples." + _sizes_message((self.x, self.y, self.sample_weight)))
        self.num_samples = counts.pop()
        self.batch_size = int(batch_size or 32)
        self.shuffle = shuffle

    @property
    def steps(self):
        return -(-self.num_samples // self.batch_size)

    def split(self, validation_split):
        """Keras' validation_split: the last fraction of the samples, taken before any shuffling."""
        if not 0 < validation_split < 1:
            raise ValueError(f"`validation_split` must be between 0 and 1 (exclusive). Received: {validation_split}")
        cut = int(self.num_samples * (1.0 - validation_split))

        def part(v, s):
            return None if v is None else nest.map_structure(lambda a: a[s], v)

        val = ArrayBatches(part(self.x, slice(cut, None)), part(self.y, slice(cut, None)),
                           part(self.sample_weight, slice(cut, None)), self.batch_size, False)
        train = ArrayBatches(part(self.x, slice(None, cut)), part(self.y, slice(None, cut)),
                             part(self.sample_weight, slice(None, cut)), self.batch_size, self.shuffle)
        return train, val

    def __iter__(self):
        x, y, sw = self.x, self.y, self.sample_weight
        if self.shuffle:
            perm = np.random.permutation(self.num_samples)
            x = nest.map_structure(lambda a: a[perm], x)
            y = None if y is None else nest.map_structure(lambda a: a[perm], y)
            sw = None if sw is None else sw[perm]
        bs = self.batch_size
        if isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and sw is None:  # the common case, kept lean
            for start in range(0, self.num_samples, bs):
                yield x[start:start + bs], y[start:start + bs]
            return
        for start in range(0, self.num_samples, bs):
            s = slice(start, start + bs)
            bx = nest.map_structure(lambda a: a[s], x)
            if y is None:
                yield (bx,)
            elif sw is None:
                yield bx, nest.map_structure(lambda a: a[s], y)
            else:
                yield bx, nest.map_structure(lambda a: a[s], y), sw[s]


class DatasetBatches:
    def __init__(self, dataset):
        self.dataset = dataset
        try:
            n = int(dataset.cardinality())
        except Exception:  # noqa: BLE001 - a dataset whose length is unknown runs until it ends
            n = -2
        self.steps = n if n >= 0 else None

    def __iter__(self):
        for element in self.dataset:
            yield tuple(element) if isinstance(element, tuple) else (element,)


def make_batches(x, y=None, sample_weight=None, batch_size=None, shuffle=False):
    if is_dataset(x):
        if y is not None:
            raise ValueError("When providing `x` as a tf.data.Dataset, `y` should not be passed. Instead, the "
                             "targets should be included as part of the tf.data.Dataset.")
        return DatasetBatches(x)
    if x is None:
        raise ValueError("Unrecognized data type: x=None")
    return ArrayBatches(x, y, sample_weight, batch_size, shuffle)
