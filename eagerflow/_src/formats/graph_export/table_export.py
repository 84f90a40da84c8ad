"""Lookup tables written as TensorFlow ops.

eagerflow holds a static table (tf.lookup.StaticHashTable, StaticVocabularyTable, Keras' StringLookup)
as two constant tensors, keys sorted and values alongside, looked up by VocabularyLookup, and a
MutableHashTable as two variables changed by MutableHashTableInsert/Remove (ops/lookup/). TensorFlow
has no op searching a sorted string vector, so a lookup is written as TensorFlow's hash table made for
the call: AnonymousHashTable, LookupTableImportV2 of the two tensors, LookupTableFindV2, unless the two
tensors are a static table the SavedModel holds as TensorFlow's tracked table resource
(saved_model/tf_format/table_resources.py): then the lookup is LookupTableFindV2 on its handle.

A MutableHashTable the SavedModel holds is TensorFlow's MutableHashTableV2 resource
(saved_model/tf_format/mutable_tables.py), and each of its ops is TensorFlow's op on that handle:
MutableHashTableFind / Insert / Remove / Size / Export are LookupTableFindV2 / InsertV2 / RemoveV2 / SizeV2 /
ExportV2. A function written without a SavedModel (ConcreteFunction.function_def) has no table resource:
there the table's variables are read with ReadVariableOp and written with AssignVariableOp: an insert puts the
new entries (the last of a repeated key first) before the old ones and keeps each key's first entry
(Unique, UnsortedSegmentMin over positions, GatherV2); a remove keeps what ListDiff leaves. TensorFlow
keeps no order among a table's keys, so the variables it writes need not stay sorted; eagerflow's
loader rebuilds each op as itself from the nodes' records (op_rules.py's `_recorded`), which keeps
them sorted for eagerflow."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .function_def import Value
from .generic_op import emit
from .rewrites import const


def export_table_find(builder, op, handle=None):
    """A lookup in a static table the SavedModel holds as a resource (saved_model/tf_format/
    table_resources.py): LookupTableFindV2 on the handle argument bound to it (`handle`: the argument
    carrying it into a branch or loop body). Nothing is recorded for eagerflow's loader, which reads the
    table's contents from its initializer as it does TensorFlow's."""
    keys, values, x, default = op.inputs
    table = Value(_dt.resource, handle if handle is not None else builder.table_handles[op])
    emit(builder, op, "LookupTableFindV2", [table, x, default], {}, [op.outputs[0]])


def _saved_handle(builder, op):
    """The table handle a mutable table op's variable handles stand for in a SavedModel, else None."""
    from .function_export import saved_mutable_table
    if saved_mutable_table(builder.library, op.inputs[0]) is None:
        return None
    return Value(_dt.resource, builder.ref(op.inputs[0]))


def export_mutable_find(builder, op):
    """MutableHashTableFind: LookupTableFindV2 on the table's resource; without one, a lookup in a table
    made for the call from the variables' values (scalar values only)."""
    table = _saved_handle(builder, op)
    if table is not None:
        emit(builder, op, "LookupTableFindV2", [table, op.inputs[2], op.inputs[3]], {}, [op.outputs[0]])
        return
    keys_handle, values_handle, x, default = op.inputs
    if _value_shape(values_handle):
        from .attr_values import ExportError
        raise ExportError(f"op {op.name!r} looks up vectors in a MutableHashTable that no SavedModel holds; save "
                          f"the function with tf.saved_model.save, which writes the table as a resource")
    from .op_rules import _recorded
    _recorded(_find_in_variables)(builder, op)


def _find_in_variables(builder, op):
    keys_handle, values_handle, x, default = op.inputs
    keys = _read(builder, op, keys_handle, x.dtype, f"{op.name}/keys")
    values = _read(builder, op, values_handle, default.dtype, f"{op.name}/values")
    _per_call_lookup(builder, op, keys, values, x, default)


def export_mutable_size(builder, op):
    table = _saved_handle(builder, op)
    if table is not None:
        emit(builder, op, "LookupTableSizeV2", [table], {}, [op.outputs[0]])
        return
    from .op_rules import _recorded
    _recorded(_size_of_variables)(builder, op)


def _size_of_variables(builder, op):
    from ...ops.variables.resource import _var_spec
    keys = _read(builder, op, op.inputs[0], _var_spec(op.inputs[0])[1], f"{op.name}/keys")
    emit(builder, op, "Size", [keys], {"out_type": _dt.int64}, [op.outputs[0]])


def export_mutable_write(builder, op):
    """MutableHashTableInsert / Remove: LookupTableInsertV2 / RemoveV2 on the table's resource; without
    one, the variables' reads and assignments (recorded for eagerflow's loader)."""
    table = _saved_handle(builder, op)
    if table is not None:
        kind = "LookupTableInsertV2" if op.type == "MutableHashTableInsert" else "LookupTableRemoveV2"
        emit(builder, op, kind, [table, *op.inputs[2:]], {}, [])
        return
    from .op_rules import _recorded
    _recorded(export_table_insert if op.type == "MutableHashTableInsert" else export_table_remove)(builder, op)


def export_vocabulary_lookup(builder, op):
    keys, values, x, default = op.inputs
    _per_call_lookup(builder, op, keys, values, x, default)


def _per_call_lookup(builder, op, keys, values, x, default):
    table = Value(_dt.resource)
    emit(builder, op, "AnonymousHashTable", [], {"key_dtype": keys.dtype, "value_dtype": values.dtype}, [table],
         base=f"{op.name}/table")
    filled = emit(builder, op, "LookupTableImportV2", [table, keys, values], {}, [], base=f"{op.name}/import")
    emit(builder, op, "LookupTableFindV2", [table, x, default], {}, [op.outputs[0]])
    _after(builder, filled)


def _after(builder, name):
    """The last node written waits for node `name` (a lookup for its table's contents)."""
    inputs = builder.nodes[-1]["input"]
    if "^" + name not in inputs:
        inputs.append("^" + name)


def _value_shape(handle):
    from ...ops.variables.resource import _var_spec
    shape, _ = _var_spec(handle)
    return [int(d) for d in shape.as_list()[1:]] if shape.rank is not None else []


def _read(builder, op, handle, dtype, base, out=None):
    out = Value(dtype) if out is None else out
    emit(builder, op, "ReadVariableOp", [handle], {"dtype": dtype}, [out], base=base)
    return out


def _flat(builder, op, tensor, row_shape, base):
    out = Value(tensor.dtype)
    emit(builder, op, "Reshape", [tensor, const(builder, f"{base}/shape", np.array([-1] + row_shape, np.int32))], {},
         [out], base=base)
    return out


def _assign(builder, op, keys_handle, values_handle, keys, values):
    emit(builder, op, "AssignVariableOp", [keys_handle, keys], {"dtype": keys.dtype}, [], base=f"{op.name}/keys")
    emit(builder, op, "AssignVariableOp", [values_handle, values], {"dtype": values.dtype}, [],
         base=f"{op.name}/values")


def export_table_export(builder, op):
    """MutableHashTableExport: LookupTableExportV2 on the table's resource, else the two variables' values."""
    table = _saved_handle(builder, op)
    if table is not None:
        emit(builder, op, "LookupTableExportV2", [table], {}, list(op.outputs))
        return
    keys_handle, values_handle = op.inputs
    _read(builder, op, keys_handle, op.outputs[0].dtype, f"{op.name}/keys", op.outputs[0])
    _read(builder, op, values_handle, op.outputs[1].dtype, f"{op.name}/values", op.outputs[1])


def export_table_insert(builder, op):
    keys_handle, values_handle, new_keys, new_values = op.inputs
    row = _value_shape(values_handle)
    old_keys = _read(builder, op, keys_handle, new_keys.dtype, f"{op.name}/old_keys")
    old_values = _read(builder, op, values_handle, new_values.dtype, f"{op.name}/old_values")
    zero = const(builder, f"{op.name}/axis", np.int32(0))
    first = const(builder, f"{op.name}/first_axis", np.array([0], np.int32))
    parts = []
    for tensor, old, shape, what in ((new_keys, old_keys, [], "keys"), (new_values, old_values, row, "values")):
        flat = _flat(builder, op, tensor, shape, f"{op.name}/{what}_flat")
        reversed_ = Value(tensor.dtype)  # the last insertion of a key comes first
        emit(builder, op, "ReverseV2", [flat, first], {}, [reversed_], base=f"{op.name}/{what}_reversed")
        joined = Value(tensor.dtype)
        emit(builder, op, "ConcatV2", [reversed_, old, zero], {}, [joined], base=f"{op.name}/all_{what}")
        parts.append(joined)
    all_keys, all_values = parts
    unique_keys, index = Value(new_keys.dtype), Value(_dt.int32)
    emit(builder, op, "Unique", [all_keys], {"out_idx": _dt.int32}, [unique_keys, index], base=f"{op.name}/unique")
    count, total = Value(_dt.int32), Value(_dt.int32)
    emit(builder, op, "Size", [unique_keys], {"out_type": _dt.int32}, [count], base=f"{op.name}/count")
    emit(builder, op, "Size", [all_keys], {"out_type": _dt.int32}, [total], base=f"{op.name}/total")
    positions = Value(_dt.int32)
    emit(builder, op, "Range", [zero, total, const(builder, f"{op.name}/one", np.int32(1))], {}, [positions],
         base=f"{op.name}/positions")
    firsts = Value(_dt.int32)
    emit(builder, op, "UnsortedSegmentMin", [positions, index, count], {}, [firsts], base=f"{op.name}/firsts")
    kept_values = Value(new_values.dtype)
    emit(builder, op, "GatherV2", [all_values, firsts, zero], {}, [kept_values], base=f"{op.name}/kept_values")
    _assign(builder, op, keys_handle, values_handle, unique_keys, kept_values)


def export_table_remove(builder, op):
    keys_handle, values_handle, gone = op.inputs
    dtype = _var_dtype(values_handle)
    old_keys = _read(builder, op, keys_handle, gone.dtype, f"{op.name}/old_keys")
    old_values = _read(builder, op, values_handle, dtype, f"{op.name}/old_values")
    flat = _flat(builder, op, gone, [], f"{op.name}/gone")
    kept_keys, kept_at = Value(gone.dtype), Value(_dt.int32)
    emit(builder, op, "ListDiff", [old_keys, flat], {"out_idx": _dt.int32}, [kept_keys, kept_at],
         base=f"{op.name}/kept")
    kept_values = Value(dtype)
    emit(builder, op, "GatherV2", [old_values, kept_at, const(builder, f"{op.name}/axis", np.int32(0))], {},
         [kept_values], base=f"{op.name}/kept_values")
    _assign(builder, op, keys_handle, values_handle, kept_keys, kept_values)


def _var_dtype(handle):
    from ...ops.variables.resource import _var_spec
    return _var_spec(handle)[1]


def export_summary_write(builder, op):
    """A function writing summaries holds the writer's resource, which TensorFlow refuses to save."""
    raise AssertionError(f"Tried to export a function which references an 'untracked' resource. TensorFlow "
                         f"objects (e.g. tf.Variable) captured by functions must be 'tracked' by assigning them to "
                         f"an attribute of a tracked object or assigned to an attribute of the main object directly. "
                         f"Function {op.graph.name!r} writes summaries (op {op.name!r}) through a summary writer, "
                         f"which a SavedModel cannot hold.")
