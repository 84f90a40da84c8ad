"""`tf.data.experimental`: the functions that predate their `Dataset` methods, and the rest a CPU user reaches.

Most are transformations for `Dataset.apply` (a function of a dataset returning a dataset) that do what
the method of the same meaning does (`scan`, `unique`, `take_while`, `ignore_errors`, `unbatch`,
`enumerate_dataset`, `shuffle_and_repeat` = shuffle then repeat, `map_and_batch` = map then batch,
`parallel_interleave` = the deterministic interleave). Device placement (`prefetch_to_device`,
`copy_to_device`) has one device to place on here, so it passes the elements through.
"""
from __future__ import annotations

from ..core import dtypes as _dt
from ..core.errors import OutOfRangeError
from .dataset import AUTOTUNE, Dataset  # noqa: F401
from .iterator import Optional  # noqa: F401
from .options import (AutoShardPolicy, AutotuneAlgorithm, AutotuneOptions, DistributeOptions,  # noqa: F401
                      ExternalStatePolicy, OptimizationOptions, ServiceOptions, ThreadingOptions)
from .structure import INFINITE as INFINITE_CARDINALITY  # noqa: F401
from .structure import UNKNOWN as UNKNOWN_CARDINALITY  # noqa: F401
from .transforms_extra import RandomDataset, Reducer  # noqa: F401
from .example_datasets import make_batched_features_dataset, parse_example_dataset  # noqa: F401
from .rejection_resample import rejection_resample  # noqa: F401
from .sparse_batch import dense_to_sparse_batch  # noqa: F401
from .sql_dataset import SqlDataset  # noqa: F401

SHARD_HINT = -1  # a placeholder shard count for AutoShardPolicy.HINT


def cardinality(dataset):
    """int64 scalar: the number of elements, INFINITE_CARDINALITY (-1) or UNKNOWN_CARDINALITY (-2)."""
    return dataset.cardinality()


def Counter(start=0, step=1, dtype=_dt.int64):  # noqa: N802 - TensorFlow's name
    return Dataset.counter(start, step, dtype)


def enumerate_dataset(start=0):
    return lambda dataset: dataset.enumerate(start)


def get_single_element(dataset):
    return dataset.get_single_element()


def scan(initial_state, scan_func):
    return lambda dataset: dataset.scan(initial_state, scan_func)


def unique():
    return lambda dataset: dataset.unique()


def take_while(predicate):
    return lambda dataset: dataset.take_while(predicate)


def ignore_errors(log_warning=False):
    return lambda dataset: dataset.ignore_errors(log_warning)


def unbatch():
    return lambda dataset: dataset.unbatch()


def from_list(elements, name=None):
    """A dataset of the list's elements (each a structure of the same shapes and dtypes)."""
    from .structure import normalize, stack_elements
    if not isinstance(elements, list):
        raise ValueError(f"`elements` must be a list, got {type(elements).__name__}.")
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    return Dataset.from_tensor_slices(stack_elements([normalize(e) for e in elements]))


def get_structure(dataset_or_iterator):
    """The element spec of a dataset or an iterator."""
    try:
        return dataset_or_iterator.element_spec
    except AttributeError:
        raise TypeError(f"Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a `tf.data.Dataset` or "
                        f"tf.data.Iterator object, but got {type(dataset_or_iterator)}.") from None


def get_next_as_optional(iterator):
    return iterator.get_next_as_optional()


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=_dt.int64):
    from .ragged_batch import dense_to_ragged_batch as transformation
    return transformation(batch_size, drop_remainder, row_splits_dtype)


# The tables load ops/lookup on first use (`import eagerflow` does not load it): data/dataset_tables.py.
def DatasetInitializer(dataset):  # noqa: N802 - TensorFlow's name
    """A table initializer whose keys and values are a dataset's (key, value) elements."""
    from .dataset_tables import DatasetInitializer as initializer
    return initializer(dataset)


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None, hasher_spec=None,
                       key_dtype=_dt.string, name=None):
    from .dataset_tables import table_from_dataset as build
    return build(dataset, num_oov_buckets, vocab_size, default_value, hasher_spec, key_dtype, name)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=None,
                             key_dtype=_dt.string, name=None):
    from .dataset_tables import index_table_from_dataset as build
    return build(dataset, num_oov_buckets, vocab_size, default_value, hasher_spec, key_dtype, name)


def to_variant(dataset):
    """A scalar `variant` tensor holding the dataset (how TensorFlow hands a dataset between ops); eager."""
    from ..core.tensor import wrap_array
    from ..core.variant import VariantValue
    if not isinstance(dataset, Dataset):
        raise TypeError(f"`dataset` must be a `tf.data.Dataset`, got {type(dataset).__name__}.")
    return wrap_array(VariantValue(dataset))


def from_variant(variant, structure):
    """The dataset a `to_variant` tensor holds; `structure` must be its element spec."""
    payload = getattr(getattr(variant, "_value", None), "payload", None)
    if not isinstance(payload, Dataset):
        raise TypeError("`variant` must be a scalar variant tensor made by `tf.data.experimental.to_variant`.")
    if structure != payload.element_spec:
        raise TypeError(f"The dataset's element spec {payload.element_spec!r} is not `structure` {structure!r}.")
    return payload


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and `num_parallel_calls` to "
                         "be set.")
    return lambda dataset: dataset.map(map_func, num_parallel_calls).batch(batch_size, drop_remainder)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    """The deterministic interleave (`sloppy` only allowed TensorFlow to reorder; the order here is fixed)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


def group_by_reducer(key_func, reducer):
    """Per key (an int64 scalar of each element), reducer's fold over that key's elements."""
    from .transforms_extra import GroupByReducerDataset
    return lambda dataset: GroupByReducerDataset(dataset, key_func, reducer)


def prefetch_to_device(device, buffer_size=None):
    return lambda dataset: dataset.prefetch(buffer_size if buffer_size is not None else AUTOTUNE)


def copy_to_device(target_device, source_device="/cpu:0"):
    return lambda dataset: dataset.prefetch(AUTOTUNE)


def enable_debug_mode():
    """TensorFlow's switch to run dataset functions eagerly, in order: what this runtime always does."""


def at(dataset, index):
    """Element `index` of a finite dataset; OutOfRangeError past the end (TensorFlow's words)."""
    from .structure import is_static
    n = dataset._size
    index = int(index.numpy()) if hasattr(index, "numpy") else int(index)
    if dataset._indexable and is_static(n) and n >= 0:
        if not 0 <= index < n:
            raise OutOfRangeError(None, None, f"Index out of range [0, {n}):{index}")
        return dataset._open(1).element(index, 0)
    for position, element in enumerate(dataset._elements()):
        if position == index:
            return element
    raise OutOfRangeError(None, None, f"Index out of range [0, {position + 1 if index >= 0 else 0}):{index}")


def pad_to_cardinality(cardinality, mask_key="valid"):
    """Pads a finite dataset of dicts with zero elements up to `cardinality`; `mask_key` says which are real."""
    from ..ops.array.basic import zeros
    from ..core.convert import convert_to_tensor

    def apply(dataset):
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        n = int(dataset.cardinality().numpy())
        if n < 0:
            raise ValueError("`pad_to_cardinality` requires its input dataset to have a known, finite cardinality.")
        if n > cardinality:
            raise ValueError("The dataset passed into `pad_to_cardinality` must have a cardinalty less than the "
                             f"target cardinality ({cardinality}), but has cardinality {n}")
        marked = dataset.map(lambda element: {**element, mask_key: convert_to_tensor(True)})
        padding = {k: zeros([d or 0 for d in s.shape.as_list()], s.dtype) for k, s in spec.items()}
        padding[mask_key] = convert_to_tensor(False)
        return marked.concatenate(Dataset.from_tensors(padding).repeat(cardinality - n))
    return apply


class TFRecordWriter:
    """Writes a dataset of tf.string scalars as the records of one TFRecord file (io/tfrecord_writer.py:
    atomically; a pass that fails leaves what was at `filename` before)."""

    def __init__(self, filename, compression_type=None):
        self._filename, self._compression = filename, compression_type

    def write(self, dataset):
        from ..core.tensor import TensorSpec
        from ..io.tfrecord_writer import TFRecordWriter as _Writer
        if not isinstance(dataset, Dataset):
            raise TypeError(f"Invalid `dataset.` Expected a `tf.data.Dataset` object but got {type(dataset)}.")
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype != _dt.string or spec.shape.rank != 0:
            shapes = getattr(spec, "shape", spec)
            types = f"<dtype: '{spec.dtype.name}'>" if isinstance(spec, TensorSpec) else spec
            raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, but "
                            f"got a dataset which produces elements with shapes {shapes} and types {types}.")
        writer = _Writer(self._filename, self._compression)

        def write_all():
            for record in dataset._elements():
                writer.write(bytes(record.numpy()))
        writer._guarded(write_all)  # a failing pass removes the temporary file
        writer.close()


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    return dataset.save(path, compression, shard_func, checkpoint_args)


def load(path, element_spec=None, compression=None, reader_func=None):
    return Dataset.load(path, element_spec, compression, reader_func)


__all__ = ["AutoShardPolicy", "AutotuneAlgorithm", "AutotuneOptions", "Counter", "DatasetInitializer",
           "DistributeOptions", "SqlDataset", "dense_to_sparse_batch", "from_variant", "index_table_from_dataset",
           "make_batched_features_dataset", "parse_example_dataset", "rejection_resample", "table_from_dataset",
           "to_variant",
           "ExternalStatePolicy", "INFINITE_CARDINALITY", "OptimizationOptions", "Optional", "RandomDataset", "Reducer",
           "SHARD_HINT", "ServiceOptions", "TFRecordWriter", "ThreadingOptions", "UNKNOWN_CARDINALITY", "at", "cardinality",
           "copy_to_device", "dense_to_ragged_batch", "enable_debug_mode", "enumerate_dataset", "from_list",
           "get_next_as_optional",
           "get_single_element", "get_structure", "group_by_reducer", "ignore_errors", "load", "map_and_batch",
           "pad_to_cardinality", "parallel_interleave", "prefetch_to_device", "save", "scan", "shuffle_and_repeat",
           "take_while", "unbatch", "unique"]
