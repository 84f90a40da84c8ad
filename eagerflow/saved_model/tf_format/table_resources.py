"""Static lookup tables written as TensorFlow saves them: tracked resources, created and filled once.

eagerflow holds a static table (tf.lookup.StaticHashTable, the table inside a StaticVocabularyTable, Keras'
StringLookup / IntegerLookup and TextVectorization's vocabulary) as two eager constant tensors, keys and
values, that a traced function captures and looks up with VocabularyLookup. TensorFlow keeps the same table
behind a resource handle, and a SavedModel holds it as an object of the SavedObjectGraph:

- a `resource` node (registered as tf.StaticHashTable) whose `_create_resource` function makes a HashTableV2,
  whose `_initialize` function fills it with LookupTableImportV2 of two SavedConstant objects (Const nodes of
  the top-level graph), and whose `_destroy_resource` function returns 1;
- every function that looks the table up takes its handle as a bound input (the resource node) and runs
  LookupTableFindV2 on it;
- the top-level graph creates the table (a HashTableV2 node) and fills it by calling `_initialize`, a call
  the `__saved_model_init_op` signature's NoOp waits for (what TensorFlow 1's loader, TF Serving and TFLite's
  converter run once before any signature).

A table is found by the pair of constant tensors a VocabularyLookup captures. One the object tree holds
(a StaticHashTable, a Keras lookup layer) is written where it is held; one held nowhere else is attached
to the root as `captured_table_<n>`, as unheld variables are. A lookup inside a cond branch or a loop body
reads the handle the If / While passes in (graph_export/control_flow_export.py); a loaded model's table
(import_tables.py's ImportedTable) is written where the tree holds it, so a model saved again keeps its
tables. A lookup whose keys are not such a pair (tensors a function computed) keeps the per-call table of
table_export.py; a MutableHashTable is TensorFlow's MutableHashTableV2 resource (mutable_tables.py)."""
from __future__ import annotations

import hashlib
import inspect

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.formats.graph_export.attr_values import attr_value
from ..._src.formats.graph_export.function_def import FunctionBuilder
from ..._src.formats.graph_export.rewrites import const
from . import structured

_INT32_ONE = np.int32(1)


class SavedTable:
    """One static table of a save: its contents and where the SavedModel holds it."""

    def __init__(self, keys_tensor, values_tensor, name, text_file=None):
        self.keys_tensor, self.values_tensor = keys_tensor, values_tensor  # held: their ids key the table
        self.text_file = text_file  # the TextFileInitializer that read the contents, or None
        self.asset = None  # its file, copied into assets/
        self.key_dtype, self.value_dtype = keys_tensor.dtype, values_tensor.dtype
        self.keys = np.asarray(keys_tensor._value).reshape(-1)
        self.values = np.asarray(values_tensor._value).reshape(-1)
        self.name = name
        self.node = None  # its SavedObjectGraph node
        self.initializer = None  # the FunctionDef name of its `_initialize`
        self.constant_nodes = []  # the object nodes of its keys and values
        digest = hashlib.blake2b(digest_size=8)
        for part in (self.key_dtype.name, self.value_dtype.name, self.keys, self.values):
            digest.update(repr(part.tolist() if isinstance(part, np.ndarray) else part).encode())
        # equal contents share a name (a second load of the model finds the table filled the same way)
        self.shared_name = f"hash_table_{digest.hexdigest()}"

    def __repr__(self):
        return f"<saved table {self.name!r}: {self.keys.size} {self.key_dtype.name} keys>"


def _is_constant(tensor):
    return tensor is not None and getattr(tensor, "_value", None) is not None and tensor.dtype is not _dt.resource


def held_tables(value):
    """[(local name, keys tensor, values tensor)] of the static tables an object of the tree holds."""
    from ..._src.ops.lookup.tables import StaticHashTable
    from .import_tables import ImportedMutableTable, ImportedTable
    if isinstance(value, StaticHashTable):
        return [("", value._key_tensor, value._value_tensor)]
    if isinstance(value, ImportedTable) and not isinstance(value, ImportedMutableTable):  # a loaded model's
        return [("", *value.tensors())]
    tables = getattr(value, "_tables", None) if hasattr(value, "_lookup_tables") else None
    if isinstance(tables, tuple) and len(tables) == 4:  # a Keras IndexLookup: forward and inverse tables
        return [("lookup_table", tables[0], tables[1]), ("inverse_lookup_table", tables[2], tables[3])]
    return []


class TableResources:
    """The static tables of one save, their object nodes, functions and top-level nodes."""

    def __init__(self, objects):
        self.objects = objects  # the ObjectGraph (objects.py)
        self.tables = []
        self._by_tensors = {}  # (id(keys), id(values)) -> SavedTable; the tensors are held by the table
        self._held = {}  # (id(keys), id(values)) -> (owner node, local name), for a table written on first use

    # --- the walk ---
    def object_node(self, value):
        """The node of a StaticHashTable met in the walk (a resource node), else None."""
        held = held_tables(value)
        if not held or held[0][0] != "":
            return None
        _, keys, values = held[0]
        if not (_is_constant(keys) and _is_constant(values)):
            return None
        return self._node(self._table(keys, values, getattr(value, "name", None) or "hash_table",
                                      _text_file(getattr(value, "_initializer", None))))

    def note_holder(self, value, node):
        """Remembers the tables a Keras lookup layer holds, written under it if a function uses them."""
        for local, keys, values in held_tables(value):
            if local and _is_constant(keys) and _is_constant(values):
                self._held.setdefault((id(keys), id(values)), (node, local))

    # --- functions ---
    def table_for(self, keys, values):
        """The SavedTable a lookup of captured `keys` / `values` reads, with its node; None when the pair is
        not two eager constants (the lookup then makes its own table, table_export.py)."""
        if not (_is_constant(keys) and _is_constant(values)) or keys.dtype is _dt.resource:
            return None
        if np.ndim(keys._value) != 1 or np.shape(keys._value) != np.shape(values._value):
            return None
        known = self._by_tensors.get((id(keys), id(values)))
        if known is not None:
            return known
        owner, local = self._held.get((id(keys), id(values)), (0, None))
        if local is None:
            local = f"captured_table_{sum(1 for t in self.tables)}"
        table = self._table(keys, values, local)
        node = self._node(table)
        self.objects.nodes[owner].setdefault("children", []).append({"node_id": node, "local_name": local})
        return table

    def _table(self, keys, values, name, text_file=None):
        known = self._by_tensors.get((id(keys), id(values)))
        if known is None:
            known = self._by_tensors[(id(keys), id(values))] = SavedTable(keys, values, name, text_file)
        return known

    def _node(self, table):
        if table.node is not None:
            return table.node
        objects = self.objects
        table.node = objects._add(table, {"resource": {"device": ""}, "registered_name": "tf.StaticHashTable",
                                          "children": []})
        self.tables.append(table)
        library = objects.library
        creator = _creator(library, table)
        destroyer = _destroyer(library)
        if table.text_file is not None:  # TensorFlow's TextFileInitializer: the file is an asset
            from ..asset import Asset
            table.asset = table.text_file._asset or Asset(table.text_file._filename)
            table.initializer = _text_file_initializer(library, table)
            asset_node = objects.node(table.asset, "")
            initialize_bound = [asset_node, table.node]
        else:
            table.initializer = _initializer(library, table)
            table.constant_nodes = [objects.add_plain({"constant": {"operation": None},
                                                       "registered_name": "tf.TrackableConstant"}) for _ in range(2)]
            initialize_bound = [table.node] + table.constant_nodes
        children = []
        for local, function, bound in (("_create_resource", creator, []),
                                       ("_initialize", table.initializer, initialize_bound),
                                       ("_destroy_resource", destroyer, [])):
            node = objects.add_plain({"function": {"concrete_functions": [function], "function_spec": {
                "fullargspec": structured.fullargspec(inspect.Signature()),
                "input_signature": {"tuple_value": {}}}}})
            objects.concrete[function] = {
                "bound_inputs": bound, "canonicalized_input_signature": {"tuple_value": {"values": [
                    {"tuple_value": {}}, {"dict_value": {}}]}},
                "output_signature": _output_spec(_dt.resource if local == "_create_resource" else _dt.int32)}
            children.append({"node_id": node, "local_name": local})
        if table.asset is not None:  # TensorFlow holds the asset under the table's initializer object
            holder = objects.add_plain({"user_object": {"identifier": "_generic_user_object",
                                                        "version": {"producer": 1, "min_consumer": 1}},
                                        "children": [{"node_id": asset_node, "local_name": "_filename"}]})
            children.insert(0, {"node_id": holder, "local_name": "_initializer"})
        objects.nodes[table.node]["children"] = children
        return table.node

    # --- the top-level graph ---
    def add_serving_nodes(self, graph):
        """Per table: its HashTableV2, its keys and values as Const nodes (the SavedConstants) or its
        asset's path, and the call of its `_initialize` that the init op waits for."""
        for table in self.tables:
            handle = graph.handle(table)
            if table.asset is not None:
                inputs, types = [graph.asset_path_at_init(table.asset), handle], [_dt.string, _dt.resource]
            else:
                inputs = [handle] + self._constants(graph, table)
                types = [_dt.resource, table.key_dtype, table.value_dtype]
            call = graph.add("StatefulPartitionedCall", "StatefulPartitionedCall", inputs, {
                "f": attr_value("func", table.initializer), "Tin": attr_value("list(type)", types),
                "Tout": attr_value("list(type)", [_dt.int32]), "_has_manual_control_dependencies": {"b": True}})
            graph.run_at_init(call)

    def _constants(self, graph, table):
        """The Const nodes of a table's keys and values, named by its SavedConstant objects."""
        names = []
        for node, array, dtype in zip(table.constant_nodes, (table.keys, table.values),
                                      (table.key_dtype, table.value_dtype)):
            name = graph.add("Const", "Const", [], {"dtype": attr_value("type", dtype),
                                                    "value": attr_value("tensor", _as_numpy(array, dtype))})
            self.objects.nodes[node]["constant"]["operation"] = name
            names.append(name)
        return names


def table_handle_node(graph, table):
    """The top-level HashTableV2 node of `table` (ServingGraph.handle's answer for a table)."""
    return graph.add("hash_table", "HashTableV2", [], _table_attrs(table))


def _as_numpy(array, dtype):
    if dtype is _dt.string:
        out = np.empty(array.shape, object)
        out[...] = [x if isinstance(x, bytes) else str(x).encode() for x in array.ravel()] if array.size else []
        return out
    return np.asarray(array, dtype=dtype.as_numpy_dtype)


def _table_attrs(table):
    return {"key_dtype": attr_value("type", table.key_dtype), "value_dtype": attr_value("type", table.value_dtype),
            "shared_name": attr_value("string", table.shared_name)}


def _output_spec(dtype):
    return {"tensor_spec_value": {"name": "unknown", "shape": {}, "dtype": _datatype(dtype)}}


def _datatype(dtype):
    from ..._src.formats.dtypes import datatype_number
    return datatype_number(dtype)


def _finish(library, b, out_ref, dtype, waits_for):
    """TensorFlow's function ending: Identity(out, ^NoOp), the NoOp waiting for the stateful node."""
    waits = []
    if waits_for:
        waits = ["^" + b.add_node("NoOp", "NoOp", [f"^{waits_for}"], {})]
        b.control.append(waits_for)
    out = b.add_node("Identity", "Identity", [out_ref] + waits, {"T": attr_value("type", dtype)})
    b.add_output("identity", f"{out}:output:0", dtype)
    return library.add(b)


def _creator(library, table):
    b = FunctionBuilder(library, library.unique_name("_creator"))
    node = b.add_node("hash_table", "HashTableV2", [], _table_attrs(table), stateful=True)
    return _finish(library, b, f"{node}:table_handle:0", _dt.resource, node)


def _initializer(library, table):
    b = FunctionBuilder(library, library.unique_name("_initializer"))
    handle = b.add_arg("table_handle", _dt.resource, user_name="table_handle")
    keys = b.add_arg("keys", table.key_dtype, np.shape(table.keys))
    values = b.add_arg("values", table.value_dtype, np.shape(table.values))
    node = b.add_node("key_value_init/LookupTableImportV2", "LookupTableImportV2", [handle, keys, values],
                      {"Tin": attr_value("type", table.key_dtype), "Tout": attr_value("type", table.value_dtype)},
                      stateful=True)
    one = const(b, "Const", _INT32_ONE, _dt.int32)
    return _finish(library, b, one.ref, _dt.int32, node)


def _text_file_initializer(library, table):
    """`_initialize` of a TextFileInitializer's table: InitializeTableFromTextFileV2 of the asset's path."""
    text = table.text_file
    b = FunctionBuilder(library, library.unique_name("_initializer"))
    path = b.add_arg("asset_filepath", _dt.string, [], user_name="asset_filepath")
    handle = b.add_arg("table_handle", _dt.resource, user_name="table_handle")
    attrs = {"key_index": attr_value("int", text._key_index), "value_index": attr_value("int", text._value_index)}
    if text._vocab_size is not None:
        attrs["vocab_size"] = attr_value("int", int(text._vocab_size))
    if text._delimiter != b"\t":
        attrs["delimiter"] = attr_value("string", text._delimiter)
    if text._offset:
        attrs["offset"] = attr_value("int", text._offset)
    node = b.add_node("text_file_init/InitializeTableFromTextFileV2", "InitializeTableFromTextFileV2",
                      [handle, path], attrs, stateful=True)
    one = const(b, "Const", _INT32_ONE, _dt.int32)
    return _finish(library, b, one.ref, _dt.int32, node)


def _text_file(initializer):
    """The TextFileInitializer of a table, when its file can still be copied into assets/."""
    import os
    from ..._src.ops.lookup.text_file import TextFileInitializer
    if isinstance(initializer, TextFileInitializer) and os.path.isfile(initializer._filename):
        return initializer
    return None


def _destroyer(library):
    b = FunctionBuilder(library, library.unique_name("_destroyer"))
    one = const(b, "Const", _INT32_ONE, _dt.int32)
    return _finish(library, b, one.ref, _dt.int32, None)
