"""eagerflow loads TensorFlow's layout back (saved_model.pb + the variables bundle, without eagerflow's own
document): the object tree, live variables, signatures returning dicts, tf.functions callable at their
traced signatures with their defaults; and a damaged or hostile saved_model.pb is a DataLossError naming it."""
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


class _Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0], name="v")
        self.w = tf.Variable(3.0, name="w")
        self.items = [tf.Variable(1.0), {"a": tf.Variable(2.0)}]

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def f(self, x):
        return {"y": x * self.v + self.w}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32)])
    def g(self, x, n):
        y = tf.cond(x > 0, lambda: x * self.w, lambda: x - 1.0)
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + y), (tf.constant(0), tf.constant(0.0)))[1]

    @tf.function
    def h(self, x, scale=2.0):
        return x * scale


def _save_tf_only(obj, directory, **kwargs):
    tf.saved_model.save(obj, str(directory), **kwargs)
    assert not (directory / "saved_model.json").exists()  # what is left is TensorFlow's layout only
    return tf.saved_model.load(str(directory))


def test_a_module_comes_back_from_tensorflows_layout(tmp_path):
    m = _Module()
    m.h(tf.constant([1.0, 2.0]))
    loaded = _save_tf_only(m, tmp_path / "m", signatures={"serving_default": m.f})
    x = tf.constant([[1.0, 1.0], [0.5, -2.0]])
    np.testing.assert_array_equal(loaded.signatures["serving_default"](x=x)["y"], m.f(x)["y"])
    np.testing.assert_array_equal(loaded.f(x)["y"], m.f(x)["y"])
    for value, n in ((2.0, 3), (-1.0, 2), (4.0, 0)):
        assert float(loaded.g(tf.constant(value), tf.constant(n))) == float(m.g(tf.constant(value), tf.constant(n)))
    np.testing.assert_array_equal(loaded.h(tf.constant([1.0, 2.0])), [2.0, 4.0])  # the default scale=2.0
    assert isinstance(loaded.items, list) and float(loaded.items[1]["a"]) == 2.0
    assert (loaded.v.name, loaded.v.trainable) == ("v:0", True)
    loaded.w.assign(10.0)  # the restored functions read the live variable
    np.testing.assert_array_equal(loaded.f(tf.constant([[1.0, 1.0]]))["y"], [[11.0, 12.0]])
    # TensorFlow 2.21 binds a function saved with an input_signature to it first: its TypeError, not the
    # ValueError of a function without one.
    with pytest.raises(TypeError, match=r"Binding inputs to tf.function failed due to `Can not cast "
                                        r"TensorSpec\(shape=\(2,\), dtype=tf.int32, name='x'\) to TensorSpec"):
        loaded.f(tf.constant([1, 2]))


@pytest.mark.parametrize("kind", ["cnn", "lstm"])
def test_keras_models_serve_the_same_after_loading_tensorflows_layout(tmp_path, kind):
    rng = np.random.default_rng(0)
    if kind == "cnn":
        model = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Conv2D(4, 3, activation="relu"),
                                  keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(),
                                  keras.layers.Flatten(), keras.layers.Dropout(0.2), keras.layers.Dense(3)])
        x = rng.normal(size=(2, 8, 8, 1)).astype(np.float32)
    else:
        model = keras.Sequential([keras.Input((5,), dtype="int32"), keras.layers.Embedding(20, 4),
                                  keras.layers.LSTM(3), keras.layers.Dense(2)])
        x = rng.integers(0, 20, size=(2, 5)).astype(np.int32)
    loaded = _save_tf_only(model, tmp_path / "m")
    out = loaded.signatures["serving_default"](inputs=tf.constant(x))
    np.testing.assert_allclose(out["output_0"], model(x), rtol=1e-6)


def test_an_asset_points_into_the_models_assets(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\n")
    m = tf.Module()
    m.vocab = tf.saved_model.Asset(str(vocab))
    loaded = _save_tf_only(m, tmp_path / "m")
    assert loaded.vocab.asset_path.numpy().decode() == str(tmp_path / "m" / "assets" / "vocab.txt")


def _saved(tmp_path):
    m = _Module()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"serving_default": m.f})
    assert not (tmp_path / "m" / "saved_model.json").exists()
    return tmp_path / "m"


def _rewrite(directory, change):
    from eagerflow._src.formats.protos import saved_model_pb2
    path = directory / "saved_model.pb"
    message = saved_model_pb2.SavedModel.FromString(path.read_bytes())
    change(message.meta_graphs[0])
    path.write_bytes(message.SerializeToString())


def _first_node(meta, op_type):
    return next(n for f in meta.graph_def.library.function for n in f.node_def if n.op == op_type)


@pytest.mark.parametrize("change, message", [
    (lambda meta: setattr(_first_node(meta, "Mul"), "op", "NoSuchOp"), "unknown op type 'NoSuchOp'"),
    (lambda meta: _first_node(meta, "Mul").input.append("nowhere:z:0"), "names nothing written before it"),
    (lambda meta: _first_node(meta, "Mul").attr["T"].CopyFrom(type(_first_node(meta, "Mul").attr["T"])(i=3)),
     "Mul"),
    (lambda meta: meta.object_graph_def.nodes[0].children.add(node_id=999, local_name="ghost"),
     "node 999, which does not exist"),
    (lambda meta: meta.object_graph_def.nodes[0].children.add(node_id=0, local_name="__class__"),
     "is not allowed"),
])
def test_a_tampered_saved_model_is_data_loss_naming_the_file(tmp_path, change, message):
    directory = _saved(tmp_path)
    _rewrite(directory, change)
    with pytest.raises(tf.errors.DataLossError, match=message) as info:
        tf.saved_model.load(str(directory))
    assert "saved_model.pb" in str(info.value)


def test_an_op_that_runs_python_is_refused_naming_the_file(tmp_path):
    directory = _saved(tmp_path)
    _rewrite(directory, lambda meta: setattr(_first_node(meta, "Mul"), "op", "PyFunc"))
    with pytest.raises(tf.errors.PermissionDeniedError, match=r"saved_model.pb: [\s\S]*\(op PyFunc\) of function "
                                                              r"'f': runs Python code"):
        tf.saved_model.load(str(directory))


def test_a_constant_claiming_more_bytes_than_it_holds_is_data_loss(tmp_path):
    directory = _saved(tmp_path)

    def grow(meta):
        for f in meta.graph_def.library.function:
            for n in f.node_def:
                if n.op == "Const" and n.attr["value"].tensor.tensor_content:
                    n.attr["value"].tensor.tensor_shape.dim.add(size=2)  # 6 elements claimed, 3 stored
                    return
        raise AssertionError("no constant with tensor_content")
    m = _Module()
    m.c = tf.function(lambda x: x + tf.constant([1.0, 2.0, 3.0]), input_signature=[tf.TensorSpec([3], tf.float32)])
    tf.saved_model.save(m, str(tmp_path / "c"))
    assert not (tmp_path / "c" / "saved_model.json").exists()
    _rewrite(tmp_path / "c", grow)
    with pytest.raises(tf.errors.DataLossError, match=r"a constant of shape \[3, 2\] holding 12 bytes"):
        tf.saved_model.load(str(tmp_path / "c"))
    assert directory.exists()


def test_a_declared_shape_of_absurd_size_is_data_loss(tmp_path):
    directory = _saved(tmp_path)

    def widen(meta):
        wrapper = next(f for f in meta.graph_def.library.function if "signature_wrapper" in f.signature.name)
        wrapper.arg_attr[0].attr["_output_shapes"].list.shape[0].dim[0].size = 1 << 40
    _rewrite(directory, widen)
    with pytest.raises(tf.errors.DataLossError, match=r"a shape of 2199023255552 elements"):
        tf.saved_model.load(str(directory))


def test_a_gradient_rewritten_for_tensorflow_is_rebuilt_as_eagerflows_op(tmp_path):
    class Grad(tf.Module):
        def __init__(self):
            super().__init__()
            self.b = tf.Variable([1.0, 2.0, 3.0])

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def grad(self, x):
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(tf.square(x + self.b))
            return tape.gradient(y, self.b)

    m = Grad()
    loaded = _save_tf_only(m, tmp_path / "g")
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(loaded.grad(x), m.grad(x))
    ops = {op.type for op in loaded.grad.concrete_functions[0].graph.get_operations()}
    assert "SumToShape" in ops and "BroadcastGradientArgs" not in ops


def test_random_damage_to_saved_model_pb_loads_or_is_data_loss(tmp_path):
    directory = _saved(tmp_path)
    original = (directory / "saved_model.pb").read_bytes()
    rng = np.random.default_rng(7)
    for _ in range(60):
        data = bytearray(original)
        for _ in range(rng.integers(1, 4)):
            data[rng.integers(len(data))] = rng.integers(256)
        if rng.random() < 0.2:
            data = data[:rng.integers(len(data))]
        (directory / "saved_model.pb").write_bytes(bytes(data))
        try:
            tf.saved_model.load(str(directory))
        except tf.errors.DataLossError as err:
            assert "saved_model.pb" in str(err) or "variables" in str(err)
