"""Static lookup tables saved by eagerflow as TensorFlow's tracked table resources, against real TensorFlow 2.21:
the saved_model.pb has the layout TensorFlow writes for the same module (the table's object, its three
functions, the top-level HashTableV2 and the init op's call of `_initialize`); TensorFlow loads it (twice in one
process, and through TensorFlow 1's session loader, which runs the init op) with eagerflow's answers; TFLite's
converter turns the StaticHashTable and StringLookup models into its HASHTABLE ops with its default settings,
as it does TensorFlow's own saves, and the interpreter agrees; eagerflow loads TensorFlow's save back."""
import numpy as np

import eagerflow as tf
from eagerflow import keras

# Runs in TensorFlow's process: `describe(dir)` is what the test compares between eagerflow's save (./ours) and
# TensorFlow's save of the same model (./theirs); `answers(dir)` runs it.
_COMMON = """
import json
import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import saved_model_pb2

def describe(path):
    message = saved_model_pb2.SavedModel()
    message.ParseFromString(open(path + "/saved_model.pb", "rb").read())
    meta = message.meta_graphs[0]
    nodes = meta.object_graph_def.nodes
    functions = {f.signature.name: f for f in meta.graph_def.library.function}
    out = []
    for node in nodes:
        if node.WhichOneof("kind") != "resource":
            continue
        parts = {c.local_name: nodes[c.node_id] for c in node.children}
        entry = {"registered_name": node.registered_name,
                 "functions": sorted(k for k, v in parts.items() if v.WhichOneof("kind") == "function")}
        for local in ("_create_resource", "_initialize", "_destroy_resource"):
            name, = parts[local].function.concrete_functions
            f = functions[name]
            entry[local] = {"ops": sorted({n.op for n in f.node_def} - {"NoOp", "Identity", "Const"}),
                            "in": [a.type for a in f.signature.input_arg], "out": [a.type for a in f.signature.output_arg],
                            "bound": [nodes[j].WhichOneof("kind") for j in
                                      meta.object_graph_def.concrete_functions[name].bound_inputs]}
        out.append(entry)
    graph = {n.name: n for n in meta.graph_def.node}
    init = graph[meta.signature_def["__saved_model_init_op"].outputs["__saved_model_init_op"].name]
    calls = [graph[i[1:]] for i in init.input if i.startswith("^")]
    lookups = sorted({n.op for f in functions.values() for n in f.node_def if "Table" in n.op})
    return {"tables": out, "init_calls": [[graph[i].op for i in c.input] for c in calls], "table_ops": lookups}

def lite(path, x):
    interpreter = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_saved_model(path).convert())
    runner = interpreter.get_signature_runner("serving_default")
    out = {k: np.asarray(v).tolist() for k, v in runner(**x).items()}
    return out, sorted({op["op_name"] for op in interpreter._get_ops_details()})
"""

_STATIC_MODULE = """
class Static(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant(["b", "a", "c"]), tf.constant([2, 1, 3], tf.int64)), -1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(self, k):
        return {"ids": self.table.lookup(k)}
"""

KEYS = ["a", "zz", "c", "b"]


def _static_module():
    namespace = {"tf": tf}
    exec(_STATIC_MODULE, namespace)  # the same class TensorFlow's process builds
    return namespace["Static"]()


def test_a_static_table_has_tensorflows_layout_loads_and_converts_to_tflite(tmp_path, run_tf):
    m = _static_module()
    tf.saved_model.save(m, str(tmp_path / "ours"), signatures={"serving_default": m.find})
    expected = m.find(tf.constant(KEYS))["ids"].numpy().tolist()
    answer = run_tf(_COMMON + _STATIC_MODULE + f"""
KEYS = {KEYS!r}
theirs = Static()
tf.saved_model.save(theirs, "theirs", signatures={{"serving_default": theirs.find}})
first, second = tf.saved_model.load("ours"), tf.saved_model.load("ours")
loaded = [first.find(tf.constant(KEYS))["ids"].numpy().tolist(), second.find(tf.constant(KEYS))["ids"].numpy().tolist(),
          first.signatures["serving_default"](k=tf.constant(KEYS))["ids"].numpy().tolist()]
with tf.compat.v1.Graph().as_default(), tf.compat.v1.Session() as session:  # TensorFlow 1's loader runs the init op
    meta = tf.compat.v1.saved_model.loader.load(session, ["serve"], "ours")
    sig = meta.signature_def["serving_default"]
    v1 = session.run(sig.outputs["ids"].name, {{sig.inputs["k"].name: KEYS}}).tolist()
x = {{"k": np.array(KEYS, dtype=object)}}
print(json.dumps({{"ours": describe("ours"), "theirs": describe("theirs"), "loaded": loaded, "v1": v1,
                  "lite": lite("ours", x), "their_lite": lite("theirs", x)}}))
""", timeout=600)
    assert answer["ours"] == answer["theirs"]
    assert answer["ours"]["tables"][0]["registered_name"] == "tf.StaticHashTable"
    assert answer["ours"]["table_ops"] == ["HashTableV2", "LookupTableFindV2", "LookupTableImportV2"]
    assert answer["loaded"] == [expected] * 3 and answer["v1"] == expected
    assert expected == [1, -1, 3, 2]  # TensorFlow 2.21's answers for the same table
    lite, ops = answer["lite"]
    assert lite == {"ids": expected}
    assert ops == answer["their_lite"][1] == ["CALL_ONCE", "HASHTABLE", "HASHTABLE_FIND"]
    # eagerflow loads TensorFlow's save of the same module with the same answers
    theirs = tf.saved_model.load(str(tmp_path / "theirs"))
    assert theirs.find(tf.constant(KEYS))["ids"].numpy().tolist() == expected


def test_a_string_lookup_model_converts_to_tflites_hash_tables(tmp_path, run_tf):
    inp = keras.Input(shape=(2,), dtype="string", name="color")
    model = keras.Model(inp, keras.layers.StringLookup(vocabulary=["red", "green", "blue"])(inp))
    tf.saved_model.save(model, str(tmp_path / "ours"))
    colors = [["blue", "red"], ["zzz", "green"]]
    expected = model(tf.constant(colors)).numpy().tolist()
    answer = run_tf(_COMMON + f"""
import keras
inp = keras.Input(shape=(2,), dtype="string", name="color")
model = keras.Model(inp, keras.layers.StringLookup(vocabulary=["red", "green", "blue"])(inp))
tf.saved_model.save(model, "theirs")
sig = tf.saved_model.load("ours").signatures["serving_default"]
name, = sig.structured_input_signature[1]
served = [v.numpy().tolist() for v in sig(**{{name: tf.constant({colors!r})}}).values()]
x = {{name: np.array({colors!r}, dtype=object)}}
print(json.dumps({{"ours": describe("ours"), "theirs": describe("theirs"), "served": served,
                  "lite": lite("ours", x)}}))
""", timeout=600)
    assert answer["ours"]["tables"] == answer["theirs"]["tables"]
    assert answer["ours"]["init_calls"] == answer["theirs"]["init_calls"] == [["HashTableV2", "Const", "Const"]]
    assert answer["served"] == [expected] and expected == [[3, 1], [0, 2]]  # [UNK] 0, red 1, green 2, blue 3
    lite, ops = answer["lite"]
    assert list(lite.values()) == [expected]
    assert ops == ["CALL_ONCE", "HASHTABLE", "HASHTABLE_FIND"]


def test_a_static_vocabulary_table_loads_and_converts_with_select_tf_ops(tmp_path, run_tf):
    """TFLite has no builtin for the out-of-vocabulary buckets' StringToHashBucketFast: the model converts
    with SELECT_TF_OPS only, as TensorFlow's own save of it does (its interpreter then needs the Flex delegate)."""
    m = tf.Module()
    m.vocab = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant(["x", "y"]), tf.constant([0, 1], tf.int64)), 3)
    m.find = tf.function(lambda k: {"ids": m.vocab.lookup(k)}, input_signature=[tf.TensorSpec([None], tf.string)])
    tf.saved_model.save(m, str(tmp_path / "ours"), signatures={"serving_default": m.find})
    keys = ["x", "zz", "y", "a"]
    answer = run_tf(_COMMON + f"""
loaded = tf.saved_model.load("ours")
def convert(ops):
    converter = tf.lite.TFLiteConverter.from_saved_model("ours")
    if ops:
        converter.target_spec.supported_ops = ops
    try:
        return len(converter.convert()) > 0
    except Exception as err:
        return type(err).__name__
print(json.dumps({{"ids": loaded.find(tf.constant({keys!r}))["ids"].numpy().tolist(), "default": convert(None),
                  "select": convert([tf.lite.OpsSet.TFLITE_BUILTINS, tf.lite.OpsSet.SELECT_TF_OPS])}}))
""", timeout=600)
    assert answer["ids"] == m.find(tf.constant(keys))["ids"].numpy().tolist()
    assert answer["default"] == "ConverterError" and answer["select"] is True
    assert np.array_equal(answer["ids"][:1] + answer["ids"][2:3], [0, 1])


_TEXT_MODULE = """
class TextTable(tf.Module):
    def __init__(self, path):
        super().__init__()
        self.table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(self, k):
        return {"ids": self.table.lookup(k)}
"""


def test_a_text_file_table_travels_as_an_asset_both_ways(tmp_path, run_tf):
    """TensorFlow loads eagerflow's text-file table (its file in assets/), eagerflow loads TensorFlow's. TFLite
    has no text-file initialization: TensorFlow's own save converts but its interpreter refuses the lookup
    ("hashtable need to be initialized"), so a model for TFLite takes a KeyValueTensorInitializer."""
    (tmp_path / "colors.txt").write_text("red\ngreen\nblue\n")
    namespace = {"tf": tf}
    exec(_TEXT_MODULE, namespace)
    m = namespace["TextTable"](str(tmp_path / "colors.txt"))
    tf.saved_model.save(m, str(tmp_path / "ours"), signatures={"serving_default": m.find})
    keys = ["blue", "x", "red", "green"]
    answer = run_tf(_COMMON + _TEXT_MODULE + f"""
theirs = TextTable("colors.txt")
tf.saved_model.save(theirs, "theirs", signatures={{"serving_default": theirs.find}})
loaded = tf.saved_model.load("ours")
def their_lite():
    try:
        return lite("theirs", {{"k": np.array({keys!r}, dtype=object)}})
    except RuntimeError as err:
        return "hashtable need to be initialized" in str(err)
print(json.dumps({{"ours": describe("ours"), "theirs": describe("theirs"),
                  "ids": loaded.find(tf.constant({keys!r}))["ids"].numpy().tolist(), "their_lite": their_lite()}}))
""", timeout=600)
    assert answer["ids"] == m.find(tf.constant(keys))["ids"].numpy().tolist() == [2, -1, 0, 1]
    assert answer["ours"]["tables"] == answer["theirs"]["tables"]
    assert answer["ours"]["tables"][0]["_initialize"]["ops"] == ["InitializeTableFromTextFileV2"]
    assert answer["ours"]["tables"][0]["_initialize"]["bound"] == ["asset", "resource"]
    assert answer["their_lite"] is True
    theirs = tf.saved_model.load(str(tmp_path / "theirs"))
    assert theirs.find(tf.constant(keys))["ids"].numpy().tolist() == [2, -1, 0, 1]


def test_a_text_file_table_from_an_asset_loads_in_tensorflow(tmp_path, run_tf):
    """A TextFileInitializer given a tf.saved_model.Asset (TensorFlow accepts one too): eagerflow's save carries
    that one asset, and TensorFlow's load answers as TensorFlow's own table over the same Asset."""
    (tmp_path / "colors.txt").write_text("red\ngreen\nblue\n")
    asset = tf.saved_model.Asset(str(tmp_path / "colors.txt"))
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        asset, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
    m = tf.Module()
    m.table, m.asset = table, asset
    m.find = tf.function(lambda k: table.lookup(k), input_signature=[tf.TensorSpec([None], tf.string)])
    tf.saved_model.save(m, str(tmp_path / "ours"))
    keys = ["blue", "red", "x", "green"]
    answer = run_tf(f"""
import json
import tensorflow as tf
asset = tf.saved_model.Asset("colors.txt")
table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
    asset, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
print(json.dumps({{"ours": tf.saved_model.load("ours").find(tf.constant({keys!r})).numpy().tolist(),
                  "theirs": table.lookup(tf.constant({keys!r})).numpy().tolist()}}))
""")
    assert answer["ours"] == answer["theirs"] == table.lookup(tf.constant(keys)).numpy().tolist() == [2, 0, -1, 1]
