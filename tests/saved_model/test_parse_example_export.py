"""Signatures that parse serialized tf.train.Example (classify/regress style) saved in TensorFlow's
format: ParseExampleV2 written as TensorFlow's op (keys as string Const inputs, TensorFlow's
attributes and output order) and read back. The node layout expected is the one TensorFlow 2.21
writes for `tf.io.parse_example` (sparse outputs first: indices, values, shapes; then dense)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import example_pb2

FLOAT, INT64, STRING = 1, 9, 7


def _example(x, k=None, tags=()):
    e = example_pb2.Example()
    e.features.feature["x"].float_list.value.extend(x)
    if k is not None:
        e.features.feature["k"].int64_list.value.append(k)
    if tags:
        e.features.feature["tags"].bytes_list.value.extend(tags)
    return e.SerializeToString()


class _Served(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="inputs")])
    def classify(self, inputs):
        f = tf.io.parse_example(inputs, {"x": tf.io.FixedLenFeature([2], tf.float32)})
        scores = tf.nn.softmax(f["x"], axis=1)
        return {"classes": tf.broadcast_to(tf.constant([["neg", "pos"]]), tf.shape(scores)), "scores": scores}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="inputs")])
    def regress(self, inputs):
        f = tf.io.parse_example(inputs, {"x": tf.io.FixedLenFeature([2], tf.float32),
                                         "k": tf.io.FixedLenFeature([1], tf.int64, default_value=[7]),
                                         "tags": tf.io.VarLenFeature(tf.string)})
        k = tf.cast(f["k"][:, 0], tf.float32)
        return {"outputs": tf.reduce_sum(f["x"], axis=1) * k, "tags": f["tags"].values,
                "tag_indices": f["tags"].indices, "tag_shape": f["tags"].dense_shape}


def _saved_model(path):
    from eagerflow._src.formats.protos import saved_model_pb2
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((path / "saved_model.pb").read_bytes())
    return message


def test_classify_and_regress_signatures_save_in_tensorflows_format_without_a_warning(tmp_path, caplog):
    m = _Served()
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"), signatures={"classify": m.classify, "regress": m.regress})
    assert "eagerflow's format only" not in caplog.text
    assert (tmp_path / "m" / "saved_model.pb").exists() and not (tmp_path / "m" / "saved_model.json").exists()
    back = tf.saved_model.load(str(tmp_path / "m"))
    batch = tf.constant([_example([1.0, 2.0], 3, [b"a", b"b"]), _example([0.5, -1.0])])
    scores = back.signatures["classify"](inputs=batch)["scores"].numpy()
    x = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
    np.testing.assert_allclose(scores, np.exp(x) / np.exp(x).sum(1, keepdims=True), rtol=1e-6)
    out = back.signatures["regress"](inputs=batch)
    np.testing.assert_allclose(out["outputs"].numpy(), [9.0, -3.5])  # k = 3, then the default 7
    assert out["tags"].numpy().tolist() == [b"a", b"b"]
    assert out["tag_indices"].numpy().tolist() == [[0, 0], [0, 1]]
    assert out["tag_shape"].numpy().tolist() == [2, 2]


def test_the_node_has_tensorflows_inputs_attributes_and_output_names(tmp_path):
    m = _Served()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"regress": m.regress})
    library = _saved_model(tmp_path / "m").meta_graphs[0].graph_def.library
    fdef = next(f for f in library.function  # regress's (the module's classify is saved too)
                if any(n.op == "ParseExampleV2" and len(n.input) == 7 for n in f.node_def))
    nodes = {n.name: n for n in fdef.node_def}
    parse = next(n for n in fdef.node_def if n.op == "ParseExampleV2")
    # serialized, names, sparse_keys, dense_keys, ragged_keys, then the 2 dense defaults
    consts = [nodes[r.split(":")[0]] for r in parse.input[1:5]]
    assert [c.op for c in consts] == ["Const"] * 4
    assert [list(c.attr["value"].tensor.string_val) for c in consts] == [[], [b"tags"], [b"k", b"x"], []]
    assert list(parse.attr["Tdense"].list.type) == [INT64, FLOAT]
    assert [[d.size for d in s.dim] for s in parse.attr["dense_shapes"].list.shape] == [[1], [2]]
    assert parse.attr["num_sparse"].i == 1 and list(parse.attr["sparse_types"].list.type) == [STRING]
    assert list(parse.attr["ragged_value_types"].list.type) == [] == list(parse.attr["ragged_split_types"].list.type)
    used = {r.split(":", 1)[1] for n in fdef.node_def for r in n.input if r.startswith(parse.name + ":")}
    assert used <= {"sparse_indices:0", "sparse_values:0", "sparse_shapes:0", "dense_values:0", "dense_values:1"}
    assert {"sparse_values:0", "dense_values:0", "dense_values:1"} <= used


def test_a_tensorflow_node_with_ragged_keys_is_refused_at_load_time(tmp_path):
    m = _Served()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"classify": m.classify})
    message = _saved_model(tmp_path / "m")
    fdef = next(f for f in message.meta_graphs[0].graph_def.library.function
                if any(n.op == "ParseExampleV2" for n in f.node_def))
    parse = next(n for n in fdef.node_def if n.op == "ParseExampleV2")
    ragged = next(n for n in fdef.node_def if n.name == parse.input[4].split(":")[0])
    ragged.attr["value"].tensor.string_val.append(b"r")
    ragged.attr["value"].tensor.tensor_shape.dim[0].size = 1
    (tmp_path / "m" / "saved_model.pb").write_bytes(message.SerializeToString())
    with pytest.raises(tf.errors.DataLossError, match="ragged features are not supported"):
        tf.saved_model.load(str(tmp_path / "m"))
