"""Activations given as functions (`activation=tf.nn.relu`, a user function, a lambda) and configs that
name their class without a module, serialized and read back as Keras 3.15.1 on TensorFlow 2.21 does
(its answers recorded below)."""
import base64
import json
import marshal

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras import layers

# what Keras 3 writes for Dense(activation=<TensorFlow function>): a shipped activation's name, or a
# function dict under TensorFlow's own __name__ for the others
TF_FUNCTIONS = [
    (tf.nn.relu, "relu"), (tf.nn.relu6, "relu6"), (tf.nn.elu, "elu"), (tf.nn.selu, "selu"), (tf.nn.gelu, "gelu"),
    (tf.nn.softplus, "softplus"), (tf.math.softsign, "softsign"), (tf.sigmoid, "sigmoid"),
    (tf.math.tanh, "tanh"), (tf.nn.leaky_relu, "leaky_relu"), (tf.math.log_sigmoid, "log_sigmoid"),
    (tf.nn.softmax, "softmax_v2"), (tf.nn.log_softmax, "log_softmax_v2"), (tf.nn.swish, "swish"),
    (tf.nn.silu, "swish"), (tf.math.exp, "exp"), (tf.nn.crelu, "crelu_v2"),
]
AS_FUNCTION_DICT = {"softmax_v2", "log_softmax_v2", "swish", "exp", "crelu_v2"}


@pytest.mark.parametrize("function,name", TF_FUNCTIONS)
def test_tensorflow_function_activation_config(function, name):
    written = layers.Dense(2, activation=function).get_config()["activation"]
    if name in AS_FUNCTION_DICT:
        assert written == {"module": "builtins", "class_name": "function", "config": name,
                           "registered_name": "function"}
    else:
        assert written == name


def test_tensorflow_function_activations_compute():
    relu = layers.Dense(2, activation=tf.nn.relu, kernel_initializer="ones")
    np.testing.assert_array_equal(relu(-np.ones((1, 3))).numpy(), [[0.0, 0.0]])
    doubled = layers.Dense(2, activation=lambda x: x * 2, kernel_initializer="ones")
    np.testing.assert_array_equal(doubled(np.ones((1, 3))).numpy(), [[6.0, 6.0]])
    assert keras.activations.get(tf.nn.relu) is tf.nn.relu


def test_a_model_with_tf_nn_relu_saves_it_as_relu(tmp_path):
    inp = keras.Input((3,))
    model = keras.Model(inp, layers.Dense(2, activation=tf.nn.relu, kernel_initializer="ones")(inp))
    model.save(tmp_path / "r.keras")
    again = keras.models.load_model(tmp_path / "r.keras")
    assert again.layers[1].get_config()["activation"] == "relu"
    np.testing.assert_array_equal(again(-np.ones((1, 3))).numpy(), [[0.0, 0.0]])


def test_lambda_activation_is_written_as_its_code_with_keras_warning():
    function = lambda x: x * 2  # noqa: E731
    with pytest.warns(UserWarning, match="The object being serialized includes a `lambda`. This is unsafe. In order "
                                         "to reload the object, you will have to pass `safe_mode=False`"):
        written = layers.Dense(2, activation=function, name="lam").get_config()["activation"]
    assert list(written) == ["value"]
    code, defaults, closure = written["value"]
    assert marshal.loads(base64.b64decode(code)) == function.__code__
    assert defaults is None and closure is None


def test_lambda_record_cannot_be_read_back_as_in_keras():
    with pytest.warns(UserWarning):
        record = json.loads(json.dumps(keras.activations.serialize(lambda x: x)))
    with pytest.raises(ValueError, match="Unknown `config` as a `dict`, config=\\{'value'"):
        keras.activations.deserialize(record)


def test_user_function_needs_custom_objects_to_load(tmp_path):
    def tripled(x):
        return x * 3

    assert keras.activations.serialize(tripled) == {"module": "builtins", "class_name": "function",
                                                    "config": "tripled", "registered_name": "function"}
    inp = keras.Input((3,))
    keras.Model(inp, layers.Dense(2, activation=tripled, kernel_initializer="ones")(inp)).save(tmp_path / "u.keras")
    with pytest.raises(TypeError):
        keras.models.load_model(tmp_path / "u.keras")
    again = keras.models.load_model(tmp_path / "u.keras", custom_objects={"tripled": tripled})
    np.testing.assert_array_equal(again(np.ones((1, 3))).numpy(), [[9.0, 9.0]])


def test_class_name_only_activation_configs():
    relu = keras.activations.relu
    assert keras.activations.deserialize({"class_name": "relu"}) is relu
    assert keras.activations.deserialize("relu") is relu
    # get() looks a dict's class_name up among classes: Keras 3 cannot find "relu" there
    with pytest.raises(TypeError, match="Could not locate class 'relu'"):
        keras.activations.get({"class_name": "relu", "config": None})
    with pytest.raises(TypeError, match="Could not locate class 'relu'"):
        layers.Dense.from_config({"units": 2, "activation": {"class_name": "relu", "config": None}})
    tanh = keras.activations.get({"class_name": "function", "config": "tanh", "module": "builtins",
                                  "registered_name": "function"})
    assert tanh is keras.activations.tanh
    dense = layers.Dense.from_config({"units": 2, "activation": {"module": "builtins", "class_name": "function",
                                                                 "config": "relu", "registered_name": "function"}})
    assert dense.activation.__name__ == "relu"


def test_class_name_only_configs_of_other_kinds():
    assert keras.initializers.deserialize({"class_name": "GlorotUniform", "config": {"seed": 1}}).get_config() == \
        {"seed": 1, "input_axes": None, "output_axes": None}
    assert keras.regularizers.get({"class_name": "l2", "config": {"l2": 0.1}}).get_config() == \
        pytest.approx({"l2": 0.1})
    assert keras.constraints.get({"class_name": "MaxNorm", "config": {"max_value": 2}}).get_config() == \
        {"max_value": 2, "axis": 0}
    for name in ("Adam", "adam"):
        optimizer = keras.optimizers.get({"class_name": name, "config": {"learning_rate": 0.1}})
        assert type(optimizer).__name__ == "Adam"
        assert float(optimizer.learning_rate.numpy()) == pytest.approx(0.1)


def test_tf_keras_2_functional_json_with_list_inbound_nodes_loads():
    """tf.keras 2's JSON (no "module", nodes as [[layer, node, tensor, kwargs]]); Keras 3 itself refuses
    module-less configs here, eagerflow reads them as tf.keras 2 wrote them."""
    k2 = {"class_name": "Functional", "config": {"name": "f", "layers": [
        {"class_name": "InputLayer", "name": "i", "config": {"batch_input_shape": [None, 4], "name": "i"},
         "inbound_nodes": []},
        {"class_name": "Dense", "name": "d", "config": {"name": "d", "units": 2, "kernel_initializer": "ones"},
         "inbound_nodes": [[["i", 0, 0, {}]]]},
        {"class_name": "Dense", "name": "e", "config": {"name": "e", "units": 2, "kernel_initializer": "ones"},
         "inbound_nodes": [[["i", 0, 0, {}]]]},
        {"class_name": "Add", "name": "add", "config": {"name": "add"},
         "inbound_nodes": [[["d", 0, 0, {}], ["e", 0, 0, {}]]]}],
        "input_layers": [["i", 0, 0]], "output_layers": [["add", 0, 0]]}}
    model = keras.models.model_from_json(json.dumps(k2))
    assert [l.name for l in model.layers] == ["i", "d", "e", "add"]
    np.testing.assert_array_equal(model(tf.ones((1, 4))).numpy(), [[8.0, 8.0]])
