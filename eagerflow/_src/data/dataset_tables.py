"""Lookup tables filled from a dataset: `tf.data.experimental.DatasetInitializer`, `table_from_dataset` and
`index_table_from_dataset`. The dataset's (key, value) elements are read in one eager pass when the
table is made and become a KeyValueTensorInitializer's tensors (ops/lookup/tables.py); a table with
out-of-vocabulary buckets is a StaticVocabularyTable (keys outside the vocabulary hash to vocab_size +
Fingerprint64(key) % num_oov_buckets, as TensorFlow's FastHashSpec buckets them)."""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.tensor import TensorSpec
from ..ops.lookup.tables import KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable


def _pairs(dataset):
    spec = dataset.element_spec
    if not (isinstance(spec, tuple) and len(spec) == 2 and all(isinstance(s, TensorSpec) for s in spec)):
        raise ValueError(f"The dataset must have an element_spec of 2 scalar tensors (key, value); got {spec}.")
    keys, values = [], []
    for key, value in dataset._elements():
        keys.append(key.numpy())
        values.append(value.numpy())
    keys = np.array(keys, dtype=object if spec[0].dtype == _dt.string else spec[0].dtype.np_dtype)
    values = np.array(values, dtype=object if spec[1].dtype == _dt.string else spec[1].dtype.np_dtype)
    return keys, values, spec


class DatasetInitializer(KeyValueTensorInitializer):
    """A table initializer whose keys and values are a dataset's (key, value) elements."""

    def __init__(self, dataset):
        keys, values, spec = _pairs(dataset)
        super().__init__(keys, values, spec[0].dtype, spec[1].dtype)
        self.dataset = dataset


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None, hasher_spec=None,
                       key_dtype=_dt.string, name=None):
    """A table of the dataset's (key, value) pairs (the first `vocab_size`), with `num_oov_buckets` hash
    buckets for other keys (then the values must be int64 ids), else `default_value` for them."""
    if num_oov_buckets < 0:
        raise ValueError(f"num_oov_buckets must be greater or equal than 0, got {num_oov_buckets}.")
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"vocab_size must be greater than 0, got {vocab_size}.")
    if vocab_size is not None:
        dataset = dataset.take(vocab_size)
    initializer = DatasetInitializer(dataset)
    if num_oov_buckets:
        return StaticVocabularyTable(initializer, num_oov_buckets, lookup_key_dtype=_dt.as_dtype(key_dtype))
    return StaticHashTable(initializer, default_value)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1, hasher_spec=None,
                             key_dtype=_dt.string, name=None):
    """A table from each key of the dataset to its position (int64), with `num_oov_buckets` buckets for
    other keys (else `default_value`)."""
    indexed = dataset.enumerate().map(lambda index, key: (key, index))
    return table_from_dataset(indexed, num_oov_buckets, vocab_size, default_value, hasher_spec, key_dtype, name)
