"""`Dataset.rejection_resample` and `tf.data.experimental.rejection_resample`: the input's elements kept or
dropped at random so that their classes (`class_func(element)`, an integer scalar) follow `target_dist`,
as (class, element) pairs.

An element of class c is kept with probability ratio[c] / max(ratio), ratio = target / initial: the
kept classes then follow the target exactly. The initial distribution is `initial_dist` when given, else
estimated as the pass goes (each class's count so far, every count starting at 10 so that the first
elements do not swing it). The draws come from NumPy's generator seeded by `seed` (or fresh each pass
without one): the distribution is TensorFlow's, the particular elements kept for a seed are not.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import InvalidArgumentError
from ..core.tensor import TensorSpec
from .dataset import Dataset
from .structure import UNKNOWN

_PRIOR_COUNT = 10


def _distribution(values, name):
    array = np.asarray(values.numpy() if hasattr(values, "numpy") else values, np.float64)
    if array.ndim != 1 or array.size == 0 or (array < 0).any():
        raise InvalidArgumentError(None, None, f"`{name}` must be a non-empty vector of non-negative probabilities")
    return array


class RejectionResampleDataset(Dataset):
    _name = "_RejectionResampleDataset"
    _indexable = False

    def __init__(self, parent, class_func, target_dist, initial_dist=None, seed=None):
        self._parent, self._seed = parent, seed
        self._target = _distribution(target_dist, "target_dist")
        self._initial = None if initial_dist is None else _distribution(initial_dist, "initial_dist")
        if self._initial is not None and self._initial.shape != self._target.shape:
            raise InvalidArgumentError(None, None, "`initial_dist` and `target_dist` must have the same length")
        from .functions import call_with_element, output_spec, trace
        self._class_of = trace(class_func, parent.element_spec, call_with_element, name="class_func")
        spec = output_spec(self._class_of)
        if not (isinstance(spec, TensorSpec) and spec.shape.rank == 0 and spec.dtype in (_dt.int32, _dt.int64)):
            raise ValueError(f"`class_func` must return an int32 or int64 scalar, not {spec}")
        self._spec = (spec, parent.element_spec)
        self._size = UNKNOWN

    def _acceptance(self, initial):
        ratio = np.divide(self._target, initial, out=np.zeros_like(self._target), where=initial > 0)
        top = ratio.max()
        return ratio / top if top > 0 else ratio

    def _stream(self):
        rng = np.random.default_rng(self._seed)
        counts = np.full(self._target.shape, float(_PRIOR_COUNT))
        fixed = None if self._initial is None else self._acceptance(self._initial)
        for element in self._parent._elements():
            label = self._class_of(*nest.flatten(element, expand_composites=True))
            c = int(label.numpy())
            if not 0 <= c < len(self._target):
                raise InvalidArgumentError(None, None, f"class {c} is outside [0, {len(self._target)})")
            if fixed is None:
                counts[c] += 1
            accept = fixed if fixed is not None else self._acceptance(counts / counts.sum())
            if rng.random() < accept[c]:
                yield label, element


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """The transformation for `Dataset.apply`."""
    return lambda dataset: RejectionResampleDataset(dataset, class_func, target_dist, initial_dist, seed)
