"""Python operators and keras.ops functions on KerasTensors become operation nodes of the functional
graph, as in Keras 3. The names, shapes, dtypes, configs and error messages below are what Keras 3.15.1
on TensorFlow 2.21 answered for the same code; values are checked against NumPy."""
import json
import os

import numpy as np
import pytest

from eagerflow import keras

ops = keras.ops


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _op_name(tensor):
    return tensor._keras_history.operation.name


def test_each_operator_is_the_keras_op_keras_3_names():
    x = keras.Input((4,), name="x")
    b = keras.Input((2,), dtype="bool", name="b")
    # Keras 3.15: the operation each expression records, named from its class (counted with layer names)
    cases = [("x / 2", x / 2, "true_divide"), ("1 / x", 1 / x, "true_divide_1"), ("x // 2", x // 2, "floor_divide"),
             ("x % 2", x % 2, "mod"), ("2 ** x", 2 ** x, "power"), ("x - 1", x - 1, "subtract"),
             ("1 - x", 1 - x, "subtract_1"), ("x < 1", x < 1, "less"), ("x <= 1", x <= 1, "less_equal"),
             ("x >= 1", x >= 1, "greater_equal"), ("round(x)", round(x), "round"), ("~b", ~b, "logical_not"),
             ("b & b", b & b, "logical_and"), ("b | b", b | b, "logical_or"), ("b ^ b", b ^ b, "logical_xor"),
             ("x[0]", x[0], "get_item"), ("x[..., 1]", x[..., 1], "get_item_1"), ("x[:, None]", x[:, None], "get_item_2"),
             ("-x", -x, "negative"), ("abs(x)", abs(x), "absolute"), ("x * 3", x * 3, "multiply"),
             ("x + x", x + x, "add"), ("x != 0", x != 0, "not_equal"), ("x > 0", x > 0, "greater")]
    for text, tensor, name in cases:
        assert _op_name(tensor) == name, text
    assert (x[:, 0].shape, x[:, None].shape, x[0].shape) == ((None,), (None, 1, 4), (4,))
    assert (x > 0).dtype == "bool" and (x / 2).dtype == "float32"
    assert (x @ np.ones((4, 2), "float32")).shape == (None, 2)
    assert (2.0 * x).shape == (None, 4)
    with pytest.raises(ValueError, match="A KerasTensor is symbolic"):  # an ndarray on the left: NumPy converts
        np.ones((3, 1), "float32") @ keras.Input((1, 5))


def test_what_a_symbolic_tensor_refuses_as_keras_3_does():
    x = keras.Input((4,), name="x")
    assert (x == x) is True  # `==` is Python's identity test in Keras 3 (no node)
    with pytest.raises(TypeError, match="A symbolic KerasTensor cannot be used as a boolean."):
        bool(x)
    with pytest.raises(NotImplementedError, match="Iterating over a symbolic KerasTensor is not supported."):
        list(x)
    with pytest.raises(TypeError, match="has no len"):
        len(x)
    with pytest.raises(AttributeError, match="'KerasTensor' object has no attribute 'T'"):
        x.T
    with pytest.raises(TypeError, match="bad operand type for unary \\+"):
        +x
    with pytest.raises(ValueError, match="A KerasTensor is symbolic: it's a placeholder for a shape an a dtype"):
        np.asarray(x)
    assert (x.sparse, x.ragged, x.ndim) == (False, False, 2)


def test_model_of_operators_runs_like_numpy_and_lists_only_layers():
    x = keras.Input((4,), name="x")
    y = 2 * x + 1
    z = keras.layers.Dense(3, name="d")(y)
    w = -z[:, 0:2] ** 2 @ np.ones((2, 2), "float32")
    r = ops.sum(ops.reshape(x, (-1, 2, 2)), axis=1)
    m = keras.Model(x, [w, r])
    # Keras 3.15: operations are nodes, not layers; output names are the producing operations'
    assert [l.name for l in m.layers] == ["x", "d"]
    assert m.output_names == ["matmul", "sum"]
    kernel = np.arange(12, dtype="float32").reshape(4, 3) / 10
    bias = np.array([0.1, -0.2, 0.3], "float32")
    m.get_layer("d").set_weights([kernel, bias])
    data = np.linspace(-1, 1, 8).reshape(2, 4).astype("float32")
    got_w, got_r = m.predict(data, verbose=0)
    dense = (2 * data + 1) @ kernel + bias
    np.testing.assert_allclose(got_w, -(dense[:, :2] ** 2) @ np.ones((2, 2)), rtol=1e-5)
    np.testing.assert_allclose(got_r, data.reshape(-1, 2, 2).sum(axis=1), rtol=1e-6)
    # Keras 3.15's values for the same program
    np.testing.assert_allclose(got_w, [[-0.60755, -0.60755], [-52.02959, -52.02959]], atol=1e-4)


def test_operation_config_is_keras_3_layout():
    x = keras.Input((4,), name="x")
    y = (2 * x)[:, 0:2]
    config = json.loads(json.dumps(keras.Model(x, y).get_config()))  # as a .keras file holds it
    multiply, get_item = config["layers"][1], config["layers"][2]
    # Keras 3.15.1's entries for the same model
    assert {k: multiply[k] for k in ("module", "class_name", "config", "registered_name", "name")} == {
        "module": "keras.src.ops.numpy", "class_name": "Multiply", "config": {"name": "multiply"},
        "registered_name": "Multiply", "name": "multiply"}
    assert multiply["inbound_nodes"] == [{"args": [2, {"class_name": "__keras_tensor__", "config": {
        "shape": [None, 4], "dtype": "float32", "keras_history": ["x", 0, 0]}}], "kwargs": {}}]
    assert get_item["class_name"] == "GetItem" and get_item["inbound_nodes"][0]["args"][1] == [
        {"class_name": "__slice__", "config": {"start": None, "stop": None, "step": None}},
        {"class_name": "__slice__", "config": {"start": 0, "stop": 2, "step": None}}]


def test_a_keras_written_operation_config_loads():
    # Keras 3.15 keeps an op's own arguments in its config (Sum: axis, keepdims; Reshape: newshape)
    config = {"name": "f", "trainable": True, "layers": [
        {"module": "keras.layers", "class_name": "InputLayer", "config": {"batch_shape": [None, 4], "dtype": "float32",
                                                                           "sparse": False, "ragged": False, "name": "x",
                                                                           "optional": False},
         "registered_name": None, "name": "x", "inbound_nodes": []},
        {"module": "keras.src.ops.numpy", "class_name": "Reshape", "config": {"name": "reshape", "newshape": [-1, 2, 2]},
         "registered_name": "Reshape", "name": "reshape", "inbound_nodes": [{"args": [
             {"class_name": "__keras_tensor__", "config": {"shape": [None, 4], "dtype": "float32",
                                                           "keras_history": ["x", 0, 0]}}], "kwargs": {}}]},
        {"module": "keras.src.ops.numpy", "class_name": "Sum", "config": {"name": "sum", "axis": 1, "keepdims": False},
         "registered_name": "Sum", "name": "sum", "inbound_nodes": [{"args": [
             {"class_name": "__keras_tensor__", "config": {"shape": [None, 2, 2], "dtype": "float32",
                                                           "keras_history": ["reshape", 0, 0]}}], "kwargs": {}}]}],
        "input_layers": [["x", 0, 0]], "output_layers": [["sum", 0, 0]]}
    m = keras.Model.from_config(config)
    data = np.arange(8, dtype="float32").reshape(2, 4)
    np.testing.assert_allclose(m.predict(data, verbose=0), data.reshape(-1, 2, 2).sum(axis=1))
    # Keras 3.15: `output` keeps the saved list of one; a call or predict gives the tensor itself
    assert m.output_names == ["sum"] and [t.shape for t in m.output] == [(None, 2)]


def test_shape_of_a_keras_tensor_and_reshape_with_its_batch():
    x = keras.Input((6,), name="x")
    assert ops.shape(x) == (None, 6)  # Keras 3.15
    y = ops.reshape(x, (ops.shape(x)[0], 3, 2))
    assert y.shape == (None, 3, 2)  # Keras 3.15 builds this; (its TF backend then fails at run time; we infer it)
    m = keras.Model(x, y)
    data = np.arange(12, dtype="float32").reshape(2, 6)
    np.testing.assert_array_equal(m.predict(data, verbose=0), data.reshape(2, 3, 2))


def test_reshape_by_dynamic_batch_inside_a_layer_keeps_static_dims():
    class Split(keras.layers.Layer):
        def call(self, x):
            return ops.reshape(x, (ops.shape(x)[0], 2, 3))

    x = keras.Input((6,), name="x")
    m = keras.Model(x, Split(name="split")(x))
    assert m.output.shape == (None, 2, 3)  # Keras 3.15
    data = np.arange(12, dtype="float32").reshape(2, 6)
    np.testing.assert_array_equal(m.predict(data, verbose=0), data.reshape(2, 2, 3))


def test_operator_model_saves_and_reloads(tmp_path):
    x = keras.Input((3,), name="x")
    h = keras.layers.Dense(4, name="d")(x * 0.5 - 1)
    y = ops.concatenate([abs(h[:, :2]) ** 2, -h[:, 2:] / 3], axis=-1)
    m = keras.Model(x, {"y": y, "flag": ops.cast(h > 0, "float32")})
    data = np.linspace(-3, 3, 9).reshape(3, 3).astype("float32")
    before = m.predict(data, verbose=0)
    path = os.path.join(tmp_path, "ops.keras")
    m.save(path)
    back = keras.models.load_model(path)
    after = back.predict(data, verbose=0)
    assert sorted(after) == ["flag", "y"] and back.output_names == m.output_names == ["cast", "concatenate"]
    for key in before:
        np.testing.assert_allclose(after[key], before[key], rtol=1e-6)
    clone = keras.models.clone_model(m)
    assert [l.name for l in clone.layers] == ["x", "d"] and clone.output_names == ["cast", "concatenate"]


def test_keras_ops_functions_on_keras_tensors_are_nodes():
    x = keras.Input((4,), name="x")
    ids = keras.Input((3,), dtype="int32", name="ids")
    cases = {"relu": ops.relu(x), "top_k": ops.top_k(x, 2)[1], "unstack": ops.unstack(x, axis=1)[0],
             "cast": ops.cast(x, "int32"), "convert_to_tensor": ops.convert_to_tensor(x),
             "stop_gradient": ops.stop_gradient(x), "expand_dims": ops.expand_dims(x, -1),
             "einsum": ops.einsum("bi,bj->bij", x, x), "where": ops.where(x > 0, x, 0.0), "one_hot": ops.one_hot(ids, 5),
             "resize": ops.image.resize(keras.Input((4, 4, 3)), (2, 2))}
    # Keras 3.15's operation names and shapes
    shapes = {"relu": (None, 4), "top_k": (None, 2), "unstack": (None,), "cast": (None, 4),
              "convert_to_tensor": (None, 4), "stop_gradient": (None, 4), "expand_dims": (None, 4, 1),
              "einsum": (None, 4, 4), "where": (None, 4), "one_hot": (None, 3, 5), "resize": (None, 2, 2, 3)}
    for name, tensor in cases.items():
        assert tensor._keras_history[0].name == name and tensor.shape == shapes[name], name
    m = keras.Model([x, ids], [cases["einsum"], cases["where"], cases["one_hot"], cases["top_k"]])
    xv = np.array([[1.0, -2.0, 3.0, 0.5], [-1.0, 4.0, 2.0, -3.0]], "float32")
    iv = np.array([[0, 4, 2], [1, 1, 3]], "int32")
    outer, where, one_hot, top_idx = m.predict([xv, iv], verbose=0)
    np.testing.assert_allclose(outer, np.einsum("bi,bj->bij", xv, xv))
    np.testing.assert_allclose(where, np.where(xv > 0, xv, 0.0))
    np.testing.assert_array_equal(one_hot, np.eye(5)[iv])
    np.testing.assert_array_equal(top_idx, np.argsort(-xv, axis=1)[:, :2])
    assert cases["relu"]._keras_history[1] == 0  # the call index, as Keras' KerasHistory gives


def test_activation_functions_on_keras_tensors_are_nodes(tmp_path):
    x = keras.Input((4,), name="x")
    relu, softmax, swish = keras.activations.relu(x), keras.activations.softmax(x), keras.activations.get("swish")(x)
    # Keras 3.15's operation names (relu is its ReLU operation)
    assert [t._keras_history[0].name for t in (relu, softmax, swish)] == ["re_lu", "softmax", "silu"]
    leaky = keras.activations.leaky_relu(x, negative_slope=0.1)
    m = keras.Model(x, [relu, softmax, leaky])
    data = np.linspace(-2, 2, 8).reshape(2, 4).astype("float32")
    got = m.predict(data, verbose=0)
    e = np.exp(data - data.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got[0], np.maximum(data, 0))
    np.testing.assert_allclose(got[1], e / e.sum(axis=1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(got[2], np.where(data > 0, data, 0.1 * data), rtol=1e-6)
    m.save(str(tmp_path / "act.keras"))
    again = keras.models.load_model(str(tmp_path / "act.keras")).predict(data, verbose=0)
    for a, b in zip(got, again):
        np.testing.assert_allclose(a, b)
    assert keras.activations.serialize(keras.activations.relu) == "relu"


def test_keras_written_relu_operation_loads_with_its_arguments():
    # the entry Keras 3.15 writes for keras.activations.relu(x, max_value=1.0)
    config = {"name": "f", "trainable": True, "layers": [
        {"module": "keras.layers", "class_name": "InputLayer", "config": {"batch_shape": [None, 4], "dtype": "float32",
                                                                           "name": "x"},
         "registered_name": None, "name": "x", "inbound_nodes": []},
        {"module": "keras.src.activations.activations", "class_name": "ReLU",
         "config": {"name": "re_lu", "negative_slope": 0.0, "max_value": 1.0, "threshold": 0.0},
         "registered_name": "ReLU", "name": "re_lu", "inbound_nodes": [{"args": [{"class_name": "__keras_tensor__", "config": {
             "shape": [None, 4], "dtype": "float32", "keras_history": ["x", 0, 0]}}], "kwargs": {}}]}],
        "input_layers": [["x", 0, 0]], "output_layers": [["re_lu", 0, 0]]}
    data = np.linspace(-2, 2, 8).reshape(2, 4).astype("float32")
    np.testing.assert_allclose(keras.Model.from_config(config).predict(data, verbose=0), np.clip(data, 0, 1))
