"""MutableHashTable in TensorFlow-format checkpoints, saved as TensorFlow 2.21 saves a table: one attribute
`table` whose entries are the tensors `<path>/.ATTRIBUTES/table-keys` and `table-values`. TensorFlow's own
checkpoint (recorded below) restores into eagerflow's table, entries in any order; eagerflow's round trips; the
layout eagerflow wrote before (the table's two variables) still restores; a table of other dtypes is refused."""
import base64

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import trackable_object_graph_pb2
from eagerflow._src.formats.tensor_bundle import BundleReader, write_bundle

# TensorFlow 2.21: m = tf.Module(); m.static = StaticHashTable(["a","b"] -> [1,2]); m.mut = MutableHashTable(
# tf.string, tf.int64, -1) with insert(["x","y"], [7,8]); m.f = a tf.function; tf.train.Checkpoint(m=m).write(p)
TF_TABLE_INDEX = ("AAAGCAEaAggBABwNX0NIRUNLUE9JTlRBQkxFX09CSkVDVF9HUkFQSAgHEgAgGCh6NWMMkPsAHA9tL211dC8uQVRUUklCVVRFUy90Y"
                  "WJsZS1rZXlzCAcSBBICCAIoCDUQ9MUlGAYRdmFsdWVzCAkSBBICCAIgCCgQNXFOFQQAAAAAAQAAAAAE3tm4AAAAAAEAAAAAwPKhsA"
                  "ABA24AhQEAAAAAAQAAAACYOdPrigEIlwEPAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFf7gIskdUfb")
TF_TABLE_DATA = ("AQF6G61seXgIAAAAAAAAAAcAAAAAAAAAdabiPfgKCwoFCAESAW0qAggBCiAKCggCEgZzdGF0aWMKBwgDEgNtdXQKBQgEEgFmKgIIAQ"
                 "oUChAIBRIMX2luaXRpYWxpemVyKgAKJhIgCgV0YWJsZRoXbS9tdXQvLkFUVFJJQlVURVMvdGFibGUqAggBCgIqAAoCKgA=")


def _module(key_dtype=tf.string):
    m = tf.Module()
    m.mut = tf.lookup.experimental.MutableHashTable(key_dtype, tf.int64, -1)
    return m


def test_tensorflows_table_checkpoint_restores(tmp_path):
    (tmp_path / "ck.index").write_bytes(base64.b64decode(TF_TABLE_INDEX))
    (tmp_path / "ck.data-00000-of-00001").write_bytes(base64.b64decode(TF_TABLE_DATA))
    assert BundleReader(str(tmp_path / "ck")).read("m/mut/.ATTRIBUTES/table-keys").tolist() == [b"y", b"x"]
    m = _module()
    tf.train.Checkpoint(m=m).read(str(tmp_path / "ck")).assert_consumed()
    assert m.mut.lookup(tf.constant(["x", "y", "z"])).numpy().tolist() == [7, 8, -1]
    assert int(m.mut.size()) == 2


def test_eagerflow_writes_tensorflows_layout_and_reads_it_back(tmp_path):
    m = _module()
    m.mut.insert(tf.constant(["b", "a", "c"]), tf.constant([2, 1, 3], tf.int64))
    prefix = tf.train.Checkpoint(m=m).write(str(tmp_path / "ck"))
    assert tf.train.list_variables(prefix) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
                                               ("m/mut/.ATTRIBUTES/table-keys", [3]),
                                               ("m/mut/.ATTRIBUTES/table-values", [3])]
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
        tf.train.load_variable(prefix, "_CHECKPOINTABLE_OBJECT_GRAPH"))
    table_node = [n for n in graph.nodes if n.attributes][0]
    assert [(a.name, a.checkpoint_key) for a in table_node.attributes] == [("table", "m/mut/.ATTRIBUTES/table")]
    assert not table_node.children
    other = _module()
    other.mut.insert(tf.constant(["zz"]), tf.constant([9], tf.int64))  # replaced, not merged, as in TensorFlow
    tf.train.Checkpoint(m=other).read(prefix).assert_consumed()
    assert other.mut.lookup(tf.constant(["a", "b", "c", "zz"])).numpy().tolist() == [1, 2, 3, -1]


def test_the_earlier_two_variable_layout_still_restores(tmp_path):
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    graph.nodes.add().children.add(node_id=1, local_name="m")
    graph.nodes.add().children.add(node_id=2, local_name="mut")
    table = graph.nodes.add()
    table.children.add(node_id=3, local_name="_keys")
    table.children.add(node_id=4, local_name="_values")
    for name in ("_keys", "_values"):
        graph.nodes.add().attributes.add(name="VARIABLE_VALUE",
                                         checkpoint_key=f"m/mut/{name}/.ATTRIBUTES/VARIABLE_VALUE")
    write_bundle(str(tmp_path / "old"), {
        "_CHECKPOINTABLE_OBJECT_GRAPH": (np.array(graph.SerializeToString(), object), tf.string),
        "m/mut/_keys/.ATTRIBUTES/VARIABLE_VALUE": np.array([b"p", b"q"], object),
        "m/mut/_values/.ATTRIBUTES/VARIABLE_VALUE": np.array([5, 6], np.int64)})
    m = _module()
    tf.train.Checkpoint(m=m).read(str(tmp_path / "old"))
    assert m.mut.lookup(tf.constant(["p", "q"])).numpy().tolist() == [5, 6]


def test_a_table_of_other_dtypes_is_refused_and_unchanged(tmp_path):
    m = _module()
    m.mut.insert(tf.constant(["a"]), tf.constant([1], tf.int64))
    prefix = tf.train.Checkpoint(m=m).write(str(tmp_path / "ck"))
    other = _module(tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="table-keys; expected dtype int64 does not equal "
                                                             "original dtype string"):
        tf.train.Checkpoint(m=other).read(prefix)
    assert int(other.mut.size()) == 0
