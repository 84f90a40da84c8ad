"""`Dataset.list_files`: a dataset of the file names that glob patterns match (MatchingFiles, sorted),
shuffled by default with a buffer as large as the list, so a seed gives TensorFlow's order. An empty
match is refused as TensorFlow refuses it, with an assertion naming the pattern."""
from __future__ import annotations

import numpy as np

from ..core.context import state
from ..core.errors import InvalidArgumentError
from ..ops.io.matching_files import matching_files


def list_files(file_pattern, shuffle=None, seed=None):
    from .dataset import Dataset
    names = matching_files(file_pattern)
    if state.graph is None and names.shape[0] == 0:
        shown = np.ravel(np.asarray(file_pattern, dtype=object))
        pattern = ", ".join(p.decode() if isinstance(p, bytes) else str(p) for p in shown)
        raise InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                                               f"Summarized data: b'No files matched pattern: {pattern}'")
    dataset = Dataset.from_tensor_slices(names)
    if shuffle is None or shuffle:
        count = int(names.shape[0]) if names.shape[0] is not None else -2
        dataset = dataset.shuffle(count if count > 0 else 1, seed=seed)
    return dataset
