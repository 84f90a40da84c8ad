"""`tf.lookup.experimental.MutableHashTable`: a key -> value table that insert / remove change, whose
state lives across tf.function calls.

TensorFlow keeps it behind a resource handle. Here the state is two non-trainable variables (keys sorted
ascending, values alongside, each first dimension unknown), so a traced function captures them by
reference like any variable and sees every change, eager or traced. insert / remove are one op each that
updates both variables under their update locks, so threads sharing a table lose no update; lookup, size
and export start from one consistent snapshot of the pair (ops/lookup/mutable.py): each method is one op,
which a SavedModel writes as TensorFlow's op on the table's MutableHashTableV2 resource
(saved_model/tf_format/mutable_tables.py).
"""
from __future__ import annotations

import weakref

import numpy as np

from ..core import dtypes
from ..core.context import graph_scope
from ..core.convert import convert_to_tensor
from ..core.shape import TensorShape
from ..ops.array.static_shapes import get_static_value
from ..ops.lookup.mutable import table_export, table_find, table_insert_in_place, table_remove_in_place, table_size
from ..ops.lookup.tables import _check_key_dtype
from .variables import Variable


def _convert(arg, value, dtype):
    """TensorFlow's conversion error for insert / remove arguments, prefixed with the argument's name."""
    try:
        return convert_to_tensor(value, dtype=dtype)
    except ValueError as e:
        raise ValueError(f"{arg}: {e}") from None


class MutableHashTable:
    """`tf.lookup.experimental.MutableHashTable(key_dtype, value_dtype, default_value)`."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._name = name
        with graph_scope(None):  # state is created eagerly, also when the table is built inside a trace
            default = np.asarray(get_static_value(convert_to_tensor(default_value, dtype=self._value_dtype)))
            self._default_value = convert_to_tensor(default, dtype=self._value_dtype)
            self._value_shape = default.shape
            empty_keys = np.zeros([0], self._key_dtype.as_numpy_dtype if self._key_dtype != dtypes.string else object)
            empty_values = np.zeros((0,) + default.shape, self._value_dtype.as_numpy_dtype
                                    if self._value_dtype != dtypes.string else object)
            self._keys = Variable(empty_keys, dtype=self._key_dtype, shape=TensorShape([None]), trainable=False,
                                  name=f"{name}_keys")
            self._values = Variable(empty_values, dtype=self._value_dtype, trainable=False, name=f"{name}_values",
                                    shape=TensorShape([None] + list(default.shape)))
        # a SavedModel finds the table from a function's capture of either variable (mutable_tables.py)
        self._keys._mutable_table = self._values._mutable_table = weakref.ref(self)

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def name(self):
        return self._name

    def size(self, name=None):
        """The number of keys, an int64 scalar."""
        return table_size(self._keys, self._values)

    def insert(self, keys, values, name=None):
        """Maps each of `keys` to the matching entry of `values` (a later duplicate wins)."""
        keys = _convert("keys", keys, self._key_dtype)
        values = _convert("values", values, self._value_dtype)
        table_insert_in_place(self._keys, self._values, keys, values)

    def remove(self, keys, name=None):
        """Removes `keys` from the table; keys that are not in it are ignored."""
        keys = convert_to_tensor(keys)
        _check_key_dtype(keys, self._key_dtype)
        table_remove_in_place(self._keys, self._values, keys)

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """Each key's value, or the default value (of shape value_shape) for a missing key."""
        if dynamic_default_values is not None:
            raise NotImplementedError("MutableHashTable.lookup: dynamic_default_values is not supported yet")
        keys = _convert("keys", keys, self._key_dtype)
        return table_find(self._keys, self._values, keys, self._default_value)

    def __getitem__(self, keys):
        return self.lookup(keys)

    def export(self, name=None):
        """(keys, values) tensors of the table's contents."""
        return tuple(table_export(self._keys, self._values))

