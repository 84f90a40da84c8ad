"""Static lookup tables in a SavedModel as TensorFlow 2.21 writes them (checked against the saved_model.pb it
writes for the same module, tests/interop/test_table_resources_interop.py): a `resource` object registered as
tf.StaticHashTable with `_create_resource` (HashTableV2), `_initialize` (LookupTableImportV2 of two
SavedConstants, Const nodes of the top-level graph) and `_destroy_resource`; the functions reading the table
through a bound handle argument with LookupTableFindV2; the top-level graph's HashTableV2 filled by a call of
`_initialize` that the `__saved_model_init_op` NoOp waits for. eagerflow loads these files back, and the
per-call tables it wrote before (fixtures/per_call_tables) still load."""
import json
from pathlib import Path

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.saved_model.test_table_export import _Tables, _session

RESOURCE, STRING, INT32, INT64 = 20, 7, 3, 9
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _meta(path):
    from eagerflow._src.formats.protos import saved_model_pb2
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((Path(path) / "saved_model.pb").read_bytes())
    return message.meta_graphs[0]


def _tensor(node):
    from eagerflow.saved_model.tf_format.tf_values import tensor_of
    return tensor_of(node.attr["value"].tensor).tolist()


class _Static(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant(["b", "a", "c"]), tf.constant([2, 1, 3], tf.int64)), -1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(self, k):
        return self.table.lookup(k)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find_plus_one(self, k):
        return self.table.lookup(k) + 1


def _functions(meta):
    return {f.signature.name: f for f in meta.graph_def.library.function}


def test_the_table_is_a_resource_object_with_tensorflows_three_functions(tmp_path):
    tf.saved_model.save(_Static(), str(tmp_path / "m"))
    meta = _meta(tmp_path / "m")
    nodes, functions = meta.object_graph_def.nodes, _functions(meta)
    root = {c.local_name: c.node_id for c in nodes[0].children}
    table = nodes[root["table"]]
    assert table.WhichOneof("kind") == "resource" and table.registered_name == "tf.StaticHashTable"
    parts = {c.local_name: nodes[c.node_id] for c in table.children}
    assert sorted(parts) == ["_create_resource", "_destroy_resource", "_initialize"]
    names = {k: list(v.function.concrete_functions) for k, v in parts.items()}
    assert all(len(v) == 1 for v in names.values())
    creator = functions[names["_create_resource"][0]]
    made = [n for n in creator.node_def if n.op == "HashTableV2"]
    assert len(made) == 1 and made[0].attr["key_dtype"].type == STRING and made[0].attr["value_dtype"].type == INT64
    assert [a.type for a in creator.signature.output_arg] == [RESOURCE] and not creator.signature.input_arg
    init = functions[names["_initialize"][0]]
    assert [a.type for a in init.signature.input_arg] == [RESOURCE, STRING, INT64]
    assert [n.op for n in init.node_def].count("LookupTableImportV2") == 1
    assert [a.type for a in init.signature.output_arg] == [INT32]
    destroy = functions[names["_destroy_resource"][0]]
    assert [a.type for a in destroy.signature.output_arg] == [INT32] and not destroy.signature.is_stateful
    # the initializer's bound inputs: the table, then its keys and values as constants of the top-level graph
    bound = list(meta.object_graph_def.concrete_functions[names["_initialize"][0]].bound_inputs)
    assert bound[0] == root["table"]
    graph = {n.name: n for n in meta.graph_def.node}
    contents = []
    for j in bound[1:]:
        assert nodes[j].WhichOneof("kind") == "constant" and nodes[j].registered_name == "tf.TrackableConstant"
        contents.append(_tensor(graph[nodes[j].constant.operation]))
    assert sorted(zip(*contents)) == [(b"a", 1), (b"b", 2), (b"c", 3)]


def test_functions_look_up_through_the_bound_table_handle(tmp_path):
    tf.saved_model.save(_Static(), str(tmp_path / "m"))
    meta = _meta(tmp_path / "m")
    nodes, functions = meta.object_graph_def.nodes, _functions(meta)
    root = {c.local_name: c.node_id for c in nodes[0].children}
    for name in ("find", "find_plus_one"):
        cf_name, = nodes[root[name]].function.concrete_functions
        fdef = functions[cf_name]
        ops = [n.op for n in fdef.node_def]
        assert ops.count("LookupTableFindV2") == 1
        assert not {"AnonymousHashTable", "LookupTableImportV2", "HashTableV2"} & set(ops)
        assert not any(n.op == "Const" and n.attr["dtype"].type == STRING for n in fdef.node_def)  # no copy of it
        find = next(n for n in fdef.node_def if n.op == "LookupTableFindV2")
        arguments = [a.name for a in fdef.signature.input_arg]
        position = arguments.index(find.input[0])
        assert fdef.signature.input_arg[position].type == RESOURCE
        bound = list(meta.object_graph_def.concrete_functions[cf_name].bound_inputs)
        first_bound = len(arguments) - len(bound)
        assert bound[position - first_bound] == root["table"]  # both functions share the one table


def test_the_init_op_creates_and_fills_the_table_once(tmp_path):
    m = _Static()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"serving_default": m.find})
    meta = _meta(tmp_path / "m")
    graph = {n.name: n for n in meta.graph_def.node}
    init_op = graph[meta.signature_def["__saved_model_init_op"].outputs["__saved_model_init_op"].name]
    assert init_op.op == "NoOp"
    calls = [graph[i[1:]] for i in init_op.input if i.startswith("^")]
    assert len(calls) == 1 and calls[0].op == "StatefulPartitionedCall"
    handle, keys, values = (graph[i] for i in calls[0].input)
    assert handle.op == "HashTableV2" and keys.op == values.op == "Const"
    init_name = calls[0].attr["f"].func.name
    assert init_name in {f.signature.name for f in meta.graph_def.library.function}
    assert sorted(zip(_tensor(keys), _tensor(values))) == [(b"a", 1), (b"b", 2), (b"c", 3)]
    # the signature's call passes the same HashTableV2 node
    served = meta.signature_def["serving_default"].outputs
    call = graph[next(iter(served.values())).name.split(":")[0]]
    assert handle.name in list(call.input)


def test_a_table_saves_and_loads_back_with_its_answers(tmp_path):
    m = _Static()
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    keys = tf.constant(["a", "zz", "c", "b"])
    assert loaded.find(keys).numpy().tolist() == [1, -1, 3, 2] == m.find(keys).numpy().tolist()
    assert loaded.find_plus_one(keys).numpy().tolist() == [2, 0, 4, 3]


def test_a_keras_lookup_layers_table_is_a_resource_under_the_layer(tmp_path):
    inp = keras.Input(shape=(2,), dtype="string", name="color")
    layer = keras.layers.StringLookup(vocabulary=["red", "green", "blue"])
    model = keras.Model(inp, layer(inp))
    tf.saved_model.save(model, str(tmp_path / "m"))
    meta = _meta(tmp_path / "m")
    nodes = meta.object_graph_def.nodes
    resources = [i for i, n in enumerate(nodes) if n.WhichOneof("kind") == "resource"]
    assert len(resources) == 1
    holders = [(n, c.local_name) for n in nodes for c in n.children if c.node_id == resources[0]]
    assert [local for _, local in holders] == ["lookup_table"]
    assert all(n.WhichOneof("kind") == "user_object" for n, _ in holders)
    served = tf.saved_model.load(str(tmp_path / "m")).signatures["serving_default"]
    name, = served.structured_input_signature[1]
    out, = served(**{name: tf.constant([["blue", "red"], ["zzz", "green"]])}).values()
    assert out.numpy().tolist() == [[3, 1], [0, 2]]  # TensorFlow 2.21's answer: [UNK] 0, red 1, green 2, blue 3


def test_an_inverse_lookup_and_an_integer_lookup_load_back(tmp_path):
    inverse = keras.layers.StringLookup(vocabulary=["red", "green"], invert=True)
    integers = keras.layers.IntegerLookup(vocabulary=[7, 3, 11])

    class Both(tf.Module):
        def __init__(self):
            super().__init__()
            self.inverse, self.integers = inverse, integers

        @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
        def run(self, x):
            return {"words": self.inverse(x), "ids": self.integers(x)}

    m = Both()
    tf.saved_model.save(m, str(tmp_path / "m"))
    assert sum(n.WhichOneof("kind") == "resource" for n in _meta(tmp_path / "m").object_graph_def.nodes) == 2
    x = tf.constant([0, 1, 2, 3, 7, 11], tf.int64)
    got = {k: v.numpy().tolist() for k, v in tf.saved_model.load(str(tmp_path / "m")).run(x).items()}
    assert got == {k: v.numpy().tolist() for k, v in m.run(x).items()}
    assert got["words"] == [b"[UNK]", b"red", b"green", b"[UNK]", b"[UNK]", b"[UNK]"]  # Keras 3.15's answers
    assert got["ids"] == [0, 0, 0, 2, 1, 3]


def test_a_table_held_by_no_object_is_attached_to_the_root(tmp_path):
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2], [10.0, 20.0]), 0.0)
    m = tf.Module()
    m.f = tf.function(lambda x: table.lookup(x), input_signature=[tf.TensorSpec([None], tf.int32)])
    tf.saved_model.save(m, str(tmp_path / "m"))
    nodes = _meta(tmp_path / "m").object_graph_def.nodes
    root = {c.local_name: nodes[c.node_id] for c in nodes[0].children}
    assert root["captured_table_0"].WhichOneof("kind") == "resource"
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert loaded.f(tf.constant([2, 5, 1])).numpy().tolist() == [20.0, 0.0, 10.0]


def test_a_lookup_inside_a_cond_branch_keeps_a_table_made_for_the_call(tmp_path):
    """A branch function receives the table's tensors as arguments, so its lookup fills its own table."""
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["x", "y"], [1, 2]), -1)
    m = tf.Module()
    m.table = table
    m.f = tf.function(lambda k, p: tf.cond(p, lambda: table.lookup(k), lambda: tf.fill(tf.shape(k), 0)),
                      input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.bool)])
    tf.saved_model.save(m, str(tmp_path / "m"))
    assert not (tmp_path / "m" / "saved_model.json").exists()
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert loaded.f(tf.constant(["y", "q", "x"]), tf.constant(True)).numpy().tolist() == [2, -1, 1]
    assert loaded.f(tf.constant(["y"]), tf.constant(False)).numpy().tolist() == [0]


def test_the_per_call_tables_eagerflow_wrote_before_still_load():
    fixture = FIXTURES / "per_call_tables"
    assert "AnonymousHashTable" in {n.op for f in _meta(fixture / "model").graph_def.library.function
                                    for n in f.node_def}
    loaded = _session(tf.saved_model.load(str(fixture / "model")))
    expected = json.loads((fixture / "expected.json").read_text())
    assert json.loads(json.dumps(loaded, default=lambda b: b.decode())) == expected
    # TensorFlow 2.21's answers for the same module (tests/interop/test_table_export_interop.py)
    assert expected["static"] == [1, -1, -1, -1, -1, 3] and expected["vocab"] == [2, 0, 4, 3, 4, 3]


def test_a_module_of_every_kind_of_table_answers_as_before(tmp_path):
    m = _Tables()
    tf.saved_model.save(m, str(tmp_path / "m"))
    kinds = [n.WhichOneof("kind") for n in _meta(tmp_path / "m").object_graph_def.nodes]
    # the StaticHashTable, the StaticVocabularyTable's table and the MutableHashTable (test_mutable_table_resource.py)
    assert kinds.count("resource") == 3
    assert _session(tf.saved_model.load(str(tmp_path / "m"))) == _session(_Tables())
    np.testing.assert_array_equal(tf.saved_model.load(str(tmp_path / "m")).find(tf.constant(["b"]))["static"], [2])


def _text_file_module(path):
    class TextTable(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
                str(path), tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                tf.lookup.TextFileIndex.LINE_NUMBER), -1)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def find(self, k):
            return self.table.lookup(k)
    return TextTable()


def test_a_text_file_table_carries_its_file_as_an_asset(tmp_path):
    """As TensorFlow 2.21 writes a TextFileInitializer's table: the file copied into assets/, `_initialize`
    running InitializeTableFromTextFileV2 on the asset's path, the asset held by the table's `_initializer`."""
    vocab = tmp_path / "colors.txt"
    vocab.write_text("red\ngreen\nblue\n")
    tf.saved_model.save(_text_file_module(vocab), str(tmp_path / "m"))
    vocab.unlink()  # the model needs only its own copy
    assert (tmp_path / "m" / "assets" / "colors.txt").read_text() == "red\ngreen\nblue\n"
    meta = _meta(tmp_path / "m")
    nodes, functions = meta.object_graph_def.nodes, _functions(meta)
    table_id = {c.local_name: c.node_id for c in nodes[0].children}["table"]
    parts = {c.local_name: c.node_id for c in nodes[table_id].children}
    assert sorted(parts) == ["_create_resource", "_destroy_resource", "_initialize", "_initializer"]
    asset, = [c.node_id for c in nodes[parts["_initializer"]].children if c.local_name == "_filename"]
    assert meta.asset_file_def[nodes[asset].asset.asset_file_def_index].filename == "colors.txt"
    init_name, = nodes[parts["_initialize"]].function.concrete_functions
    init = functions[init_name]
    fill, = [n for n in init.node_def if n.op == "InitializeTableFromTextFileV2"]
    assert fill.attr["key_index"].i == -2 and fill.attr["value_index"].i == -1
    assert [a.type for a in init.signature.input_arg] == [STRING, RESOURCE]
    assert list(meta.object_graph_def.concrete_functions[init_name].bound_inputs) == [asset, table_id]
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert loaded.find(tf.constant(["blue", "x", "red"])).numpy().tolist() == [2, -1, 0]  # TensorFlow 2.21's


def test_a_text_file_tables_missing_asset_is_a_data_loss_error(tmp_path):
    vocab = tmp_path / "colors.txt"
    vocab.write_text("red\ngreen\n")
    tf.saved_model.save(_text_file_module(vocab), str(tmp_path / "m"))
    (tmp_path / "m" / "assets" / "colors.txt").unlink()
    with pytest.raises(tf.errors.DataLossError, match="saved_model.pb.*text file"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_a_text_file_table_never_reads_a_file_outside_its_assets(tmp_path):
    vocab = tmp_path / "colors.txt"
    vocab.write_text("red\ngreen\n")
    tf.saved_model.save(_text_file_module(vocab), str(tmp_path / "m"))
    copy = tmp_path / "m" / "assets" / "colors.txt"
    copy.unlink()
    copy.symlink_to(vocab)  # a link out of the model's folder
    with pytest.raises(tf.errors.DataLossError, match="outside the assets"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_a_text_file_initializer_takes_an_asset_as_tensorflow_does(tmp_path):
    """TensorFlow 2.21 accepts a tf.saved_model.Asset as TextFileInitializer's file name (recorded: lookups
    [1, -1] and vocabulary ids [2, 3] below); the SavedModel then carries that one asset for the table and
    the module, and TensorFlow's load of eagerflow's save answers [2, 0, -1] (tests/interop/
    test_table_resources_interop.py runs it)."""
    vocab = tmp_path / "colors.txt"
    vocab.write_text("red\ngreen\nblue\n")
    asset = tf.saved_model.Asset(str(vocab))
    whole_line, line_number = tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(asset, tf.string, whole_line, tf.int64,
                                                                    line_number), -1)
    assert table.lookup(tf.constant(["green", "x"])).numpy().tolist() == [1, -1]
    vocabulary = tf.lookup.StaticVocabularyTable(
        tf.lookup.TextFileInitializer(asset, tf.string, whole_line, tf.int64, line_number), 1)
    assert vocabulary.lookup(tf.constant(["blue", "zz"])).numpy().tolist() == [2, 3]
    m = tf.Module()
    m.table, m.asset = table, asset
    m.find = tf.function(lambda k: table.lookup(k), input_signature=[tf.TensorSpec([None], tf.string)])
    tf.saved_model.save(m, str(tmp_path / "m"))
    assert [f.filename for f in _meta(tmp_path / "m").asset_file_def] == ["colors.txt"]
    assert tf.saved_model.load(str(tmp_path / "m")).find(tf.constant(["blue", "red", "x"])).numpy().tolist() == \
        [2, 0, -1]
    with pytest.raises(ValueError, match="`filename` argument required for tf.lookup.TextFileInitializer"):
        tf.lookup.TextFileInitializer("", tf.string, whole_line, tf.int64, line_number)
