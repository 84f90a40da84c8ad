"""`keras.utils.timeseries_dataset_from_array` and `split_dataset`: tf.data pipelines Keras builds
from arrays."""
from __future__ import annotations

import numpy as np


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1, sampling_rate=1, batch_size=128,
                                  shuffle=False, seed=None, start_index=None, end_index=None):
    """Windows of `sequence_length` steps `sampling_rate` apart over `data[start_index:end_index]`,
    one starting every `sequence_stride` steps; with `targets`, window i (starting at s) pairs with
    `targets[s]`. Batched by `batch_size` (None: unbatched), optionally shuffled (windows, not steps)."""
    from ..._src.data.dataset import Dataset
    data = np.asarray(data)
    start_index = 0 if start_index is None else start_index
    end_index = len(data) if end_index is None else end_index
    for name, value in (("sequence_length", sequence_length), ("sampling_rate", sampling_rate),
                        ("sequence_stride", sequence_stride)):
        if value <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")
    if start_index < 0 or start_index >= len(data):
        raise ValueError(f"`start_index` must be 0 or greater and less than the number of samples. Received: "
                         f"start_index={start_index}")
    if end_index <= start_index or end_index > len(data):
        raise ValueError(f"`end_index` must be higher than `start_index` and lower or equal to the number of "
                         f"samples. Received: end_index={end_index}")
    span = (sequence_length - 1) * sampling_rate
    starts = np.arange(start_index, end_index - span, sequence_stride, dtype=np.int64)
    if shuffle:
        starts = np.random.default_rng(seed).permutation(starts)
    steps = np.arange(sequence_length, dtype=np.int64) * sampling_rate
    windows = data[starts[:, None] + steps[None, :]] if len(starts) else np.empty((0, sequence_length) + data.shape[1:],
                                                                                   data.dtype)
    if targets is not None:
        targets = np.asarray(targets)
        dataset = Dataset.from_tensor_slices((windows, targets[starts]))
    else:
        dataset = Dataset.from_tensor_slices(windows)
    return dataset if batch_size is None else dataset.batch(batch_size)


def _size(size, total, name):
    if size is None:
        return None
    if isinstance(size, float):
        if not 0 < size < 1:
            raise ValueError(f"{name} should be a float in the range (0, 1) or an int. Received: {name}={size}")
        return int(round(size * total))
    if isinstance(size, int):
        if not 0 < size < total:
            raise ValueError(f"{name} should be smaller than the number of samples {total}. Received: {name}={size}")
        return size
    raise TypeError(f"Invalid `{name}` type: {type(size)}; it should be a float or an int.")


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    """Two datasets from one (a tf.data Dataset, an array, or a tuple/list of arrays): the first
    `left_size` elements and the rest (sizes as counts or fractions; one may be None)."""
    from ..._src.core import nest
    from ..._src.data.dataset import Dataset
    if left_size is None and right_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. Received: "
                         "left_size=None and right_size=None")
    if isinstance(dataset, Dataset):
        elements = list(dataset.as_numpy_iterator())
        if elements and isinstance(elements[0], tuple):
            arrays = tuple(np.stack(column) for column in zip(*elements))
        else:
            arrays = np.asarray(elements)
    elif isinstance(dataset, tuple):
        arrays = tuple(np.asarray(a) for a in dataset)
    else:
        arrays = np.asarray(dataset)
    total = len(nest.flatten(arrays, expand_composites=True)[0])
    left, right = _size(left_size, total, "left_size"), _size(right_size, total, "right_size")
    if left is None:
        left = total - right
    elif right is None:
        right = total - left
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the total number of "
                         f"samples. Received: left_size + right_size = {left + right} and total_length = {total}")
    order = np.random.default_rng(seed).permutation(total) if shuffle else np.arange(total)
    pick = lambda idx: nest.map_structure(lambda a: a[idx], arrays, expand_composites=True)  # noqa: E731
    return (Dataset.from_tensor_slices(pick(order[:left])),
            Dataset.from_tensor_slices(pick(order[left:left + right])))
