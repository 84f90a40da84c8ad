"""`tf.data`: Dataset, Options, the iterator and spec types, and the cardinality / AUTOTUNE constants."""
import types as _types

from ..data.dataset import AUTOTUNE, Dataset  # noqa: F401
from ..data.fixed_length import FixedLengthRecordDataset  # noqa: F401
from ..data.iterator import IteratorSpec, NumpyIterator  # noqa: F401
from ..data.options import ThreadingOptions  # noqa: F401
from ..data.iterator import OwnedIterator as Iterator  # noqa: F401
from ..data.options import Options  # noqa: F401
from ..data.structure import DatasetSpec  # noqa: F401
from ..data.structure import INFINITE as INFINITE_CARDINALITY  # noqa: F401
from ..data.structure import UNKNOWN as UNKNOWN_CARDINALITY  # noqa: F401
from ..data.text_line import TextLineDataset  # noqa: F401
from ..data.tfrecord import TFRecordDataset  # noqa: F401



def _assert_cardinality(expected_cardinality):
    """`tf.data.experimental.assert_cardinality`: the transformation for `Dataset.apply`."""
    from ..data.transforms_grouping import assert_cardinality
    return assert_cardinality(expected_cardinality)


def _group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """`tf.data.experimental.group_by_window`: the transformation for `Dataset.apply`."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


def _bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                               padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                               drop_remainder=False):
    """`tf.data.experimental.bucket_by_sequence_length`: the transformation for `Dataset.apply`."""
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
        pad_to_bucket_boundary, no_padding, drop_remainder)


def _experimental_names():
    """The `tf.data.experimental` names that data/experimental.py defines (its __all__)."""
    from ..data import experimental as _module
    return {name: getattr(_module, name) for name in _module.__all__}


experimental = _types.SimpleNamespace(AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE_CARDINALITY,
                                      UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY,
                                      assert_cardinality=_assert_cardinality, group_by_window=_group_by_window,
                                      bucket_by_sequence_length=_bucket_by_sequence_length,
                                      sample_from_datasets=Dataset.sample_from_datasets,
                                      choose_from_datasets=Dataset.choose_from_datasets)
experimental.__dict__.update(_experimental_names())
from ..data.csv_dataset import CsvDataset as _CsvDataset  # noqa: E402
from ..data.make_csv_dataset import make_csv_dataset as _make_csv_dataset  # noqa: E402
experimental.CsvDataset = _CsvDataset
experimental.make_csv_dataset = _make_csv_dataset
del _types
