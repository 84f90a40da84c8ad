"""tf.train's checkpoints in TensorFlow's format, against TensorFlow 2.21's recorded answers (keys, messages,
the state file's text, the object graph) and a checkpoint TensorFlow wrote (tests/formats/tf_recorded.py)."""
import base64
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.formats.tf_recorded import TF_CHECKPOINT_DATA, TF_CHECKPOINT_INDEX

KEY = "{}/.ATTRIBUTES/VARIABLE_VALUE".format


class Net(tf.Module):
    def __init__(self, scale=1.0):
        super().__init__()
        self.v = tf.Variable(2.0 * scale)
        self.sub = tf.Module()
        self.sub.w = tf.Variable([1.0 * scale, 2.0])
        self.lst = [tf.Variable(1), tf.Variable(2)]
        self.d = {"a/b": tf.Variable(3.0), "c.d": tf.Variable(4.0)}
        self.alias = self.v


def test_keys_escape_names_and_a_shared_variable_is_saved_once(tmp_path):
    ckpt = tf.train.Checkpoint(model=Net(), step=tf.Variable(0, dtype=tf.int64))
    path = ckpt.save(str(tmp_path / "ckpt"))
    # TensorFlow 2.21's tf.train.list_variables for the same objects
    assert tf.train.list_variables(path) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []), (KEY("model/d/a.Sb"), []), (KEY("model/d/c..d"), []),
        (KEY("model/lst/0"), []), (KEY("model/lst/1"), []), (KEY("model/sub/w"), [2]), (KEY("model/v"), []),
        (KEY("save_counter"), []), (KEY("step"), [])]
    assert (tmp_path / "checkpoint").read_text() == 'model_checkpoint_path: "ckpt-1"\nall_model_checkpoint_paths: "ckpt-1"\n'
    from eagerflow._src.formats.protos import trackable_object_graph_pb2
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
        tf.train.load_checkpoint(path).get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    # TensorFlow's graph: root -> model, step, save_counter; model -> v, sub, lst, d, alias (alias is v's node)
    assert [(c.local_name, c.node_id) for c in graph.nodes[0].children] == [("model", 1), ("step", 2),
                                                                          ("save_counter", 3)]
    assert [(c.local_name, c.node_id) for c in graph.nodes[1].children] == [
        ("v", 4), ("sub", 5), ("lst", 6), ("d", 7), ("alias", 4)]
    assert str(graph.nodes[3]) == ('attributes {\n  name: "VARIABLE_VALUE"\n  full_name: "save_counter"\n'
                                   '  checkpoint_key: "save_counter/.ATTRIBUTES/VARIABLE_VALUE"\n}\n'
                                   'has_checkpoint_values {\n  value: true\n}\n')


def test_a_checkpoint_tensorflow_wrote_restores(tmp_path):
    (tmp_path / "tf.index").write_bytes(base64.b64decode(TF_CHECKPOINT_INDEX))
    (tmp_path / "tf.data-00000-of-00001").write_bytes(base64.b64decode(TF_CHECKPOINT_DATA))
    w, st, i = tf.Variable(np.zeros((2, 2), np.float32)), tf.Variable([b"", b"", b""]), tf.Variable(np.int64(0))
    h, b = tf.Variable(tf.constant([0.0, 0.0], tf.bfloat16)), tf.Variable([False, True])
    tf.train.Checkpoint(w=w, st=st, i=i, h=h, b=b).read(str(tmp_path / "tf")).assert_consumed()
    assert w.numpy().tolist() == [[0.0, 0.25], [0.5, 0.75]] and int(i.numpy()) == -7
    assert st.numpy().tolist() == [b"ab", b"", "é".encode()] and b.numpy().tolist() == [True, False]
    assert np.asarray(h.numpy(), np.float32).tolist() == [2.5, -1.0] and h.dtype == tf.bfloat16


def test_reader_functions_and_their_errors(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable(1.5), w=tf.Variable([[1, 2]], dtype=tf.int64)).save(str(tmp_path / "c"))
    reader = tf.train.load_checkpoint(str(tmp_path))
    assert reader.has_tensor(KEY("v")) and not reader.has_tensor("v")
    assert reader.get_variable_to_shape_map() == {"_CHECKPOINTABLE_OBJECT_GRAPH": [], KEY("save_counter"): [],
                                                  KEY("v"): [], KEY("w"): [1, 2]}
    assert reader.get_variable_to_dtype_map()[KEY("w")] == tf.int64
    assert reader.get_variable_to_dtype_map()["_CHECKPOINTABLE_OBJECT_GRAPH"] == tf.string
    assert tf.train.load_variable(path, KEY("v") + ":0") == 1.5  # TensorFlow drops the ":0"
    assert tf.train.load_variable(path, KEY("w")).tolist() == [[1, 2]]
    with pytest.raises(tf.errors.NotFoundError, match="^Key nope not found in checkpoint$"):
        reader.get_tensor("nope")
    with pytest.raises(tf.errors.NotFoundError, match="^Key q not found in checkpoint$"):
        tf.train.load_variable(str(tmp_path), "q")
    missing = str(tmp_path / "nothere")
    with pytest.raises(tf.errors.NotFoundError, match=f"^Unsuccessful TensorSliceReader constructor: Failed to find "
                                                      f"any matching files for {missing}$"):
        tf.train.list_variables(missing)
    os.makedirs(tmp_path / "empty")
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints in given directory"):
        tf.train.list_variables(str(tmp_path / "empty"))
    assert tf.train.get_checkpoint_state(missing) is None and tf.train.latest_checkpoint(missing) is None


def test_status_assertions_say_what_tensorflow_says(tmp_path):
    path = tf.train.Checkpoint(model=Net(), v=tf.Variable(1.0)).write(str(tmp_path / "c"))

    class Other(tf.Module):
        def __init__(self):
            super().__init__()
            self.x = tf.Variable(5.0)

    status = tf.train.Checkpoint(model=Other()).read(path)
    message = ("Found 1 Python objects that were not bound to checkpointed values, likely due to changes in the "
               "Python program. Showing 1 of 1 unmatched objects: [<tf.Variable 'Variable:0' shape=() "
               "dtype=float32, numpy=5.0>]")
    for check in (status.assert_consumed, status.assert_existing_objects_matched):
        with pytest.raises(AssertionError) as caught:
            check()
        assert str(caught.value) == message
    with pytest.raises(AssertionError, match=r"^Nothing except the root object matched a checkpointed value\. "
                                             r"Typically this means that the checkpoint does not match the Python "
                                             r"program\. The following objects have no matching checkpointed value: "
                                             r"\[<tf\.Variable 'Variable:0' shape=\(\) dtype=float32, numpy=5\.0>\]$"):
        status.assert_nontrivial_match()
    status = tf.train.Checkpoint(v=tf.Variable(0.0)).read(path)
    status.assert_existing_objects_matched().assert_nontrivial_match()
    with pytest.raises(AssertionError) as caught:
        status.assert_consumed()
    assert str(caught.value).startswith("Unresolved object in checkpoint (root).model.v: attributes {\n  name: "
                                        "\"VARIABLE_VALUE\"\n  full_name: \"Variable\"\n  checkpoint_key: "
                                        "\"model/v/.ATTRIBUTES/VARIABLE_VALUE\"\n}\nhas_checkpoint_values {\n"
                                        "  value: true\n}\n")
    assert status.expect_partial() is status
    # restore() makes save_counter, which a written (not saved) checkpoint does not hold
    with pytest.raises(AssertionError, match=r"<tf\.Variable 'save_counter:0' shape=\(\) dtype=int64, numpy=0>"):
        tf.train.Checkpoint(v=tf.Variable(0.0)).restore(path).expect_partial().assert_existing_objects_matched()
    nothing = tf.train.Checkpoint(v=tf.Variable(0.0)).restore(None)
    assert type(nothing).__name__ == "InitializationOnlyStatus"
    for check in (nothing.assert_consumed, nothing.assert_existing_objects_matched, nothing.assert_nontrivial_match):
        with pytest.raises(AssertionError, match=r"^No checkpoint specified \(save_path=None\); nothing is being "
                                                 r"restored\.$"):
            check()


def test_another_dtype_is_tensorflows_invalid_argument_and_nothing_changes(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable(1.0), w=tf.Variable(2.0)).write(str(tmp_path / "c"))
    w = tf.Variable(9.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"tensor_name = v/\.ATTRIBUTES/VARIABLE_VALUE; "
                                                             r"expected dtype int32 does not equal original dtype "
                                                             r"float"):
        tf.train.Checkpoint(v=tf.Variable(1), w=w).read(path)
    assert float(w.numpy()) == 9.0


def test_root_objects_children_sit_at_the_top_and_later_attributes_are_not_saved(tmp_path):
    ckpt = tf.train.Checkpoint(root=Net(), step=tf.Variable(1))
    ckpt.extra = tf.Variable([1.0])
    path = ckpt.write(str(tmp_path / "r"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert KEY("v") in keys and KEY("step") in keys and KEY("sub/w") in keys and KEY("extra") not in keys
    with pytest.raises(ValueError, match=r"^`Checkpoint` was expecting x to be a trackable object"):
        tf.train.Checkpoint(x=3)


# Keras 3 on TensorFlow 2.21: the keys `tf.train.Checkpoint(l=layer).write()` gives each built layer.
KERAS_LAYER_KEYS = [
    ("Dense", lambda L: L.Dense(2), (3,), ["_kernel", "bias"]),
    ("Conv1D", lambda L: L.Conv1D(2, 3), (5, 2), ["_kernel", "bias"]),
    ("Conv2D", lambda L: L.Conv2D(2, 3), (5, 5, 1), ["_kernel", "bias"]),
    ("Conv2DTranspose", lambda L: L.Conv2DTranspose(2, 3), (5, 5, 1), ["bias", "kernel"]),
    ("DepthwiseConv2D", lambda L: L.DepthwiseConv2D(3), (5, 5, 2), ["bias", "kernel"]),
    ("SeparableConv2D", lambda L: L.SeparableConv2D(2, 3), (5, 5, 2), ["bias", "depthwise_kernel",
                                                                       "pointwise_kernel"]),
    ("BatchNormalization", lambda L: L.BatchNormalization(), (3,), ["beta", "gamma", "moving_mean",
                                                                    "moving_variance"]),
    ("LayerNormalization", lambda L: L.LayerNormalization(), (3,), ["beta", "gamma"]),
    ("LSTM", lambda L: L.LSTM(2), (4, 3), ["cell/bias", "cell/kernel", "cell/recurrent_kernel"]),
    ("GRU", lambda L: L.GRU(2), (4, 3), ["cell/bias", "cell/kernel", "cell/recurrent_kernel"]),
    ("SimpleRNN", lambda L: L.SimpleRNN(2), (4, 3), ["cell/bias", "cell/kernel", "cell/recurrent_kernel"]),
    ("Bidirectional", lambda L: L.Bidirectional(L.LSTM(2)), (4, 3), [
        "backward_layer/cell/bias", "backward_layer/cell/kernel", "backward_layer/cell/recurrent_kernel",
        "forward_layer/cell/bias", "forward_layer/cell/kernel", "forward_layer/cell/recurrent_kernel"]),
    ("EinsumDense", lambda L: L.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c"), (3,), ["_kernel", "bias"]),
    ("PReLU", lambda L: L.PReLU(), (3,), ["alpha"]),
    ("GroupNormalization", lambda L: L.GroupNormalization(1), (4,), ["beta", "gamma"]),
    ("TimeDistributed", lambda L: L.TimeDistributed(L.Dense(2)), (4, 3), ["layer/_kernel", "layer/bias"]),
    ("Normalization", lambda L: L.Normalization(), (3,), ["adapt_mean", "adapt_variance", "count"]),
]


@pytest.mark.parametrize("name,make,shape,keys", KERAS_LAYER_KEYS, ids=[row[0] for row in KERAS_LAYER_KEYS])
def test_keras_layers_are_keyed_as_keras_3_on_tensorflow_keys_them(tmp_path, name, make, shape, keys):
    layer = make(keras.layers)
    layer(np.zeros((1,) + shape, np.float32))
    path = tf.train.Checkpoint(l=layer).write(str(tmp_path / "l"))
    assert [k for k, _ in tf.train.list_variables(path)] == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + [
        KEY(f"l/{k}") for k in keys]


def test_embedding_and_attention_keys():
    emb = keras.layers.Embedding(5, 2)
    emb(np.zeros((1, 3), np.int32))
    attention = keras.layers.MultiHeadAttention(2, 2)
    q = np.zeros((1, 2, 3), np.float32)
    attention(q, q)
    from eagerflow.train import object_graph
    _, values = object_graph.build(tf.train.Checkpoint(e=emb, m=attention))
    assert sorted(values) == [KEY(k) for k in (
        "e/_embeddings", "m/_key_dense/_kernel", "m/_key_dense/bias", "m/_output_dense/_kernel",
        "m/_output_dense/bias", "m/_query_dense/_kernel", "m/_query_dense/bias", "m/_value_dense/_kernel",
        "m/_value_dense/bias")]


def test_keras_model_and_optimizer_keys_and_deferred_slots(tmp_path):
    def make():
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.BatchNormalization()])
        model.compile(keras.optimizers.SGD(0.1, momentum=0.9), "mse")
        return model
    model = make()
    x, y = np.random.default_rng(0).random((4, 3), np.float32), np.ones((4, 4), np.float32)
    model.fit(x, y, epochs=1, verbose=0)
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "m"))
    # Keras 3 on TensorFlow: the optimizer's path is shorter than the layers' for trainable weights
    assert [k for k, _ in tf.train.list_variables(path)] == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + [KEY(k) for k in (
        "model/_functional/_operations/2/moving_mean", "model/_functional/_operations/2/moving_variance",
        "model/optimizer/_iterations", "model/optimizer/_learning_rate", "model/optimizer/_trainable_variables/0",
        "model/optimizer/_trainable_variables/1", "model/optimizer/_trainable_variables/2",
        "model/optimizer/_trainable_variables/3", "model/optimizer/_variables/2", "model/optimizer/_variables/3",
        "model/optimizer/_variables/4", "model/optimizer/_variables/5")]
    fresh = make()
    status = tf.train.Checkpoint(model=fresh).read(path)
    for ours, theirs in zip(fresh.weights, model.weights):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert int(fresh.optimizer.iterations.numpy()) == 1
    fresh.optimizer.build(fresh.trainable_variables)  # the momentums arrive when the optimizer builds
    for ours, theirs in zip(fresh.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    status.assert_consumed()


def test_a_model_built_after_restore_takes_its_values(tmp_path):
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(1)])
    model(np.ones((1, 2), np.float32))
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "m"))
    later = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(1)])
    status = tf.train.Checkpoint(model=later).read(path)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()

    @tf.function
    def run(x):  # the weights are made while a function traces: their values are still restored eagerly
        return later(x)
    run(tf.ones((1, 2)))
    for ours, theirs in zip(later.weights, model.weights):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    status.assert_consumed()


def test_a_restoration_waiting_for_its_objects_keeps_none_of_them_alive(tmp_path):
    import gc
    import weakref
    model = keras.Sequential([keras.layers.Dense(3)])
    model(np.ones((1, 2), np.float32))
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "m"))
    later = keras.Sequential([keras.layers.Dense(3)])
    status = tf.train.Checkpoint(model=later).read(path)
    dropped = weakref.ref(later)
    layer = weakref.ref(later.layers[0])
    del later, status
    gc.collect()
    assert dropped() is None and layer() is None
    from eagerflow._src.state import deferred_restore
    assert all(entry[0]() is not None for entry in deferred_restore._WAITING.values())


def test_checkpoint_options_run_their_write_callbacks(tmp_path):
    written = []
    options = tf.train.CheckpointOptions(experimental_write_callbacks=[written.append, lambda: written.append("-")])
    assert options.experimental_io_device is None and options.enable_async is False
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    path = ckpt.save(str(tmp_path / "c"), options=options)
    assert written == [path, "-"]
    with pytest.raises(AttributeError, match="'int' object has no attribute 'experimental_enable_async_checkpoint'"):
        ckpt.write(str(tmp_path / "d"), options=3)
    assert not (tmp_path / "d.index").exists()


def test_only_objects_that_can_hold_state_become_nodes(tmp_path):
    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.numpy_module = np
            self.constant = tf.constant([1.0])
            self.v = tf.Variable(1.0)
            self.data = tf.data.Dataset.range(3)
            self.function = len

    from eagerflow.train import object_graph
    graph, values = object_graph.build(tf.train.Checkpoint(m=Holder()))
    assert list(values) == [KEY("m/v")]
    assert [c.local_name for c in graph.nodes[1].children] == ["v"] and len(graph.nodes) == 3


def test_a_loss_scale_optimizer_is_keyed_as_keras_3_keys_it(tmp_path):
    optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1, momentum=0.5))
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(optimizer, "mse")
    model.fit(np.ones((2, 3), np.float32), np.ones((2, 2), np.float32), verbose=0)
    path = tf.train.Checkpoint(optimizer=optimizer).write(str(tmp_path / "o"))
    # TensorFlow 2.21 with Keras 3.15, the same program
    assert [k for k, _ in tf.train.list_variables(path)] == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + [KEY(k) for k in (
        "optimizer/_iterations", "optimizer/_learning_rate", "optimizer/_trainable_variables/0",
        "optimizer/_trainable_variables/1", "optimizer/dynamic_scale", "optimizer/inner_optimizer/_iterations",
        "optimizer/inner_optimizer/_learning_rate", "optimizer/inner_optimizer/_variables/2",
        "optimizer/inner_optimizer/_variables/3", "optimizer/step_counter")]
    fresh = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1, momentum=0.5))
    again = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    again.compile(fresh, "mse")
    status = tf.train.Checkpoint(optimizer=fresh).read(path)
    fresh.build(again.trainable_variables)  # its variables and the inner optimizer's are made here
    for ours, theirs in zip(fresh.variables, optimizer.variables):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    status.assert_consumed()
