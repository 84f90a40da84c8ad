"""`tf.lookup` static tables: KeyValueTensorInitializer, StaticHashTable and StaticVocabularyTable.

TensorFlow keeps a table behind a resource handle and initializes it with an import op. A static table
never changes after construction, so here it is materialized once, eagerly, when the table is built (the
moment TensorFlow runs its initializer and reports duplicate keys or bad shapes): keys sorted ascending
with their values in the same order. Every lookup is then a VocabularyLookup op over those two constant
tensors (ops/lookup/vocabulary.py), so a table works eagerly, captured by tf.function, and in Dataset.map
without any state op. Keys of the wrong dtype are refused in Python before any op is bound, so eager and
traced calls raise the same TypeError with the same words.
"""
from __future__ import annotations

import numpy as np

from ...composite.ragged_tensor import RaggedTensor
from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes
from ...core.context import graph_scope
from ...core.convert import convert_to_tensor
from ...core.errors import FailedPreconditionError, InvalidArgumentError
from ..array.basic import where
from .mutable import shape_text
from ..math.elementwise import add, cast, not_equal
from ..array.static_shapes import get_static_value
from ..strings.hashing import to_hash_bucket_fast
from ..strings.number_text import as_string
from .vocabulary import vocabulary_lookup


def _numpy(t):
    """A table's contents as NumPy: known when the table is built, also when that happens inside a
    tf.function trace from constants (TensorFlow lifts the initialization out of the function)."""
    value = get_static_value(t)
    if value is None:
        raise ValueError("A lookup table's keys and values must be known when the table is built (eager "
                         "tensors or constants), not computed from a tf.function's inputs.")
    return np.asarray(value)


def _show(v):
    """A key or value as TensorFlow's error messages print it (bytes as text)."""
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


class TableInitializerBase:
    """Holds the key and value dtypes; `_materialize()` returns the (keys, values) NumPy arrays."""

    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype


class KeyValueTensorInitializer(TableInitializerBase):
    """`tf.lookup.KeyValueTensorInitializer`: a table's contents from a keys tensor and a values tensor."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype)
        self._values = convert_to_tensor(values, dtype=value_dtype)
        self._name = name
        super().__init__(self._keys.dtype, self._values.dtype)

    def _materialize(self):
        keys, values = _numpy(self._keys), _numpy(self._values)
        if values.shape != keys.shape:
            raise InvalidArgumentError(None, None, f"Expected shape {shape_text(keys.shape)} for value, got "
                                       f"{shape_text(values.shape)}")
        return keys.reshape(-1), values.reshape(-1)


def _sorted_table(keys, values):
    """Keys sorted ascending (values alongside), duplicates dropped; a key repeated with a different value is
    TensorFlow's FailedPreconditionError, reported against the first value it was given."""
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    if keys.size > 1:
        same = keys[1:] == keys[:-1]
        if same.any():
            clash = np.flatnonzero(same & (values[1:] != values[:-1]))
            if clash.size:
                i = clash[0]
                raise FailedPreconditionError(
                    None, None, f"HashTable has different value for same key. Key {_show(keys[i])} has "
                    f"{_show(values[i])} and trying to add value {_show(values[i + 1])}")
            keep = np.concatenate([[True], ~same])
            keys, values = keys[keep], values[keep]
    return keys, values


def _check_key_dtype(keys, expected):
    if keys.dtype != expected:
        raise TypeError(f"Dtype of argument `keys` must be {expected}, received: {keys.dtype}")


def _map_keys(keys, expected, fn):
    """Applies `fn` to a tensor of keys, or to the values of a SparseTensor / the flat values of a
    RaggedTensor (their structure is kept), after TensorFlow's key dtype check."""
    if isinstance(keys, SparseTensor):
        _check_key_dtype(keys.values, expected)
        return SparseTensor(keys.indices, fn(keys.values), keys.dense_shape)
    if isinstance(keys, RaggedTensor):
        _check_key_dtype(keys.flat_values, expected)
        return keys.with_flat_values(fn(keys.flat_values))
    keys = convert_to_tensor(keys)
    _check_key_dtype(keys, expected)
    return fn(keys)


class StaticHashTable:
    """`tf.lookup.StaticHashTable`: an immutable key -> value map with a default for missing keys."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        self._initializer = initializer
        self._name = name
        with graph_scope(None):  # built eagerly, also inside a trace: a lookup captures its constants
            self._default_value = convert_to_tensor(_numpy(convert_to_tensor(
                default_value, dtype=initializer.value_dtype)), dtype=initializer.value_dtype)
            keys, values = initializer._materialize()
            self._export = (keys, values)
            self._keys, self._values = _sorted_table(keys, values)
            self._key_tensor = convert_to_tensor(self._keys, dtype=initializer.key_dtype)
            self._value_tensor = convert_to_tensor(self._values, dtype=initializer.value_dtype)

    @property
    def key_dtype(self):
        return self._initializer.key_dtype

    @property
    def value_dtype(self):
        return self._initializer.value_dtype

    @property
    def default_value(self):
        return self._default_value

    @property
    def name(self):
        return self._name

    def size(self, name=None):
        """The number of distinct keys, an int64 scalar."""
        return convert_to_tensor(np.int64(self._keys.size))

    def lookup(self, keys, name=None):
        """Each key's value, or the default value; a SparseTensor / RaggedTensor keeps its structure."""
        return _map_keys(keys, self.key_dtype, self._find)

    def _find(self, keys):
        return vocabulary_lookup(self._key_tensor, self._value_tensor, keys, self._default_value)

    def __getitem__(self, keys):
        return self.lookup(keys)

    def export(self, name=None):
        """(keys, values) tensors of the table's contents, each key once."""
        keys, values = self._export
        order = np.sort(np.unique(keys, return_index=True)[1]) if keys.size else np.arange(0)
        return (convert_to_tensor(keys[order], dtype=self.key_dtype),
                convert_to_tensor(values[order], dtype=self.value_dtype))


class StaticVocabularyTable:
    """`tf.lookup.StaticVocabularyTable`: vocabulary ids from a table, and for a key outside it one of
    `num_oov_buckets` extra ids: vocab_size + Fingerprint64(key) % num_oov_buckets. Integer keys are
    hashed through their decimal text, as TensorFlow does."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        self._num_oov_buckets = int(num_oov_buckets)
        self._name = name
        if initializer is not None:
            if initializer.value_dtype != dtypes.int64:
                raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got "
                                f"{initializer.value_dtype}.")
            self._table = StaticHashTable(initializer, np.int64(-1))
            table_key_dtype = initializer.key_dtype
        else:
            self._table = None
            table_key_dtype = dtypes.as_dtype(lookup_key_dtype or dtypes.string)
        lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype or table_key_dtype)
        if lookup_key_dtype != table_key_dtype:
            for dtype in (table_key_dtype, lookup_key_dtype):
                if not dtype.is_integer:
                    raise TypeError(f"Invalid `key_dtype`, expected integer but got {dtype}.")
        self._table_key_dtype = table_key_dtype
        self._key_dtype = lookup_key_dtype

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return dtypes.int64

    @property
    def name(self):
        return self._name

    def _vocab_size(self):
        return 0 if self._table is None else int(self._table._keys.size)

    def size(self, name=None):
        """Vocabulary size plus the number of out-of-vocabulary buckets, an int64 scalar."""
        return convert_to_tensor(np.int64(self._vocab_size() + self._num_oov_buckets))

    def lookup(self, keys, name=None):
        """Each key's id; a SparseTensor / RaggedTensor keeps its structure."""
        return _map_keys(keys, self._key_dtype, self._find)

    def _find(self, keys):
        if keys.dtype != self._table_key_dtype:
            keys = cast(keys, self._table_key_dtype)
        text = keys if keys.dtype == dtypes.string else as_string(keys)
        buckets = to_hash_bucket_fast(text, self._num_oov_buckets)
        if self._table is None:
            return buckets
        ids = self._table._find(keys)
        return where(not_equal(ids, np.int64(-1)), ids, add(buckets, np.int64(self._vocab_size())))

    def __getitem__(self, keys):
        return self.lookup(keys)
