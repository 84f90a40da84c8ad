"""`serving_default` when `tf.saved_model.save` is given no signatures, and Keras 3's
`model.export`. Expected names, shapes and messages are TensorFlow 2.21 + Keras 3's (run on the
same models); values are checked against the original model."""
import numpy as np
import pytest

import eagerflow as tf

from .protobuf_edits import legacy_save, rewrite
from eagerflow import keras

from . import fresh_process

X = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], np.float32)


def _signatures(directory):
    """{key: (input names -> (shape, dtype)), output names}} of a loaded model's signatures."""
    loaded = tf.saved_model.load(str(directory))
    out = {}
    for key, fn in loaded.signatures.items():
        args, kwargs = fn.structured_input_signature
        assert args == ()
        out[key] = ({k: (tuple(s.shape.as_list()), s.dtype.name) for k, s in kwargs.items()},
                    sorted(fn.structured_outputs))
    return out


def _save(model, tmp_path, name="m"):
    tf.saved_model.save(model, str(tmp_path / name))
    return tmp_path / name


# --- tf.saved_model.save(keras_model, d) -----------------------------------------------------------
def test_a_sequential_model_gets_serving_default_from_its_call_in_a_fresh_process(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2)])
    directory = _save(model, tmp_path)
    assert _signatures(directory) == {"serving_default": ({"inputs": ((None, 3), "float32")}, ["output_0"])}
    np.save(tmp_path / "x.npy", X)
    (first,) = fresh_process.run(f"""
m = tf.saved_model.load({str(directory)!r})
out(m.signatures["serving_default"](inputs=tf.constant(np.load({str(tmp_path / 'x.npy')!r}))))
""")
    np.testing.assert_allclose(first["output_0"], model(X).numpy(), rtol=1e-6)


def test_a_functional_model_with_two_inputs_and_outputs_in_a_fresh_process(tmp_path):
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    model = keras.Model([a, b], [keras.layers.Dense(2, name="d1")(a), keras.layers.Dense(1, name="d2")(b)])
    directory = _save(model, tmp_path)
    # TensorFlow names the inputs after the signature function's argument, not the keras.Inputs
    assert _signatures(directory) == {"serving_default": (
        {"inputs": ((None, 3), "float32"), "inputs_1": ((None, 3), "float32")}, ["output_0", "output_1"])}
    np.save(tmp_path / "x.npy", X)
    (result,) = fresh_process.run(f"""
m = tf.saved_model.load({str(directory)!r})
x = tf.constant(np.load({str(tmp_path / 'x.npy')!r}))
out(m.signatures["serving_default"](inputs=x, inputs_1=2.0 * x))
""")
    expected = model([X, 2.0 * X])
    np.testing.assert_allclose(result["output_0"], expected[0].numpy(), rtol=1e-6)
    np.testing.assert_allclose(result["output_1"], expected[1].numpy(), rtol=1e-6)


def test_dict_outputs_keep_their_keys_and_dict_inputs_are_named_by_position(tmp_path):
    i = keras.Input((3,), name="a")
    model = keras.Model(i, {"y": keras.layers.Dense(2)(i), "z": keras.layers.Dense(1)(i)})
    assert _signatures(_save(model, tmp_path, "out")) == {
        "serving_default": ({"inputs": ((None, 3), "float32")}, ["y", "z"])}
    inputs = {"p": keras.Input((3,), name="p"), "q": keras.Input((2,), name="q")}
    model = keras.Model(inputs, keras.layers.Dense(1)(keras.layers.Concatenate()([inputs["p"], inputs["q"]])))
    assert _signatures(_save(model, tmp_path, "in")) == {
        "serving_default": ({"inputs": ((None, 3), "float32"), "inputs_1": ((None, 2), "float32")}, ["output_0"])}


def test_a_model_built_by_a_call_takes_that_calls_shape_and_an_unbuilt_one_gets_no_signature(tmp_path):
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(2)

        def call(self, inputs):
            return {"out": self.d(inputs), "neg": -self.d(inputs)}

    unbuilt = keras.Sequential([keras.layers.Dense(2)])
    assert _signatures(_save(unbuilt, tmp_path, "unbuilt")) == {}  # saved, without signatures (TF 2.21)
    assert _signatures(_save(Sub(), tmp_path, "sub_unbuilt")) == {}
    built = keras.Sequential([keras.layers.Dense(2)])
    built.build((None, 3))
    assert _signatures(_save(built, tmp_path, "built")) == {
        "serving_default": ({"inputs": ((None, 3), "float32")}, ["output_0"])}
    called = keras.Sequential([keras.layers.Dense(2)])
    called(X)
    assert _signatures(_save(called, tmp_path, "called")) == {  # the first call's batch size, as Keras
        "serving_default": ({"inputs": ((2, 3), "float32")}, ["output_0"])}
    sub = Sub()
    sub(np.ones((4, 3), np.float32))
    directory = _save(sub, tmp_path, "sub")
    assert _signatures(directory) == {"serving_default": ({"inputs": ((4, 3), "float32")}, ["neg", "out"])}
    got = tf.saved_model.load(str(directory)).signatures["serving_default"](inputs=tf.ones([4, 3]))
    np.testing.assert_allclose(got["out"].numpy(), sub(np.ones((4, 3), np.float32))["out"].numpy(), rtol=1e-6)


def test_explicit_signatures_win_over_the_models_call(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    serve = tf.function(lambda x: {"doubled": model(x) * 2.0}, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    tf.saved_model.save(model, str(tmp_path / "m"), signatures={"predict": serve})
    assert _signatures(tmp_path / "m") == {"predict": ({"x": ((None, 3), "float32")}, ["doubled"])}


# --- a tf.Module's one function with an input signature ---------------------------------------------
def test_the_roots_only_function_with_an_input_signature_becomes_serving_default(tmp_path):
    class One(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def f(self, x):
            return x * 2.0

    class Two(One):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def g(self, x):
            return x * 3.0

    class Traced(tf.Module):
        @tf.function
        def f(self, x):
            return x * 2.0

    assert _signatures(_save(One(), tmp_path, "one")) == {
        "serving_default": ({"x": ((None,), "float32")}, ["output_0"])}
    assert _signatures(_save(Two(), tmp_path, "two")) == {}  # ambiguous: none (TF 2.21)
    traced = Traced()
    traced.f(tf.constant([1.0]))
    assert _signatures(_save(traced, tmp_path, "traced")) == {}  # no input signature: none
    holder = tf.Module()
    holder.f = tf.function(lambda x: x + 1.0, input_signature=[tf.TensorSpec([], tf.float32)]).get_concrete_function()
    holder.inner = One()  # a child's function is not the root's
    directory = _save(holder, tmp_path, "concrete")
    assert _signatures(directory) == {"serving_default": ({"x": ((), "float32")}, ["output_0"])}
    assert float(tf.saved_model.load(str(directory)).signatures["serving_default"](x=2.0)["output_0"]) == 3.0


# --- model.export(d) ----------------------------------------------------------------------------------
def test_export_writes_a_serve_endpoint_named_after_the_keras_inputs(tmp_path, capsys):
    i = keras.Input((3,), name="features")
    model = keras.Model(i, keras.layers.Dense(2, name="logits")(i))
    model.export(str(tmp_path / "e"))
    printed = capsys.readouterr().out
    assert printed.startswith(f"Saved artifact at '{tmp_path / 'e'}'. The following endpoints are available:\n\n"
                              "* Endpoint 'serve'\n"
                              "  args_0 (POSITIONAL_ONLY): TensorSpec(shape=(None, 3), dtype=tf.float32, "
                              "name='features')\n"
                              "Output Type:\n"
                              "  TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)\n"
                              "Captures:\n")
    expected = {"serve": ({"features": ((None, 3), "float32")}, ["output_0"])}
    expected["serving_default"] = expected["serve"]
    assert _signatures(tmp_path / "e") == expected
    loaded = tf.saved_model.load(str(tmp_path / "e"))
    np.testing.assert_allclose(loaded.serve(tf.constant(X)).numpy(), model(X).numpy(), rtol=1e-6)
    assert sorted(v.name for v in loaded.variables) == ["bias:0", "kernel:0"]  # tf.Variables, as in TF
    assert len(loaded.trainable_variables) == 2
    assert list(loaded.non_trainable_variables) == []  # TF 2.21: ListWrapper([]) (an empty list is tracked)
    loaded.trainable_variables[1].assign(tf.ones([2]))  # the bias: live, as after tf.saved_model.load
    model.layers[-1].bias.assign(tf.ones([2]))
    np.testing.assert_allclose(loaded.serve(tf.constant(X)).numpy(), model(X).numpy(), rtol=1e-6)


def test_export_of_list_and_dict_inputs_and_of_a_subclassed_model(tmp_path):
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    model = keras.Model([a, b], [keras.layers.Dense(2)(a), keras.layers.Dense(1)(b)])
    model.export(str(tmp_path / "list"), verbose=False)
    assert _signatures(tmp_path / "list")["serve"] == (
        {"a": ((None, 3), "float32"), "b": ((None, 3), "float32")}, ["output_0", "output_1"])
    got = tf.saved_model.load(str(tmp_path / "list")).serve([tf.constant(X), tf.constant(X)])
    np.testing.assert_allclose(got[1].numpy(), model([X, X])[1].numpy(), rtol=1e-6)

    inputs = {"p": keras.Input((3,), name="p"), "q": keras.Input((2,), name="q")}
    model = keras.Model(inputs, keras.layers.Dense(1)(keras.layers.Concatenate()([inputs["p"], inputs["q"]])))
    model.export(str(tmp_path / "dict"), verbose=False)
    assert _signatures(tmp_path / "dict")["serving_default"] == (
        {"p": ((None, 3), "float32"), "q": ((None, 2), "float32")}, ["output_0"])

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)

    sub = Sub()
    sub(X)  # built on a batch of 2: the export takes any batch size (Keras 3)
    sub.export(str(tmp_path / "sub"), verbose=False)
    assert _signatures(tmp_path / "sub")["serve"] == ({"args_0": ((None, 3), "float32")}, ["output_0"])
    x5 = np.ones((5, 3), np.float32)
    np.testing.assert_allclose(tf.saved_model.load(str(tmp_path / "sub")).serve(tf.constant(x5)).numpy(),
                               sub(x5).numpy(), rtol=1e-6)


def test_export_of_an_unbuilt_model_is_keras_value_error(tmp_path):
    with pytest.raises(ValueError, match=r"^The model provided has not yet been built\. It must be built before "
                                         r"export\.$"):
        keras.Sequential([keras.layers.Dense(2)]).export(str(tmp_path / "e"))
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="Unrecognized format=onnx"):
        model.export(str(tmp_path / "e"), format="onnx")


def test_a_model_saved_after_fit_loads_in_a_fresh_process(tmp_path):
    # After compile/fit the model's object tree has cycles (its History callback holds the model):
    # the loader refused the file it had just written ("node 0 contains itself").
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(0)
    x = rng.random((32, 3)).astype(np.float32)
    model.fit(x, x.sum(1, keepdims=True), epochs=2, batch_size=8, verbose=0)
    directory = _save(model, tmp_path)
    np.save(tmp_path / "x.npy", x)
    result, same = fresh_process.run(f"""
m = tf.saved_model.load({str(directory)!r})
out(m.signatures["serving_default"](inputs=tf.constant(np.load({str(tmp_path / 'x.npy')!r}))))
out(m.history.model is m)
""")
    np.testing.assert_allclose(result["output_0"], model.predict(x, verbose=0), rtol=1e-5, atol=1e-6)
    assert same is True  # the cycle comes back as a cycle


def test_a_cycle_through_a_tuple_is_refused_as_data_loss_in_eagerflows_earlier_format(tmp_path):
    import json
    holder = tf.Module()
    holder.pair = (tf.Variable(1.0), tf.Variable(2.0))
    legacy_save(holder, tmp_path / "m")
    path = tmp_path / "m" / "saved_model.json"
    document = json.loads(path.read_text())
    (index,) = [i for i, n in enumerate(document["nodes"]) if n["kind"] == "tuple"]
    document["nodes"][index]["items"][1] = index  # the tuple holding itself
    path.write_text(json.dumps(document))
    with pytest.raises(tf.errors.DataLossError, match=rf"saved_model.json: node {index} contains itself"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_a_cycle_through_a_tuple_is_refused_as_data_loss(tmp_path):
    holder = tf.Module()
    holder.pair = (tf.Variable(1.0), tf.Variable(2.0))
    tf.saved_model.save(holder, str(tmp_path / "m"))
    found = []

    def cycle(meta):
        nodes = meta.object_graph_def.nodes
        (index,) = [i for i, n in enumerate(nodes) if n.WhichOneof("kind") == "user_object"
                    and n.user_object.identifier == "trackable_tuple_wrapper"]
        nodes[index].children[1].node_id = index  # the tuple holding itself
        found.append(index)
    rewrite(tmp_path / "m", cycle)
    with pytest.raises(tf.errors.DataLossError, match=rf"saved_model.pb: node {found[0]} contains itself"):
        tf.saved_model.load(str(tmp_path / "m"))
