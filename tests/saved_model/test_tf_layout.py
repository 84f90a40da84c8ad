"""tf.saved_model.save writes TensorFlow's layout; TensorFlow's tf.saved_model constants, SaveOptions,
contains_saved_model and Asset (values and messages recorded from TensorFlow 2.21)."""
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.tensor_bundle import BundleReader


class _Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0], name="v")
        self.layer = tf.Module()
        self.layer.w = tf.Variable(3.0, name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def f(self, x):
        return {"y": x * self.v + self.layer.w}


def test_the_constants_are_tensorflows():
    sm = tf.saved_model
    assert (sm.DEFAULT_SERVING_SIGNATURE_DEF_KEY, sm.SERVING, sm.TRAINING, sm.GPU, sm.TPU) == \
        ("serving_default", "serve", "train", "gpu", "tpu")
    assert (sm.PREDICT_METHOD_NAME, sm.CLASSIFY_METHOD_NAME, sm.REGRESS_METHOD_NAME) == \
        ("tensorflow/serving/predict", "tensorflow/serving/classify", "tensorflow/serving/regress")
    assert (sm.PREDICT_INPUTS, sm.PREDICT_OUTPUTS, sm.CLASSIFY_OUTPUT_CLASSES, sm.CLASSIFY_OUTPUT_SCORES) == \
        ("inputs", "outputs", "classes", "scores")
    assert (sm.SAVED_MODEL_FILENAME_PB, sm.SAVED_MODEL_FILENAME_PBTXT, sm.VARIABLES_DIRECTORY, sm.VARIABLES_FILENAME,
            sm.ASSETS_DIRECTORY, sm.ASSETS_KEY, sm.SAVED_MODEL_SCHEMA_VERSION) == \
        ("saved_model.pb", "saved_model.pbtxt", "variables", "variables", "assets", "saved_model_assets", 1)
    assert (sm.DEBUG_DIRECTORY, sm.DEBUG_INFO_FILENAME_PB) == ("debug", "saved_model_debug_info.pb")


def test_save_options_are_checked_as_tensorflow_checks_them(tmp_path):
    assert tf.saved_model.SaveOptions().function_aliases == {}
    with pytest.raises(ValueError, match="Received invalid VariablePolicy value: bad."):
        tf.saved_model.SaveOptions(experimental_variable_policy="bad")
    with pytest.raises(TypeError, match="`namespace_whitelist` must be a list of strings. Got: Foo"):
        tf.saved_model.SaveOptions(namespace_whitelist="Foo")
    with pytest.raises(AttributeError, match="'int' object has no attribute 'namespace_whitelist'"):
        tf.saved_model.save(tf.Module(), str(tmp_path / "m"), options=3)
    m = _Module()
    tf.saved_model.save(m, str(tmp_path / "m"), options=tf.saved_model.SaveOptions(namespace_whitelist=["Foo"]))
    assert tf.saved_model.contains_saved_model(str(tmp_path / "m"))


def test_the_layout_and_the_saved_model_message(tmp_path):
    from eagerflow._src.formats.protos import saved_model_pb2, trackable_object_graph_pb2
    m = _Module()
    directory = tmp_path / "m"
    tf.saved_model.save(m, str(directory), signatures={"serving_default": m.f})
    assert {"saved_model.pb", "variables", "assets", "fingerprint.pb"} <= set(os.listdir(directory))
    assert tf.saved_model.contains_saved_model(directory) and not tf.saved_model.contains_saved_model(tmp_path)
    message = saved_model_pb2.SavedModel.FromString((directory / "saved_model.pb").read_bytes())
    meta, = message.meta_graphs
    assert list(meta.meta_info_def.tags) == ["serve"]
    sig = meta.signature_def["serving_default"]
    assert sig.method_name == "tensorflow/serving/predict"
    assert (sig.inputs["x"].dtype, [d.size for d in sig.inputs["x"].tensor_shape.dim]) == (1, [-1, 2])
    assert sig.outputs["y"].name.endswith(":0")
    nodes = meta.object_graph_def.nodes
    root_children = {c.local_name: c.node_id for c in nodes[0].children}
    assert {"v", "layer", "f", "signatures"} <= set(root_children)
    assert nodes[root_children["v"]].variable.name == "v"
    assert nodes[root_children["signatures"]].user_object.identifier == "signature_map"
    assert meta.saver_def.restore_op_name and meta.saver_def.version == 2
    reader = BundleReader(str(directory / "variables" / "variables"))
    assert set(reader.keys()) == {"_CHECKPOINTABLE_OBJECT_GRAPH", "v/.ATTRIBUTES/VARIABLE_VALUE",
                                  "layer/w/.ATTRIBUTES/VARIABLE_VALUE"}
    np.testing.assert_array_equal(reader.read("v/.ATTRIBUTES/VARIABLE_VALUE"), [1.0, 2.0])
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
        reader.read("_CHECKPOINTABLE_OBJECT_GRAPH").item())
    assert len(graph.nodes) == len(nodes)  # the same nodes, so TensorFlow matches values to variables
    attribute, = graph.nodes[root_children["v"]].attributes
    assert (attribute.name, attribute.checkpoint_key) == ("VARIABLE_VALUE", "v/.ATTRIBUTES/VARIABLE_VALUE")


def test_an_asset_is_copied_into_assets(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\nb\n")
    m = tf.Module()
    m.vocab = tf.saved_model.Asset(str(vocab))
    assert m.vocab.asset_path.numpy() == str(vocab).encode()
    tf.saved_model.save(m, str(tmp_path / "m"))
    assert (tmp_path / "m" / "assets" / "vocab.txt").read_text() == "a\nb\n"
    with pytest.raises(TypeError, match="Cannot convert 3 to EagerTensor of dtype string"):
        tf.saved_model.Asset(3)


def test_a_missing_model_is_tensorflows_oserror(tmp_path):
    with pytest.raises(OSError, match=r"SavedModel file does not exist at: .*/nothere/\{saved_model.pbtxt\|"
                                      r"saved_model.pb\}"):
        tf.saved_model.load(str(tmp_path / "nothere"))
    assert tf.saved_model.contains_saved_model(str(tmp_path / "nothere")) is False


def test_a_cond_gradient_is_saved_in_tensorflows_layout_without_a_warning(tmp_path, caplog):
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def grad(x):  # the gradient of a cond: the If's branches also return an Optional of what it reads
        with tf.GradientTape() as tape:
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x * m.v), lambda: x * m.v)
            loss = tf.reduce_sum(y)
        return tape.gradient(loss, m.v)

    m.grad = grad
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert "eagerflow's format only" not in caplog.text
    for x in ([1.0, 1.0], [-1.0, -1.0]):
        np.testing.assert_allclose(tf.saved_model.load(str(tmp_path / "m")).grad(tf.constant(x)),
                                   grad(tf.constant(x)))
    np.testing.assert_allclose(grad(tf.constant([1.0, 1.0])), np.cos([1.0, 2.0]) * [1.0, 1.0], rtol=1e-6)
    assert (tmp_path / "m" / "saved_model.pb").exists()
    assert not (tmp_path / "m" / "saved_model.json").exists()


def test_a_second_order_cond_gradient_is_saved_in_tensorflows_layout(tmp_path, caplog):
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def grad2(x):  # a cond's gradient differentiated again: the kept Optional's gradient is an Optional
        with tf.GradientTape() as outer:
            with tf.GradientTape() as tape:
                y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x * m.v), lambda: x * m.v)
                loss = tf.reduce_sum(y)
            g = tape.gradient(loss, m.v)
            norm = tf.reduce_sum(g * g)
        return outer.gradient(norm, m.v)

    m.grad2 = grad2
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert "eagerflow's format only" not in caplog.text
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    # g = x cos(x v) (then) or x (else); d/dv sum(g^2) = -2 x^3 cos(x v) sin(x v) (then) or 0 (else)
    for x in ([1.0, 0.5], [-1.0, -0.5]):
        x64, v = np.array(x), np.array([1.0, 2.0])
        expected = -2 * x64 ** 3 * np.cos(x64 * v) * np.sin(x64 * v) if sum(x) > 0 else np.zeros(2)
        np.testing.assert_allclose(loaded.grad2(tf.constant(x)), expected, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(grad2(tf.constant(x)), expected, rtol=1e-5, atol=1e-7)
    assert not (tmp_path / "m" / "saved_model.json").exists()


def test_a_graph_tensorflow_cannot_express_is_refused_naming_the_op(tmp_path):
    # New saves write TensorFlow's format only (issue 26): no fallback to eagerflow's earlier format.
    m = tf.Module()
    m.v = tf.Variable([[0.5, -0.2], [0.1, 0.3]])

    @tf.function(input_signature=[tf.TensorSpec([2, 2], tf.float32)])
    def grad3(x):  # a while loop's gradient differentiated twice more: not stated as TensorFlow's ops yet
        with tf.GradientTape() as third:
            with tf.GradientTape() as outer:
                with tf.GradientTape() as tape:
                    h = x
                    for _ in tf.range(2):
                        h = tf.tanh(tf.matmul(h, m.v))
                    loss = tf.reduce_sum(h)
                g = tape.gradient(loss, m.v)
                norm = tf.reduce_sum(g * g)
            g2 = outer.gradient(norm, m.v)
            norm2 = tf.reduce_sum(g2 * g2)
        return third.gradient(norm2, m.v)

    m.grad3 = grad3
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "keep.txt").write_text("an earlier model's directory")
    with pytest.raises(ValueError, match=r"op '.*' has type LoopHistory\w+, which does not export: .*a third "
                                         r"order does not export"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["keep.txt"]  # nothing written, nothing lost
