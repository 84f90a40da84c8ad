"""Dataset.random, Dataset.ignore_errors and tf.data.experimental.group_by_reducer: three streams.

- RandomDataset: endless int64 scalars, each a 32-bit word of TensorFlow's PhiloxRandom(seed, seed2)
  stream (shuffle.py's `philox_words`), so a seed gives TensorFlow 2.21's values. Every pass restarts
  the stream, unless `rerandomize_each_iteration`: then pass k is keyed by words 2k, 2k+1 of the
  stream, as TensorFlow's seed generator (shuffle.py's PassSeeds) hands out a pass's seeds.
- IgnoreErrorsDataset: the input's elements, less those whose computation raised a tf.errors error.
  A Python generator that raised is finished, so errors are caught where the element is computed:
  per index for an indexable input, per element of the stream below a chain of maps and filters; any other
  stream ends at its first error.
- GroupByReducerDataset: a fold per key (init_func(key), reduce_func(state, element),
  finalize_func(state)); the finalized states come out in ascending key order, as TensorFlow's.
"""
from __future__ import annotations

import itertools
import logging

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import OpError, OutOfRangeError
from ..core.shape import TensorShape
from ..core.tensor import TensorSpec, make_eager
from .dataset import Dataset
from .functions import call_with_element, output_spec, trace
from .structure import INFINITE, UNKNOWN, is_static

_BATCH = 1024


class RandomDataset(Dataset):
    """`tf.data.Dataset.random` / `tf.data.experimental.RandomDataset`: see the module docstring."""
    _name = "RandomDataset"
    _indexable = False

    def __init__(self, seed=None, rerandomize_each_iteration=None, name=None):
        from ..ops.random.draws import get_seed
        from .shuffle import PassSeeds
        self._seeds = PassSeeds(*get_seed(seed), bool(rerandomize_each_iteration))
        self._spec = TensorSpec(TensorShape([]), _dt.int64)
        self._size = INFINITE

    def _stream(self):
        from .shuffle import philox_words
        (pair,) = self._seeds.take(1)
        for first in itertools.count(0, _BATCH):
            for word in philox_words(*pair, first, _BATCH).astype(np.int64):
                yield make_eager(np.asarray(word), _dt.int64)


class IgnoreErrorsDataset(Dataset):
    """See the module docstring."""
    _name = "_IgnoreErrorsDataset"
    _indexable = False

    def __init__(self, parent, log_warning=False):
        self._parent, self._spec = parent, parent.element_spec
        self._size = INFINITE if is_static(parent._size) and parent._size == INFINITE else UNKNOWN
        self._log = bool(log_warning)

    def _stream(self):
        yield from _surviving(self._parent, self._log)


def _skipped(error, log):
    if log:
        logging.getLogger("eagerflow").warning("Ignoring an error while producing a dataset element: %s", error)


def _surviving(dataset, log):
    from .transforms import MapDataset
    from .transforms_streaming import FilterDataset
    if dataset._indexable and is_static(dataset._size) and dataset._size != UNKNOWN:
        reader = dataset._open(1)
        indices = itertools.count() if dataset._size == INFINITE else range(int(dataset._size))
        for i in indices:
            try:
                element = reader.element(i, 0)
            except OutOfRangeError:
                return
            except OpError as error:
                _skipped(error, log)
                continue
            yield element
        return
    if isinstance(dataset, (MapDataset, FilterDataset)):
        is_map = isinstance(dataset, MapDataset)
        fn = dataset._concrete if is_map else dataset._fn
        for element in _surviving(dataset._parent, log):
            try:
                out = fn(*nest.flatten(element, expand_composites=True))
                keep = True if is_map else bool(out)
            except OpError as error:
                _skipped(error, log)
                continue
            if keep:
                yield out if is_map else element
        return
    elements = dataset._elements()
    while True:
        try:
            element = next(elements)
        except StopIteration:
            return
        except OutOfRangeError:
            return
        except OpError as error:  # the stream itself failed: it cannot go on
            _skipped(error, log)
            return
        yield element


class Reducer:
    """`tf.data.experimental.Reducer`: the three functions of a per-key fold."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self.init_func, self.reduce_func, self.finalize_func = init_func, reduce_func, finalize_func


def _zeros_of(spec):
    from ..ops.array.basic import zeros
    return nest.map_structure(lambda s: zeros([d or 0 for d in s.shape.as_list()], s.dtype), spec,
                              expand_composites=True)


class GroupByReducerDataset(Dataset):
    """See the module docstring."""
    _name = "_GroupByReducerDataset"
    _indexable = False

    def __init__(self, parent, key_func, reducer):
        from .reduce import fixed_state_function
        self._parent, self._size = parent, UNKNOWN
        self._key = trace(key_func, parent.element_spec, call_with_element, name="key_func")
        key_spec = output_spec(self._key)
        if nest.is_nested(key_spec) or key_spec.dtype != _dt.int64 or key_spec.shape.rank != 0:
            raise ValueError(f"Invalid `key_func`. `key_func` must return a single `tf.int64` scalar tensor but its "
                             f"return type is {key_spec}.")
        self._init = trace(reducer.init_func, TensorSpec(TensorShape([]), _dt.int64), call_with_element,
                           name="init_func")
        initial = _zeros_of(output_spec(self._init))
        self._reduce, state_spec = fixed_state_function(reducer.reduce_func, initial, parent.element_spec,
                                                        lambda fn, inputs: fn(*inputs), "reduce_func")
        self._finalize = trace(reducer.finalize_func, state_spec, call_with_element, name="finalize_func")
        self._spec = output_spec(self._finalize)

    def _stream(self):
        states = {}
        for element in self._parent._elements():
            flat = nest.flatten(element, expand_composites=True)
            key = int(self._key(*flat).numpy())
            if key not in states:
                states[key] = self._init(make_eager(np.asarray(key, np.int64), _dt.int64))
            states[key] = self._reduce(*nest.flatten(states[key], expand_composites=True), *flat)
        for key in sorted(states):
            yield self._finalize(*nest.flatten(states[key], expand_composites=True))
