"""The ops behind tf.lookup.experimental.MutableHashTable (state/mutable_hash_table.py).

The table's state is two variables, its keys sorted ascending and their values in the same order, so it
lives across tf.function calls exactly as variables do. It changes through the ops below, which take the
two variables' handles and read, compute and store both under both variables' update locks
(core/update_locks.py): an insert from one thread cannot be lost to another's, and a reader
(MutableHashTableExport, MutableHashTableFind, MutableHashTableSize) never sees new keys beside old
values. Each op is one of TensorFlow's ops on a mutable table (LookupTableInsertV2, LookupTableRemoveV2,
LookupTableExportV2, LookupTableFindV2, LookupTableSizeV2), so a SavedModel writes each as that op on the
table's resource (graph_export/table_export.py). No gradients (keys are discrete; tables are not trained).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.update_locks import UpdateLocks
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .vocabulary import _lookup_kernel
from ..variables.resource import _var_spec


def shape_text(shape):
    """A shape as TensorFlow's kernel messages print it: [2,3]."""
    return "[" + ",".join(str(d) for d in shape) + "]"


def _insert_kernel(keys, values, new_keys, new_values):
    expected = tuple(new_keys.shape) + tuple(values.shape[1:])
    if new_values.shape != expected:
        raise InvalidArgumentError(None, None, f"Expected shape {shape_text(expected)} for value, got "
                                   f"{shape_text(new_values.shape)}")
    all_keys = np.concatenate([keys, new_keys.reshape(-1)])
    all_values = np.concatenate([values, new_values.reshape((-1,) + values.shape[1:])])
    # the last insertion of a key wins: np.unique keeps a key's first index, so search the reversed arrays
    merged, first = np.unique(all_keys[::-1], return_index=True)
    return merged.astype(keys.dtype, copy=False), all_values[::-1][first]


def _remove_kernel(keys, values, gone):
    gone = gone.reshape(-1)
    if keys.dtype == object:
        drop = set(gone.tolist())
        keep = np.array([k not in drop for k in keys.tolist()], dtype=bool)
    else:
        keep = ~np.isin(keys, gone)
    return keys[keep], values[keep]


def _insert_in_place(keys_var, values_var, new_keys, new_values):
    with UpdateLocks((keys_var, values_var)):
        keys_var._array, values_var._array = _insert_kernel(keys_var._array, values_var._array, new_keys,
                                                            new_values)
    return []


def _remove_in_place(keys_var, values_var, gone):
    with UpdateLocks((keys_var, values_var)):
        keys_var._array, values_var._array = _remove_kernel(keys_var._array, values_var._array, gone)
    return []


def _export(keys_var, values_var):
    with UpdateLocks((keys_var, values_var)):
        return keys_var._array, values_var._array


def _find(keys_var, values_var, x, default):
    """Each key's value in one snapshot of the table, or `default` (of the values' row shape)."""
    keys, values = _export(keys_var, values_var)
    if values.ndim == 1:
        return _lookup_kernel(keys, values, x, default)
    positions = _lookup_kernel(keys, np.arange(keys.size, dtype=np.int64), x, np.int64(-1))
    row = values.shape[1:]
    rows = values[np.maximum(positions, 0)] if keys.size else np.zeros(positions.shape + row, values.dtype)
    found = (positions >= 0).reshape(positions.shape + (1,) * len(row))
    return np.where(found, rows, np.asarray(default, dtype=values.dtype)).astype(values.dtype, copy=False)


def _size(keys_var, values_var):
    return np.asarray(_export(keys_var, values_var)[0].shape[0], np.int64)


def _find_infer(inputs, attrs):
    (_, keys_dtype), (values_shape, values_dtype) = _var_spec(inputs[0]), _var_spec(inputs[1])
    x, default = inputs[2], inputs[3]
    if x.dtype is not keys_dtype:
        raise InvalidArgumentError(None, None, f"Expected keys of type {keys_dtype.name} for the lookup, got "
                                   f"{x.dtype.name}")
    if default.dtype is not values_dtype:
        raise InvalidArgumentError(None, None, f"Expected a default value of type {values_dtype.name}, got "
                                   f"{default.dtype.name}")
    row = values_shape[1:] if values_shape.rank is not None else None
    return [Spec(x.shape.concatenate(row) if row is not None and x.shape.rank is not None else TensorShape(None),
                 values_dtype)]


def _size_infer(inputs, attrs):
    return [Spec(TensorShape([]), _dt.int64)]


def _export_infer(inputs, attrs):
    (keys_shape, keys_dtype), (values_shape, values_dtype) = _var_spec(inputs[0]), _var_spec(inputs[1])
    return [Spec(keys_shape, keys_dtype), Spec(values_shape, values_dtype)]


MutableHashTableInsert = defop(
    "MutableHashTableInsert", inputs=("keys_resource", "values_resource", "keys", "values"),
    kernel=_insert_in_place, multi_output=True, infer=lambda inputs, attrs: [], grad=NO_GRADIENT, stateful=True,
    doc="Inserts keys -> values into the table held by two variables, as one update of both.")
MutableHashTableRemove = defop(
    "MutableHashTableRemove", inputs=("keys_resource", "values_resource", "keys"),
    kernel=_remove_in_place, multi_output=True, infer=lambda inputs, attrs: [], grad=NO_GRADIENT, stateful=True,
    doc="Removes keys from the table held by two variables, as one update of both.")
MutableHashTableExport = defop(
    "MutableHashTableExport", inputs=("keys_resource", "values_resource"), kernel=_export, multi_output=True,
    infer=_export_infer, grad=NO_GRADIENT,
    doc="The table's (keys, values) as one consistent snapshot of both variables.")

MutableHashTableFind = defop(
    "MutableHashTableFind", inputs=("keys_resource", "values_resource", "keys", "default_value"), kernel=_find,
    infer=_find_infer, grad=NO_GRADIENT,
    doc="Each key's value in one consistent snapshot of the table held by two variables, else the default.")
MutableHashTableSize = defop(
    "MutableHashTableSize", inputs=("keys_resource", "values_resource"), kernel=_size, infer=_size_infer,
    grad=NO_GRADIENT, doc="The number of keys in the table held by two variables, an int64 scalar.")


def table_insert_in_place(keys_var, values_var, new_keys, new_values):
    bind(MutableHashTableInsert, [keys_var.handle, values_var.handle, as_tensor(new_keys), as_tensor(new_values)])


def table_remove_in_place(keys_var, values_var, remove_keys):
    bind(MutableHashTableRemove, [keys_var.handle, values_var.handle, as_tensor(remove_keys)])


def table_export(keys_var, values_var):
    return bind(MutableHashTableExport, [keys_var.handle, values_var.handle])


def table_find(keys_var, values_var, keys, default):
    return bind(MutableHashTableFind, [keys_var.handle, values_var.handle, as_tensor(keys), as_tensor(default)])


def table_size(keys_var, values_var):
    return bind(MutableHashTableSize, [keys_var.handle, values_var.handle])
