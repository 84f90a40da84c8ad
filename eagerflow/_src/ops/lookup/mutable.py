"""The ops behind tf.lookup.experimental.MutableHashTable (state/mutable_hash_table.py).

The table's state is two variables, its keys sorted ascending and their values in the same order, so it
lives across tf.function calls exactly as variables do. It changes through the ops below, which take the
two variables' handles and read, compute and store both under both variables' update locks
(core/update_locks.py): an insert from one thread cannot be lost to another's, and a reader
(MutableHashTableExport, behind lookup, size and export) never sees new keys beside old values. No
gradients (keys are discrete; tables are not trained).
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.update_locks import UpdateLocks
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
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


def table_insert_in_place(keys_var, values_var, new_keys, new_values):
    bind(MutableHashTableInsert, [keys_var.handle, values_var.handle, as_tensor(new_keys), as_tensor(new_values)])


def table_remove_in_place(keys_var, values_var, remove_keys):
    bind(MutableHashTableRemove, [keys_var.handle, values_var.handle, as_tensor(remove_keys)])


def table_export(keys_var, values_var):
    return bind(MutableHashTableExport, [keys_var.handle, values_var.handle])
