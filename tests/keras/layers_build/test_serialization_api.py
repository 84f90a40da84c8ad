"""keras.layers.serialize/deserialize, keras.utils / keras.saving serialize_keras_object and
deserialize_keras_object, the registry and custom_object_scope: the dicts are Keras 3.15.1's
(compared as JSON), and so are the errors."""
import json

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

S = keras.utils.serialize_keras_object
D = keras.utils.deserialize_keras_object
POLICY = {"class_name": "DTypePolicy", "config": {"name": "float32"}, "module": "keras", "registered_name": None}


def _json(value):
    return json.dumps(value, sort_keys=True)


@keras.saving.register_keras_serializable(package="k2test")
def doubled(x):
    return x * 2.0


@keras.saving.register_keras_serializable()
class Scaled(keras.layers.Layer):
    def __init__(self, k=1, **kwargs):
        super().__init__(**kwargs)
        self.k = k

    def get_config(self):
        return {**super().get_config(), "k": self.k}


def unregistered(x):
    return x * 3.0


class Unregistered(keras.layers.Layer):
    pass


# keras.layers.serialize(Dense(2, kernel_initializer=HeNormal(seed=1), name="d")), Keras 3.15.1
DENSE = {"class_name": "Dense", "module": "keras.layers", "registered_name": None, "config": {
    "activation": "linear", "bias_constraint": None, "bias_regularizer": None, "dtype": POLICY,
    "bias_initializer": {"class_name": "Zeros", "config": {}, "module": "keras.initializers", "registered_name": None},
    "kernel_constraint": None, "kernel_regularizer": None, "name": "d", "quantization_config": None,
    "kernel_initializer": {"class_name": "HeNormal", "config": {"input_axes": None, "output_axes": None, "seed": 1},
                           "module": "keras.initializers", "registered_name": None},
    "trainable": True, "units": 2, "use_bias": True}}


def test_layers_serialize_is_keras_dict():
    layer = keras.layers.Dense(2, kernel_initializer=keras.initializers.HeNormal(seed=1), name="d")
    assert _json(keras.layers.serialize(layer)) == _json(DENSE)
    assert _json(S(layer)) == _json(DENSE)
    assert keras.layers.serialize(None) is None


def test_built_layer_carries_its_build_config():
    layer = keras.layers.Dense(2, kernel_initializer=keras.initializers.HeNormal(seed=1), name="d")
    layer.build((None, 4))
    assert _json(S(layer)) == _json({**DENSE, "build_config": {"input_shape": [None, 4]}})


def test_layers_deserialize_round_trip_and_refusals():
    restored = keras.layers.deserialize(keras.layers.serialize(keras.layers.Dense(2, name="d")))
    assert type(restored) is keras.layers.Dense
    assert restored.get_config() == keras.layers.Dense(2, name="d").get_config()
    assert keras.layers.deserialize(keras.layers.serialize(Scaled(4))).k == 4
    seq = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="o")], name="s")
    assert keras.layers.serialize(seq)["module"] == "keras"
    assert type(keras.layers.deserialize(keras.layers.serialize(seq))) is keras.Sequential
    with pytest.raises(ValueError, match="`keras.layers.deserialize` was passed a `config` object that is not a "
                                         "`keras.layers.Layer`. Received: Dense"):
        keras.layers.deserialize("Dense")
    with pytest.raises(TypeError, match="Could not locate class 'Nope'. Make sure custom classes and functions are "
                                        "decorated with `@keras.saving.register_keras_serializable\\(\\)`"):
        keras.layers.deserialize({"class_name": "Nope", "config": {}})


def test_registered_and_unregistered_layers():
    assert _json(S(Scaled(3, name="m"))) == _json({
        "class_name": "Scaled", "module": None, "registered_name": "Custom>Scaled",
        "config": {"dtype": POLICY, "k": 3, "name": "m", "trainable": True}})
    # a class without get_config: Keras' auto config of its __init__ arguments (Layer's own here)
    assert _json(S(Unregistered(name="u"))) == _json({
        "class_name": "Unregistered", "module": None, "registered_name": "Unregistered",
        "config": {"activity_regularizer": None, "autocast": True, "dtype": POLICY, "name": "u", "trainable": True}})
    assert D(S(Scaled(3, name="m"))).k == 3


def test_functions():
    assert S(keras.activations.relu) == {"module": "builtins", "class_name": "function", "config": "relu",
                                         "registered_name": "function"}
    assert S(doubled) == {"module": "builtins", "class_name": "function", "config": "k2test>doubled",
                          "registered_name": "function"}
    assert S(unregistered) == {"module": "builtins", "class_name": "function", "config": "unregistered",
                               "registered_name": "function"}
    assert D(S(keras.activations.relu)) is keras.activations.relu
    assert D(S(doubled)) is doubled
    assert D("k2test>doubled") is doubled
    with pytest.raises(TypeError, match="Could not locate function 'unregistered'. Make sure custom classes and "
                                        "functions are decorated with"):
        D(S(unregistered))
    assert D(S(unregistered), custom_objects={"unregistered": unregistered}) is unregistered
    with keras.saving.custom_object_scope({"unregistered": unregistered}):
        assert D(S(unregistered)) is unregistered
        assert keras.saving.get_registered_object("unregistered") is unregistered


def test_plain_values_arrays_and_tensors():
    assert S("relu") == "relu" and S(None) is None and S(3) == 3
    assert S([1, (2, 3), {"a": np.float32(1.5)}]) == [1, (2, 3), {"a": 1.5}]
    assert S(np.array([[1, 2]], dtype="int32")) == {"class_name": "__numpy__",
                                                    "config": {"value": [[1, 2]], "dtype": "int32"}}
    assert S(b"ab") == {"class_name": "__bytes__", "config": {"value": "ab"}}
    assert S(tf.constant([1.0, 2.0])) == {"class_name": "__tensor__",
                                          "config": {"value": [1.0, 2.0], "dtype": "float32"}}
    assert S(tf.TensorShape([None, 3])) == [None, 3]
    assert S(tf.float32) == "float32"
    assert D("relu") == "relu" and D("nothing") == "nothing" and D(3) == 3
    assert D([1, "a", {"b": 2}]) == [1, "a", {"b": 2}] and D({"b": 2}) == {"b": 2}
    restored = D(S(np.array([[1, 2]], dtype="int32")))
    assert restored.dtype == np.int32 and restored.tolist() == [[1, 2]]
    assert D(S(tf.constant([1.0, 2.0]))).numpy().tolist() == [1.0, 2.0]
    assert D(S(b"ab")) == b"ab"


def test_other_families():
    assert S(keras.losses.MeanSquaredError()) == {
        "module": "keras.losses", "class_name": "MeanSquaredError", "registered_name": None,
        "config": {"name": "mean_squared_error", "reduction": "sum_over_batch_size"}}
    assert S(keras.regularizers.L2(0.1)) == {"module": "keras.regularizers", "class_name": "L2",
                                             "config": {"l2": 0.1}, "registered_name": None}
    assert S(keras.initializers.GlorotUniform(seed=3)) == {
        "module": "keras.initializers", "class_name": "GlorotUniform", "registered_name": None,
        "config": {"seed": 3, "input_axes": None, "output_axes": None}}
    assert D({"class_name": "Dense", "module": "keras.layers", "config": {"units": 2}}).units == 2


def test_registry_names():
    assert keras.saving.get_registered_name(doubled) == "k2test>doubled"
    assert keras.saving.get_registered_name(Scaled) == "Custom>Scaled"
    assert keras.saving.get_registered_name(keras.layers.Dense) == "Dense"
    assert keras.saving.get_registered_object("k2test>doubled") is doubled
    assert keras.saving.get_registered_object("Custom>Scaled") is Scaled
    assert keras.saving.get_registered_object("nothing") is None
    assert keras.utils.get_registered_name(doubled) == "k2test>doubled"
    assert keras.utils.register_keras_serializable is keras.saving.register_keras_serializable
    assert keras.utils.custom_object_scope is keras.saving.custom_object_scope
    assert keras.saving.get_registered_name(keras.saving.register_keras_serializable("k2q", "nm")(unregistered)) \
        == "k2q>nm"


def test_registering_again_replaces_and_classes_need_get_config():
    first = keras.saving.register_keras_serializable("k2dup", "f")(lambda x: x)
    second = keras.saving.register_keras_serializable("k2dup", "f")(lambda x: x + 1)  # Keras 3.15: no error
    assert keras.saving.get_registered_object("k2dup>f") is second and first is not second
    with pytest.raises(ValueError, match=r"Cannot register a class that does not have a get_config\(\) method."):
        keras.saving.register_keras_serializable("k2z")(type("NoConfig", (), {}))


def test_activation_configs_in_layers():
    assert keras.layers.Dense(2, activation=doubled).get_config()["activation"] == S(doubled)
    assert keras.layers.Dense(2, activation=unregistered).get_config()["activation"] == S(unregistered)
    assert keras.layers.Dense(2, activation=keras.activations.swish).get_config()["activation"] == "silu"
    assert keras.layers.Dense(2, kernel_initializer=unregistered).get_config()["kernel_initializer"] == S(unregistered)
    config = keras.layers.Dense(2, activation=doubled).get_config()
    assert keras.layers.Dense.from_config(config).activation is doubled


def test_unregistered_layer_loads_through_custom_objects_or_scope():
    config = S(Unregistered(name="u"))
    with pytest.raises(TypeError, match="Could not locate class 'Unregistered'. Make sure custom classes"):
        D(config)
    with keras.saving.custom_object_scope({"Unregistered": Unregistered}):
        assert type(D(config)) is Unregistered
    restored = D(config, custom_objects={"Unregistered": Unregistered})
    assert type(restored) is Unregistered and restored.name == "u"
