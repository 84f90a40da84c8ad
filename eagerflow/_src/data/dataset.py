"""`tf.data.Dataset`: the API; the in-memory sources (slices, whole tensors, a range) are in tensor_sources.py.

A Dataset here is a description of a sequence of one of two kinds:
- indexable (reader.py): element i can be computed from i, with ops in a graph. Sources and
  index arithmetic (batch, map, repeat, take, skip, zip, unbatch of known rows, shuffle of a
  finite input) are; a `for` over one inside tf.function is a single tf.while_loop over indices;
- a stream: elements yielded in order by Python (`_stream()`): filter, flat_map, interleave,
  window, scan, padded_batch, concatenate, from_generator, and anything above one. Inside
  tf.function a stream's Python runs when the function runs (stream.py).
Where the methods live: transforms.py (index arithmetic), transforms_structural.py (zip,
concatenate, unbatch), transforms_streaming.py, padded_batch.py, shuffle.py, generator.py,
reduce.py, iterator.py (`iter(ds)`), options.py.

Trace key: a Dataset passed to a tf.function is keyed by its pipeline (trace/datasets.py): the
sources' tensors and the counts (batch size, take/skip/repeat counts) are fed to the trace as
inputs, so `ds.batch(3)` and `ds.batch(4)` share one trace, as in TensorFlow (which keys a dataset
by its element spec); range bounds key by value. A pipeline the trace cannot rebuild (a stream
anywhere in it, shuffle, zip, a subclass of its own, a dataset changed after construction) is
keyed by identity, weakly. An iterator (iterator.py) keys by its element spec and is fed.
"""
from __future__ import annotations

import functools
import itertools

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.tensor import Tensor
from .structure import INFINITE, UNKNOWN, is_static

AUTOTUNE = -1


class Dataset:
    """Base class: subclasses give `element_spec`, `_size` (an int, INFINITE, or an int32 tensor
    when only known at run time) and `_open(epochs)` -> a Reader."""

    _name = "Dataset"

    def __new__(cls, *args, **kwargs):
        self = super().__new__(cls)
        self._built_in_trace = state.graph is not None  # see data/stream.py: PassHolder
        return self

    def __init_subclass__(cls, **kwargs):
        """Every dataset remembers how it was built, `_recipe = (class, constructor arguments)`, so
        a tf.function can key a dataset argument by its pipeline and rebuild that pipeline on
        placeholders (trace/datasets.py), as TensorFlow feeds a dataset to a function."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def recording_init(self, *args, **kw):
            if "_recipe" not in self.__dict__:  # the outermost constructor's arguments
                self._recipe = (type(self), args, kw)
            init(self, *args, **kw)
        cls.__init__ = recording_init

    # --- sources ---
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        from .tensor_sources import _TensorSliceDataset
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        from .tensor_sources import _TensorDataset
        return _TensorDataset(tensors)

    @staticmethod
    def range(*args, output_type=_dt.int64, name=None):  # noqa: A003 - TensorFlow's name
        from .tensor_sources import _RangeDataset
        return _RangeDataset(args, output_type)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The paths matching `file_pattern` (a pattern or a list of them), sorted, then shuffled unless
        `shuffle=False` (with TensorFlow's order for a seed). No match: TensorFlow's InvalidArgumentError."""
        from .list_files import list_files
        return list_files(file_pattern, shuffle, seed)

    @staticmethod
    def counter(start=0, step=1, dtype=_dt.int64, name=None):
        """start, start + step, ... without end (a range whose length is INFINITE)."""
        from .tensor_sources import _RangeDataset
        counter = _RangeDataset((start, start + step, step), dtype)
        counter._size = INFINITE
        counter._recipe = None  # not the range its constructor made: a tf.function keys it by identity
        return counter

    # --- transformations (transforms.py) ---
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        from .transforms import BatchDataset
        return BatchDataset(self, batch_size, drop_remainder)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        from .transforms import MapDataset
        mapped = MapDataset(self, map_func)
        if num_parallel_calls is not None:  # threads when iterated eagerly (parallel.py); not a constructor argument
            from .parallel import workers
            mapped._parallel = workers(num_parallel_calls)
        return mapped

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        from .shuffle import shuffle
        return shuffle(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        from .transforms import RepeatDataset
        return RepeatDataset(self, count)

    def take(self, count, name=None):
        from .transforms import TakeDataset
        return TakeDataset(self, count)

    def skip(self, count, name=None):
        from .transforms import SkipDataset
        return SkipDataset(self, count)

    def prefetch(self, buffer_size, name=None):
        """The same elements, computed ahead by a producer thread when iterated eagerly (parallel.py). The
        buffer size is checked as TensorFlow's kernel checks it (-1 asks for auto-tuning)."""
        from ..ops.registry import static_value
        from .transforms import PrefetchDataset
        size = static_value(buffer_size) if isinstance(buffer_size, Tensor) else buffer_size
        if size is not None and int(size) < -1:
            raise InvalidArgumentError(None, None, "buffer_size must be >= 0 or set buffer_size to be -1 for "
                                                   "auto-tuning")
        return PrefetchDataset(self, buffer_size)

    def cache(self, filename="", name=None):
        """Elements are already computed from in-memory tensors: the same elements."""
        from .transforms import PassThroughDataset
        return PassThroughDataset(self, "_CacheDataset")

    def filter(self, predicate, name=None):  # noqa: A003 - TensorFlow's name
        from .transforms_streaming import FilterDataset
        return FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        from .transforms_streaming import FlatMapDataset
        return FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        from .transforms_streaming import InterleaveDataset
        return InterleaveDataset(self, map_func, cycle_length, block_length)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        from .transforms_streaming import WindowDataset
        return WindowDataset(self, size, shift, stride, drop_remainder)

    def scan(self, initial_state, scan_func, name=None):
        from .transforms_streaming import ScanDataset
        return ScanDataset(self, initial_state, scan_func)

    def unbatch(self, name=None):
        from .transforms_structural import unbatch
        return unbatch(self)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=_dt.int64, name=None):
        """Batches whose partly-known components become RaggedTensors instead of padded (ragged_batch.py)."""
        from .ragged_batch import ragged_batch
        return ragged_batch(self, batch_size, drop_remainder, row_splits_dtype)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None, name=None):
        """(class, element) pairs whose classes follow `target_dist` (rejection_resample.py)."""
        from .rejection_resample import RejectionResampleDataset
        return RejectionResampleDataset(self, class_func, target_dist, initial_dist, seed)

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batches of dense elements as SparseTensors of shape [batch] + row_shape (sparse_batch.py)."""
        from .sparse_batch import SparseBatchDataset
        return SparseBatchDataset(self, batch_size, row_shape)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        from .padded_batch import PaddedBatchDataset
        return PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def concatenate(self, dataset, name=None):
        from .transforms_structural import ConcatenateDataset
        return ConcatenateDataset(self, dataset)

    def enumerate(self, start=0, name=None):  # noqa: A003 - TensorFlow's name
        from .transforms_structural import ZipDataset
        return ZipDataset((Dataset.counter(start), self))

    @staticmethod
    def zip(*args, datasets=None, name=None):
        from .transforms_structural import zip_datasets
        return zip_datasets(args, datasets)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        from .generator import GeneratorDataset
        return GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    def take_while(self, predicate, name=None):
        from .transforms_streaming import TakeWhileDataset
        return TakeWhileDataset(self, predicate)

    def unique(self, name=None):
        from .transforms_streaming import UniqueDataset
        return UniqueDataset(self)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        from .transforms_grouping import GroupByWindowDataset
        return GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        from .transforms_grouping import bucket_by_sequence_length
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                         drop_remainder)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        from .transforms_grouping import RebatchDataset
        return RebatchDataset(self, batch_size, drop_remainder)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        from .transforms_grouping import ChooseFromDatasets
        return ChooseFromDatasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        from .transforms_grouping import SampleFromDatasets
        return SampleFromDatasets(datasets, weights, seed, stop_on_empty_dataset)

    def shard(self, num_shards, index, name=None):
        from .transforms import ShardDataset
        return ShardDataset(self, num_shards, index)

    def apply(self, transformation_func):
        return transformation_func(self)

    def get_single_element(self, name=None):
        """The one element (InvalidArgumentError for none or several, as TensorFlow); inside
        tf.function the check runs when the function runs."""
        from .stream import single_element
        return single_element(self)

    def reduce(self, initial_state, reduce_func, name=None):
        from .reduce import reduce
        return reduce(self, initial_state, reduce_func)

    def options(self):
        """The options set by with_options here or upstream (merged), else the defaults."""
        from .options import options_of
        return options_of(self)

    def with_options(self, options, name=None):
        from .options import with_options
        return with_options(self, options)

    # --- inspection ---
    @property
    def element_spec(self):
        return self._spec

    def cardinality(self):
        """int64 scalar: the number of elements, -1 (INFINITE) or -2 (UNKNOWN)."""
        n = self._size
        if is_static(n):
            return convert_to_tensor(np.int64(n))
        from ..ops.math.elementwise import cast
        return cast(n, _dt.int64)

    def __len__(self):
        n = self._size
        if is_static(n) and n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if not is_static(n) or n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return int(n)

    def __repr__(self):
        return f"<{self._name} element_spec={self.element_spec!r}>"

    # --- iteration ---
    # A dataset is either *indexable* (its reader can compute element i, with ops in a graph: the
    # sources and index arithmetic of dataset.py/transforms.py) or a *stream* (`_stream()` yields its
    # elements in order: filter, flat_map, generators, ...). A stream is iterated in Python; inside a
    # traced function it runs the same Python at run time, through the ops of stream.py.
    _indexable = True

    def _elements(self):
        """One eager pass: the elements in order, as a Python generator."""
        if not self._indexable:
            return self._stream()
        return self._indexed_elements()

    def _indexed_elements(self):
        n = self._size
        if not is_static(n):
            raise TypeError("iterating a dataset whose size is only known at run time needs a `for` loop "
                            "inside tf.function")
        reader = self._open(1)
        for i in (itertools.count() if n == INFINITE else range(int(n))):
            yield reader.element(i, 0)

    def __iter__(self):
        from .iterator import OwnedIterator
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        """Elements as NumPy values (TensorFlow: `tf.data.Dataset.as_numpy_iterator`)."""
        if state.graph is not None:
            raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in eager mode.")
        from .iterator import NumpyIterator
        return NumpyIterator(self)

    def _loop_source(self):
        """For autograph/operators.py: a `for` over this dataset inside a trace becomes a
        tf.while_loop over indices 0..size-1 (`size` None: without end) computing `element(index)`.
        Opening the reader here draws this pass's random state in the graph, before the loop.
        A stream's loop source also answers `has_element(index)` (the loop's test)."""
        from .stream import loop_source
        return loop_source(self)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """Endless int64 scalars in [0, 2**32): TensorFlow's values for a seed (transforms_extra.py)."""
        from .transforms_extra import RandomDataset
        return RandomDataset(seed, rerandomize_each_iteration)

    def ignore_errors(self, log_warning=False, name=None):
        """The elements whose computation raised no tf.errors error (transforms_extra.py)."""
        from .transforms_extra import IgnoreErrorsDataset
        return IgnoreErrorsDataset(self, log_warning)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Writes the elements under the directory `path`, atomically, in eagerflow's format (save_load.py)."""
        from .save_load import save
        save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """A dataset saved by `Dataset.save`; safe to read from an untrusted directory (save_load.py)."""
        from .save_load import load
        return load(path, element_spec, compression, reader_func, wait)


__all__ = ["Dataset", "AUTOTUNE", "INFINITE", "UNKNOWN"]
