"""A MutableHashTable saved as TensorFlow 2.21 saves one (saved_model/tf_format/mutable_tables.py): a
MutableHashTableV2 resource made by `_create_resource`, its entries in the checkpoint under the table's
`table` attribute (`<path>/.ATTRIBUTES/table-keys` / `table-values`), `save_fn` / `restore_fn` as its
saveable, and the functions running LookupTableFindV2 / InsertV2 / RemoveV2 / SizeV2 / ExportV2 on its handle,
also inside a tf.cond branch. The module is the one TensorFlow saved for fixtures/tf_written_mutable_table
(tests/interop/tf_mutable_table.py's MODULE, run here on eagerflow): eagerflow's save, loaded back, answers
the same calls as TensorFlow answered on its own save (expected.json)."""
import json
from pathlib import Path

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2, trackable_object_graph_pb2
from tests.interop.tf_mutable_table import CALLS, module_class, run_calls

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tf_written_mutable_table"
RESOURCE = 20
# TensorFlow 2.21's op types for a mutable table (its own save of MODULE, fixtures/tf_written_mutable_table)
TABLE_OPS = {"LookupTableFindV2", "LookupTableInsertV2", "LookupTableRemoveV2", "LookupTableSizeV2",
             "LookupTableExportV2"}
PER_CALL = {"AnonymousHashTable", "LookupTableImportV2", "AssignVariableOp", "ReadVariableOp", "VarHandleOp"}


def _function_ops(meta):
    """The op types of the model's own functions (not the saver's, not the table's restore_fn)."""
    return {n.op for f in meta.graph_def.library.function for n in f.node_def
            if not any(part in f.signature.name for part in ("_traced_", "restore_fn"))}


def _constant(value, dtype=None):
    return tf.constant(value, dtype)


def _meta(path):
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((path / "saved_model.pb").read_bytes())
    return message.meta_graphs[0]


def _saved(tmp_path):
    m = module_class(tf)()
    tf.saved_model.save(m, str(tmp_path / "m"))
    return m, tmp_path / "m"


def test_the_table_is_a_resource_with_tensorflows_functions_and_saveable(tmp_path):
    _, path = _saved(tmp_path)
    meta = _meta(path)
    nodes = meta.object_graph_def.nodes
    table_id = next(c.node_id for c in nodes[0].children if c.local_name == "t")
    table = nodes[table_id]
    assert table.WhichOneof("kind") == "resource"
    assert [c.local_name for c in table.children] == ["_create_resource", "_initialize", "_destroy_resource"]
    assert list(table.saveable_objects) == ["table"]
    functions = {f.signature.name: f for f in meta.graph_def.library.function}
    create = functions[nodes[table.children[0].node_id].function.concrete_functions[0]]
    creator, = [n for n in create.node_def if n.op == "MutableHashTableV2"]
    assert (creator.attr["key_dtype"].type, creator.attr["value_dtype"].type) == (7, 9)  # string -> int64
    saveable = table.saveable_objects["table"]
    save = nodes[saveable.save_function].bare_concrete_function
    restore = nodes[saveable.restore_function].bare_concrete_function
    assert list(save.argument_keywords) == ["checkpoint_key"]
    assert list(restore.argument_keywords) == ["restored_tensors_0", "restored_tensors_1"]
    assert "LookupTableImportV2" in {n.op for n in functions[restore.concrete_function_name].node_def}
    for name in (save.concrete_function_name, restore.concrete_function_name):
        assert list(meta.object_graph_def.concrete_functions[name].bound_inputs) == [table_id]


def test_its_entries_are_in_the_checkpoint_under_tensorflows_keys(tmp_path):
    m, path = _saved(tmp_path)
    prefix = str(path / "variables" / "variables")
    # TensorFlow 2.21's save of the same module lists the same three entries (with 2 entries in the table)
    assert tf.train.list_variables(prefix) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
                                               ("t/.ATTRIBUTES/table-keys", [2]),
                                               ("t/.ATTRIBUTES/table-values", [2])]
    stored = dict(zip(tf.train.load_variable(prefix, "t/.ATTRIBUTES/table-keys").tolist(),
                      tf.train.load_variable(prefix, "t/.ATTRIBUTES/table-values").tolist()))
    assert stored == {b"a": 1, b"b": 2}
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
        tf.train.load_variable(prefix, "_CHECKPOINTABLE_OBJECT_GRAPH"))
    assert [(a.name, a.checkpoint_key) for n in graph.nodes for a in n.attributes] == [("table",
                                                                                       "t/.ATTRIBUTES/table")]


def test_the_functions_use_the_tables_handle_even_in_a_cond_branch(tmp_path):
    _, path = _saved(tmp_path)
    meta = _meta(path)
    functions = {f.signature.name: f for f in meta.graph_def.library.function}
    ops = _function_ops(meta)
    assert TABLE_OPS <= ops and not ops & PER_CALL
    find = next(f for n, f in functions.items() if n.startswith("__inference_find"))
    lookup, = [n for n in find.node_def if n.op == "LookupTableFindV2"]
    assert {a.name: a.type for a in find.signature.input_arg}[lookup.input[0]] == RESOURCE
    maybe_add = next(f for n, f in functions.items() if n.startswith("__inference_maybe_add"))
    branch_call, = [n for n in maybe_add.node_def if n.op in ("If", "StatelessIf")]
    assert branch_call.op == "If"  # it inserts: a stateful If, as TensorFlow writes it
    then = functions[branch_call.attr["then_branch"].func.name]
    insert, = [n for n in then.node_def if n.op == "LookupTableInsertV2"]
    assert {a.name: a.type for a in then.signature.input_arg}[insert.input[0]] == RESOURCE


def test_eagerflow_loads_its_save_with_tensorflows_answers(tmp_path):
    _, path = _saved(tmp_path)
    got = run_calls(tf.saved_model.load(str(path)), [tuple(c) for c in CALLS], _constant)
    assert json.loads(json.dumps(got)) == json.loads((FIXTURE / "expected.json").read_text())


def test_the_entries_saved_are_those_after_the_inserts(tmp_path):
    m = module_class(tf)()
    m.add(tf.constant(["c", "a"]), tf.constant([3, 10], tf.int64))
    m.remove(tf.constant(["b"]))
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert loaded.find(tf.constant(["a", "b", "c"])).numpy().tolist() == [10, -1, 3]
    assert int(loaded.add(tf.constant(["d"]), tf.constant([4], tf.int64))) == 3
    # saved again from the loaded model: the same resource layout, the change kept
    tf.saved_model.save(loaded, str(tmp_path / "again"))
    ops = _function_ops(_meta(tmp_path / "again"))
    assert TABLE_OPS <= ops and not ops & PER_CALL
    again = tf.saved_model.load(str(tmp_path / "again"))
    assert again.find(tf.constant(["a", "c", "d", "q"])).numpy().tolist() == [10, 3, 4, -1]


def test_a_table_of_vectors_is_a_mutable_hash_table_of_tensors(tmp_path):
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, [0.0, -1.0])
    table.insert(tf.constant(["a"]), tf.constant([[1.0, 2.0]]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.bool)])
    def f(k, flag):
        def add():
            table.insert(k, tf.ones([tf.size(k), 2]) * 5.0)
            return tf.constant(1)
        return table.lookup(k), tf.cond(flag, add, lambda: tf.constant(0))

    m = tf.Module()
    m.f = f  # the table itself is held by no object: attached to the root, as an unheld variable is
    tf.saved_model.save(m, str(tmp_path / "m"))
    meta = _meta(tmp_path / "m")
    creator, = [n for fn in meta.graph_def.library.function for n in fn.node_def
                if n.op == "MutableHashTableOfTensorsV2"]
    assert [d.size for d in creator.attr["value_shape"].shape.dim] == [2]
    assert "captured_mutable_table_0" in [c.local_name for c in meta.object_graph_def.nodes[0].children]
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    first, _ = loaded.f(tf.constant(["a", "z"]), tf.constant(False))
    during, added = loaded.f(tf.constant(["z"]), tf.constant(True))
    after, _ = loaded.f(tf.constant(["a", "z"]), tf.constant(False))
    # TensorFlow 2.21 on this save (tests/interop/test_mutable_table_resource_interop.py): the same rows, the
    # lookup before the branch's insert
    np.testing.assert_array_equal(first, [[1.0, 2.0], [0.0, -1.0]])
    np.testing.assert_array_equal(during, [[0.0, -1.0]])
    assert int(added) == 1
    np.testing.assert_array_equal(after, [[1.0, 2.0], [5.0, 5.0]])


def test_stored_entries_of_another_dtype_are_a_data_loss_naming_the_file(tmp_path):
    from eagerflow._src.formats.tensor_bundle import BundleReader, write_bundle
    _, path = _saved(tmp_path)
    prefix = str(path / "variables" / "variables")
    reader = BundleReader(prefix)
    entries = {key: (reader.read(key), reader.dtype(key)) for key in reader.keys()}
    entries["t/.ATTRIBUTES/table-keys"] = (np.array([5, 6], np.int64), tf.int64)  # the table holds strings
    write_bundle(prefix, entries)
    with pytest.raises(tf.errors.DataLossError, match=r"saved_model.pb.*not string -> int64"):
        tf.saved_model.load(str(path))
