"""What SavedModels written the Keras 2 way (tf_keras) hold that Keras 3 exports do not, on files eagerflow
writes and then changes into that shape (tests/interop/test_saved_model_tf_keras2.py loads the real ones):
objects named as Keras 2 names its layers (`layer-0`, `layer_with_weights-0`), and ResourceGather, the
embedding lookup Keras 2's Embedding layer traces (TensorFlow's inputs: the variable's handle, the indices)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2

TABLE = np.arange(12, dtype=np.float32).reshape(4, 3)


def _rewrite(directory, change):
    path = directory / "saved_model.pb"
    message = saved_model_pb2.SavedModel.FromString(path.read_bytes())
    change(message.meta_graphs[0])
    path.write_bytes(message.SerializeToString())


def _lookup_model(directory):
    m = tf.Module()
    m.table = tf.Variable(TABLE)
    m.f = tf.function(lambda i: tf.gather(m.table, i), input_signature=[tf.TensorSpec([None], tf.int32)])
    tf.saved_model.save(m, str(directory), signatures={"serving_default": m.f})
    assert not (directory / "saved_model.json").exists()


def _as_resource_gather(meta, batch_dims=0, dtype=1):
    """GatherV2(ReadVariableOp(handle), i, axis) -> ResourceGather(handle, i), as TensorFlow writes it."""
    for fdef in meta.graph_def.library.function:
        nodes = {n.name: n for n in fdef.node_def}
        gather = nodes.get("GatherV2")
        if gather is None or "GatherV2/ReadVariableOp" not in nodes:
            continue
        handle = nodes["GatherV2/ReadVariableOp"].input[0]
        kept = [n for n in fdef.node_def if n.name not in ("GatherV2/ReadVariableOp", "GatherV2/axis")]
        del fdef.node_def[:]
        fdef.node_def.extend(kept)
        gather = next(n for n in fdef.node_def if n.name == "GatherV2")
        gather.op = "ResourceGather"
        indices = gather.input[1]
        del gather.input[:]
        gather.input.extend([handle, indices])
        for key in list(gather.attr):
            del gather.attr[key]
        gather.attr["dtype"].type = dtype
        gather.attr["Tindices"].type = 3  # DT_INT32
        gather.attr["batch_dims"].i = batch_dims
        gather.attr["validate_indices"].b = True
        return
    raise AssertionError("no GatherV2 of a variable read found")


def test_resource_gather_reads_rows_of_the_variable_and_carries_their_gradient(tmp_path):
    _lookup_model(tmp_path / "m")
    _rewrite(tmp_path / "m", _as_resource_gather)
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    i = tf.constant([3, 1, 1], tf.int32)
    out = loaded.signatures["serving_default"](i=i)
    np.testing.assert_array_equal(next(iter(out.values())).numpy(), TABLE[[3, 1, 1]])
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(loaded.f(i) * 2.0)
    (grad,) = tape.gradient(total, [loaded.table])
    expected = np.zeros_like(TABLE)
    np.add.at(expected, [3, 1, 1], 2.0)
    np.testing.assert_array_equal(tf.convert_to_tensor(grad).numpy(), expected)


def test_resource_gather_declaring_another_dtype_is_data_loss(tmp_path):
    _lookup_model(tmp_path / "m")
    _rewrite(tmp_path / "m", lambda meta: _as_resource_gather(meta, dtype=2))  # DT_DOUBLE for a float32 table
    with pytest.raises(tf.errors.DataLossError, match="reads a variable of dtype float32 as another dtype"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_children_named_as_keras_2_names_layers_load_under_those_names(tmp_path):
    _lookup_model(tmp_path / "m")

    def rename(meta):
        root = meta.object_graph_def.nodes[0]
        table = next(c.node_id for c in root.children if c.local_name == "table")
        root.children.add(node_id=table, local_name="layer_with_weights-0")
        root.children.add(node_id=table, local_name="layer-0")
    _rewrite(tmp_path / "m", rename)
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert getattr(loaded, "layer-0") is loaded.table
    assert getattr(loaded, "layer_with_weights-0") is loaded.table
