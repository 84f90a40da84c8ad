"""The MetaGraphDef's main graph, which TF Serving's loader runs (restore through the SaverDef, the init op, then
the SignatureDefs' tensors): an asset and the init op laid out as TensorFlow 2.21 lays them out. The expected
nodes are those of TensorFlow 2.21's saved_model.pb for the same module (read with its saved_model_pb2); that the
layout runs in TensorFlow's C++ loader is tests/interop/test_saved_model_session_loader.py's job."""
import eagerflow as tf


def _meta_graph(directory):
    from eagerflow._src.formats.protos import saved_model_pb2
    meta, = saved_model_pb2.SavedModel.FromString((directory / "saved_model.pb").read_bytes()).meta_graphs
    return meta


def _asset_module(folder):
    (folder / "vocab.txt").write_text("first\nsecond\n")
    m = tf.Module()
    m.vocab = tf.saved_model.Asset(str(folder / "vocab.txt"))
    m.read = tf.function(lambda s: {"out": tf.strings.join([s, tf.io.read_file(m.vocab.asset_path)])},
                         input_signature=[tf.TensorSpec([None], tf.string, name="s")])
    return m


def test_an_asset_is_a_placeholder_fed_at_init_into_a_string_variable(tmp_path):
    m = _asset_module(tmp_path)
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"serving_default": m.read})
    meta = _meta_graph(tmp_path / "m")
    nodes = {n.name: n for n in meta.graph_def.node}
    # TensorFlow 2.21: asset_path_initializer (Placeholder, string, shape ()), Variable (VarHandleOp, string),
    # Variable/Assign (AssignVariableOp of the placeholder), NoOp ['^Variable/Assign'], and the signature's call
    # reading Variable; the AssetFileDef names the placeholder.
    feed = nodes["asset_path_initializer"]
    assert (feed.op, feed.attr["dtype"].type, list(feed.attr["shape"].shape.dim)) == ("Placeholder", 7, [])
    assert (nodes["Variable"].op, nodes["Variable"].attr["dtype"].type) == ("VarHandleOp", 7)
    assign = nodes["Variable/Assign"]
    assert (assign.op, list(assign.input)) == ("AssignVariableOp", ["Variable", "asset_path_initializer"])
    assert list(nodes["NoOp"].input) == ["^Variable/Assign"]
    asset, = meta.asset_file_def
    assert (asset.tensor_info.name, asset.filename) == ("asset_path_initializer:0", "vocab.txt")
    call = nodes[meta.signature_def["serving_default"].outputs["out"].name.split(":")[0]]
    read = nodes[call.input[1]]
    assert (read.op, list(read.input)) == ("ReadVariableOp", ["Variable"])


def test_the_init_op_is_named_by_its_signature_and_the_main_op_collection(tmp_path):
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])
    m.f = tf.function(lambda x: x * m.v, input_signature=[tf.TensorSpec([2], tf.float32)])
    tf.saved_model.save(m, str(tmp_path / "m"), signatures=m.f)
    meta = _meta_graph(tmp_path / "m")
    # TensorFlow 2.21: collection_def {'saved_model_main_op': node_list ['NoOp']}, and the
    # __saved_model_init_op SignatureDef's one output named NoOp, of unknown rank
    assert list(meta.collection_def) == ["saved_model_main_op"]
    assert list(meta.collection_def["saved_model_main_op"].node_list.value) == ["NoOp"]
    init = meta.signature_def["__saved_model_init_op"].outputs["__saved_model_init_op"]
    assert (init.name, init.tensor_shape.unknown_rank) == ("NoOp", True)
    assert {n.name: n.op for n in meta.graph_def.node}["NoOp"] == "NoOp"
    assert meta.saver_def.filename_tensor_name == "saver_filename:0"
