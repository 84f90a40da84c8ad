"""Classify/regress signatures that parse serialized tf.train.Example, across real TensorFlow 2.21:
eagerflow's SavedModel runs in TensorFlow with eagerflow's outputs, and TensorFlow's runs in eagerflow."""
import numpy as np

import eagerflow as tf
from eagerflow._src.formats.protos import example_pb2

_EXAMPLES = """
def ex(x, k=None, tags=()):
    f = {"x": tf.train.Feature(float_list=tf.train.FloatList(value=x))}
    if k is not None:
        f["k"] = tf.train.Feature(int64_list=tf.train.Int64List(value=[k]))
    if tags:
        f["tags"] = tf.train.Feature(bytes_list=tf.train.BytesList(value=tags))
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()
batch = tf.constant([ex([1.0, 2.0], 3, [b"a", b"b"]), ex([0.5, -1.0]), ex([-2.0, 4.0], 1, [b"c"])])
"""


def _batch():
    out = []
    for x, k, tags in (([1.0, 2.0], 3, [b"a", b"b"]), ([0.5, -1.0], None, []), ([-2.0, 4.0], 1, [b"c"])):
        e = example_pb2.Example()
        e.features.feature["x"].float_list.value.extend(x)
        if k is not None:
            e.features.feature["k"].int64_list.value.append(k)
        if tags:
            e.features.feature["tags"].bytes_list.value.extend(tags)
        out.append(e.SerializeToString())
    return tf.constant(out)


class _Served(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, -0.5], [0.25, 2.0]])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="inputs")])
    def classify(self, inputs):
        f = tf.io.parse_example(inputs, {"x": tf.io.FixedLenFeature([2], tf.float32)})
        scores = tf.nn.softmax(tf.matmul(f["x"], self.w), axis=1)
        return {"classes": tf.broadcast_to(tf.constant([["neg", "pos"]]), tf.shape(scores)), "scores": scores}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="inputs")])
    def regress(self, inputs):
        f = tf.io.parse_example(inputs, {"x": tf.io.FixedLenFeature([2], tf.float32),
                                         "k": tf.io.FixedLenFeature([1], tf.int64, default_value=[7]),
                                         "tags": tf.io.VarLenFeature(tf.string)})
        return {"outputs": tf.reduce_sum(f["x"], axis=1) * tf.cast(f["k"][:, 0], tf.float32),
                "tags": f["tags"].values, "tag_indices": f["tags"].indices}


def _plain(outputs):
    return {k: (v.numpy().astype(object) if v.dtype == tf.string else v.numpy()).tolist() for k, v in outputs.items()}


def test_tensorflow_runs_eagerflows_classify_and_regress_signatures(tmp_path, run_tf):
    m = _Served()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"classify": m.classify, "regress": m.regress})
    assert not (tmp_path / "m" / "saved_model.json").exists()
    expected = {"classify": _plain(m.classify(_batch())), "regress": _plain(m.regress(_batch()))}
    answer = run_tf("""
        import json
        import tensorflow as tf
    """ + _EXAMPLES.replace("\n", "\n        ") + """
        m = tf.saved_model.load("m")
        plain = lambda out: {k: [[s.decode() if isinstance(s, bytes) else s for s in row] if isinstance(row, list)
                                 else (row.decode() if isinstance(row, bytes) else row) for row in v.numpy().tolist()]
                             for k, v in out.items()}
        print(json.dumps({"classify": plain(m.signatures["classify"](inputs=batch)),
                          "regress": plain(m.signatures["regress"](inputs=batch)),
                          "function": plain(m.regress(batch))}))
    """)
    np.testing.assert_allclose(answer["classify"]["scores"], expected["classify"]["scores"], rtol=1e-5)
    assert answer["classify"]["classes"] == [["neg", "pos"]] * 3
    np.testing.assert_allclose(answer["regress"]["outputs"], [9.0, -3.5, 2.0])
    np.testing.assert_allclose(expected["regress"]["outputs"], [9.0, -3.5, 2.0])
    for got in (answer["regress"], answer["function"]):
        assert got["tags"] == ["a", "b", "c"] == [t.decode() for t in expected["regress"]["tags"]]
        assert got["tag_indices"] == [[0, 0], [0, 1], [2, 0]] == expected["regress"]["tag_indices"]


def test_eagerflow_runs_tensorflows_parse_example_signature(tmp_path, run_tf):
    answer = run_tf("""
        import json
        import tensorflow as tf
    """ + _EXAMPLES.replace("\n", "\n        ") + """
        class Served(tf.Module):
            @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="inputs")])
            def regress(self, inputs):
                f = tf.io.parse_example(inputs, {"x": tf.io.FixedLenFeature([2], tf.float32),
                                                 "k": tf.io.FixedLenFeature([1], tf.int64, default_value=[7]),
                                                 "tags": tf.io.VarLenFeature(tf.string)})
                return {"outputs": tf.reduce_sum(f["x"], axis=1) * tf.cast(f["k"][:, 0], tf.float32),
                        "tags": f["tags"].values, "tag_indices": f["tags"].indices, "shape": f["tags"].dense_shape}
        m = Served()
        tf.saved_model.save(m, "tf_m", signatures={"regress": m.regress})
        out = m.regress(batch)
        print(json.dumps({"outputs": out["outputs"].numpy().tolist(), "tags": [t.decode() for t in out["tags"].numpy()],
                          "tag_indices": out["tag_indices"].numpy().tolist(), "shape": out["shape"].numpy().tolist()}))
    """)
    loaded = tf.saved_model.load(str(tmp_path / "tf_m"))
    for out in (loaded.signatures["regress"](inputs=_batch()), loaded.regress(_batch())):
        np.testing.assert_allclose(out["outputs"].numpy(), answer["outputs"], rtol=1e-6)
        assert [t.decode() for t in out["tags"].numpy()] == answer["tags"]
        assert out["tag_indices"].numpy().tolist() == answer["tag_indices"]
        assert out["shape"].numpy().tolist() == answer["shape"] == [3, 2]
