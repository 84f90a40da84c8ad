"""Mutable lookup tables written as TensorFlow 2.21 saves them: a MutableHashTableV2 resource.

eagerflow keeps a `tf.lookup.experimental.MutableHashTable` (and the ImportedMutableTable a loaded
SavedModel gives for one) as two variables, keys and values, changed and read by one op per table method
(ops/lookup/mutable.py). TensorFlow keeps the table behind one resource handle, and a SavedModel holds it as:

- a `resource` node whose `_create_resource` function makes a MutableHashTableV2 (MutableHashTableOfTensorsV2
  when values are vectors), whose `_initialize` does nothing (the contents come from the checkpoint) and
  whose `saveable_objects` entry `table` names two functions: `save_fn(checkpoint_key)` returns the tensors to
  store (the table's LookupTableExportV2 under `<key>-keys` and `<key>-values`), `restore_fn(keys, values)`
  puts them back with LookupTableImportV2;
- in the checkpoint, the node's attribute `table` (key `<path>/.ATTRIBUTES/table`) and the two tensors
  `<path>/.ATTRIBUTES/table-keys` and `table-values`;
- every function that uses the table takes its handle as a bound input (the resource node), both of the two
  variables' handles standing for it, and runs LookupTableFindV2 / InsertV2 / RemoveV2 / SizeV2 / ExportV2
  on it (graph_export/table_export.py); a branch or a nested function receives the handle as an input;
- the top-level graph's MutableHashTableV2 node, which the SaverDef's restore function fills
  (saver.py), for loaders that run the graph (TF Serving, TensorFlow 1's loader).

A table the object tree does not hold is attached to the root as `captured_mutable_table_<n>`."""
from __future__ import annotations

import hashlib
import inspect

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.core.shape import TensorShape
from ..._src.formats.graph_export.attr_values import attr_value
from ..._src.formats.graph_export.function_def import FunctionBuilder
from ..._src.formats.graph_export.rewrites import const
from . import structured
from .table_resources import _destroyer, _finish, _output_spec

TABLE_ATTRIBUTE = "table"  # the checkpoint attribute of a table; its tensors are under the key + SUFFIXES
SUFFIXES = ("-keys", "-values")


def table_variables(value):
    """(keys variable, values variable) of a mutable table eagerflow holds, else None."""
    from ..._src.state.mutable_hash_table import MutableHashTable
    from .import_tables import ImportedMutableTable
    if isinstance(value, MutableHashTable):
        return value._keys, value._values
    if isinstance(value, ImportedMutableTable):
        return value._variables
    return None


class SavedMutableTable:
    """One mutable table of a save: its two variables, dtypes, and where the SavedModel holds it."""

    def __init__(self, table, keys_var, values_var, path):
        self.table = table  # held for the save
        self.keys_var, self.values_var = keys_var, values_var
        self.key_dtype, self.value_dtype = keys_var.dtype, values_var.dtype
        shape = values_var.shape
        self.value_shape = [int(d) for d in shape.as_list()[1:]] if shape.rank is not None else []
        self.path = path  # its checkpoint path ("mut", "m/table"); set when the walk reaches it
        self.node = None
        digest = hashlib.blake2b(f"{path}|{self.key_dtype.name}|{self.value_dtype.name}".encode(), digest_size=6)
        self.shared_name = f"table_{digest.hexdigest()}"

    @property
    def creator_op(self):
        return "MutableHashTableOfTensorsV2" if self.value_shape else "MutableHashTableV2"

    def creator_attrs(self):
        attrs = {"key_dtype": attr_value("type", self.key_dtype), "value_dtype": attr_value("type", self.value_dtype),
                 "shared_name": attr_value("string", self.shared_name)}
        if self.value_shape:
            attrs["value_shape"] = attr_value("shape", TensorShape(self.value_shape))
        return attrs

    def serving_node(self, graph):
        """Its top-level MutableHashTableV2 node (ServingGraph.handle's answer for it)."""
        return graph.add("MutableHashTable", self.creator_op, [], self.creator_attrs())

    @property
    def checkpoint_key(self):
        return f"{self.path}/.ATTRIBUTES/{TABLE_ATTRIBUTE}".lstrip("/")

    def contents(self):
        """{bundle key: (array, dtype)} of its entries now, from one consistent snapshot."""
        from ..._src.ops.lookup.mutable import _export
        keys, values = _export(self.keys_var, self.values_var)
        base = self.checkpoint_key
        return {base + SUFFIXES[0]: (np.asarray(keys), self.key_dtype),
                base + SUFFIXES[1]: (np.asarray(values), self.value_dtype)}

    def __repr__(self):
        return f"<saved mutable table {self.path!r}: {self.key_dtype.name} -> {self.value_dtype.name}>"


class MutableTables:
    """The mutable tables of one save (objects.py's ObjectGraph makes one)."""

    def __init__(self, objects):
        self.objects = objects
        self.tables = []
        self._by_variable = {}  # id(keys or values Variable) -> SavedMutableTable; the table holds them

    def object_node(self, value, path):
        """The node of a mutable table met in the walk, else None."""
        pair = table_variables(value)
        if pair is None:
            return None
        known = self._by_variable.get(id(pair[0]))
        if known is not None:
            return known.node
        table = SavedMutableTable(value, *pair, path)
        self._by_variable[id(pair[0])] = self._by_variable[id(pair[1])] = table
        self.tables.append(table)
        table.node = self.objects._add(value, {"resource": {"device": ""}, "children": []})
        self._write_functions(table)
        return table.node

    def table_of(self, variable):
        """The SavedMutableTable holding `variable` (one of its two), else None. A table the walk did not
        meet (a function's capture only) is attached to the root, as unheld variables are."""
        known = self._by_variable.get(id(variable))
        if known is not None or variable is None:
            return known
        owner = getattr(variable, "_mutable_table", None)
        owner = owner() if owner is not None else None
        if owner is None or not any(v is variable for v in table_variables(owner) or ()):
            return None
        local = f"captured_mutable_table_{len(self.tables)}"
        node = self.object_node(owner, local)
        self.objects.nodes[0].setdefault("children", []).append({"node_id": node, "local_name": local})
        return self._by_variable.get(id(variable))

    # --- the object's functions ---
    def _write_functions(self, table):
        objects, library = self.objects, self.objects.library
        children = []
        for local, function, output in (("_create_resource", _creator(library, table), _dt.resource),
                                        ("_initialize", _no_op(library, "_initializer"), _dt.int32),
                                        ("_destroy_resource", _destroyer(library), _dt.int32)):
            node = objects.add_plain({"function": {"concrete_functions": [function], "function_spec": {
                "fullargspec": structured.fullargspec(inspect.Signature()), "input_signature": {"tuple_value": {}}}}})
            objects.concrete[function] = {"bound_inputs": [], "canonicalized_input_signature": _inputs([]),
                                          "output_signature": _output_spec(output)}
            children.append({"node_id": node, "local_name": local})
        objects.nodes[table.node]["children"] = children
        save = self._bare(_save_fn(library, table), [("checkpoint_key", _dt.string, {})], table,
                          _save_outputs(table))
        restore = self._bare(_restore_fn(library, table), [
            ("restored_tensors_0", table.key_dtype, {"unknown_rank": True}),
            ("restored_tensors_1", table.value_dtype, {"unknown_rank": True})], table, _output_spec(_dt.int32))
        objects.nodes[table.node]["saveable_objects"] = {
            TABLE_ATTRIBUTE: {"save_function": save, "restore_function": restore}}

    def _bare(self, function, arguments, table, outputs):
        """A bare concrete function node (TensorFlow's save_fn / restore_fn) taking `arguments`
        [(name, dtype, shape data)], its table bound."""
        objects = self.objects
        names = [name for name, _, _ in arguments]
        parameters = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names]
        node = objects.add_plain({"bare_concrete_function": {
            "concrete_function_name": function, "argument_keywords": names,
            "allowed_positional_arguments": len(names), "function_spec": {
                "fullargspec": structured.fullargspec(inspect.Signature(parameters)),
                "input_signature": {"none_value": {}}}}})
        signature = [{"tensor_spec_value": {"name": name, "shape": shape, "dtype": _datatype(dtype)}}
                     for name, dtype, shape in arguments]
        objects.concrete[function] = {"bound_inputs": [table.node], "canonicalized_input_signature": _inputs(signature),
                                      "output_signature": outputs}
        return node

    # --- the checkpoint and the top-level graph ---
    def checkpoint_attributes(self):
        """{node id: [attribute data]} of the tables, for the TrackableObjectGraph."""
        return {t.node: [{"name": TABLE_ATTRIBUTE, "checkpoint_key": t.checkpoint_key}] for t in self.tables}

    def bundle_entries(self):
        entries = {}
        for table in self.tables:
            entries.update(table.contents())
        return entries


def _inputs(specs):
    return {"tuple_value": {"values": [{"tuple_value": {"values": specs}}, {"dict_value": {}}]}}


def _datatype(dtype):
    from ..._src.formats.dtypes import datatype_number
    return datatype_number(dtype)


def _save_outputs(table):
    """save_fn's output structure: per tensor a dict of its name, slice spec and value (TensorFlow's)."""
    out = []
    for i, dtype in enumerate((table.key_dtype, table.value_dtype)):
        fields = {"name": ({}, _dt.string), "slice_spec": ({}, _dt.string), "tensor": ({"unknown_rank": True}, dtype)}
        out.append({"dict_value": {"fields": {k: {"tensor_spec_value": {
            "name": f"tensor_{i}_{k}", "shape": shape, "dtype": _datatype(d)}} for k, (shape, d) in fields.items()}}})
    return {"list_value": {"values": out}}


def _creator(library, table):
    b = FunctionBuilder(library, library.unique_name("_creator"))
    node = b.add_node("MutableHashTable", table.creator_op, [], table.creator_attrs(), stateful=True)
    return _finish(library, b, f"{node}:table_handle:0", _dt.resource, node)


def _no_op(library, base):
    """A function returning 1: a mutable table's `_initialize` (its contents come from the checkpoint)."""
    b = FunctionBuilder(library, library.unique_name(base))
    one = const(b, "Const", np.int32(1), _dt.int32)
    return _finish(library, b, one.ref, _dt.int32, None)


def _save_fn(library, table):
    """save_fn(checkpoint_key): the names `<key>-keys` / `<key>-values`, empty slice specs, and the entries."""
    b = FunctionBuilder(library, library.unique_name("save_fn"))
    key = b.add_arg("checkpoint_key", _dt.string, TensorShape([]), user_name="checkpoint_key")
    handle = b.add_arg("table_handle", _dt.resource, user_name="table_handle")
    export = b.add_node("MutableHashTable_lookup_table_export_values/LookupTableExportV2", "LookupTableExportV2",
                        [handle], {"Tkeys": attr_value("type", table.key_dtype),
                                   "Tvalues": attr_value("type", table.value_dtype)}, stateful=True)
    b.control.append(export)
    wait = "^" + b.add_node("NoOp", "NoOp", [f"^{export}"], {})
    string = attr_value("type", _dt.string)
    for i, (suffix, part, dtype) in enumerate(zip(SUFFIXES, ("keys", "values"), (table.key_dtype, table.value_dtype))):
        suffix_ref = const(b, f"add_{i}/y", np.array(suffix.encode(), object), _dt.string).ref
        name = b.add_node(f"add_{i}", "Add", [key, suffix_ref], {"T": string})
        empty = const(b, f"Const_{i}", np.array(b"", object), _dt.string).ref
        for base, ref, d in (("name", f"{name}:z:0", _dt.string), ("slice_spec", empty, _dt.string),
                             ("tensor", f"{export}:{part}:0", dtype)):
            out = b.add_node(f"Identity_{i}_{base}", "Identity", [ref, wait], {"T": attr_value("type", d)})
            b.add_output("identity", f"{out}:output:0", d)
    return library.add(b)


def _restore_fn(library, table):
    """restore_fn(keys, values): the table's contents replaced by the checkpoint's (LookupTableImportV2)."""
    b = FunctionBuilder(library, library.unique_name("restore_fn"))
    keys = b.add_arg("restored_tensors_0", table.key_dtype, user_name="restored_tensors_0")
    values = b.add_arg("restored_tensors_1", table.value_dtype, user_name="restored_tensors_1")
    handle = b.add_arg("table_handle", _dt.resource, user_name="table_handle")
    node = b.add_node("MutableHashTable_table_restore/LookupTableImportV2", "LookupTableImportV2",
                      [handle, keys, values], {"Tin": attr_value("type", table.key_dtype),
                                               "Tout": attr_value("type", table.value_dtype)}, stateful=True)
    one = const(b, "Const", np.int32(1), _dt.int32)
    return _finish(library, b, one.ref, _dt.int32, node)
