"""The pure ops behind tf.lookup.experimental.MutableHashTable (state/mutable_hash_table.py).

The table's state is two variables, its keys sorted ascending and their values in the same order; an
insert or a remove computes the new pair from the old one with an op below and assigns it back, and a
lookup is VocabularyLookup over the pair. So the table needs no state op of its own: it lives across
tf.function calls exactly as variables do. No gradients (keys are discrete; tables are not trained).
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop


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


def _table_infer(inputs, attrs):
    keys, values = inputs[0], inputs[1]
    value_shape = values.shape.as_list()[1:] if values.shape.rank is not None else None
    return [Spec(TensorShape([None]), keys.dtype),
            Spec(TensorShape(None if value_shape is None else [None] + value_shape), values.dtype)]


MutableTableInsert = defop(
    "MutableTableInsert", inputs=("keys", "values", "new_keys", "new_values"), kernel=_insert_kernel,
    infer=_table_infer, grad=NO_GRADIENT, multi_output=True,
    doc="The sorted (keys, values) of a table after inserting new_keys -> new_values (later ones win).")
MutableTableRemove = defop(
    "MutableTableRemove", inputs=("keys", "values", "remove_keys"), kernel=_remove_kernel,
    infer=_table_infer, grad=NO_GRADIENT, multi_output=True,
    doc="The sorted (keys, values) of a table without remove_keys.")


def table_insert(keys, values, new_keys, new_values):
    return bind(MutableTableInsert, [as_tensor(keys), as_tensor(values), as_tensor(new_keys), as_tensor(new_values)])


def table_remove(keys, values, remove_keys):
    return bind(MutableTableRemove, [as_tensor(keys), as_tensor(values), as_tensor(remove_keys)])
