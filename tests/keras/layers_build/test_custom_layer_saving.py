"""End to end, as tutorials write it: a custom layer whose build() makes its weights with a user
initializer function, in a functional model, trained two steps, saved to .keras and reloaded with
the same variables and outputs; an unregistered activation function saved and loaded as Keras 3.15.1
does (the file names it; loading needs custom_objects or a custom_object_scope)."""
import json
import zipfile

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


def small_normal(shape, dtype=None):
    return tf.random.normal(shape) * 0.01


@keras.saving.register_keras_serializable(package="k2e2e")
class Affine(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer=small_normal, name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, x):
        return tf.matmul(x, self.w) + self.b

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def twice(x):
    return x * 2.0


def _model():
    inputs = keras.Input((4,))
    x = Affine(3, name="affine")(inputs)
    outputs = keras.layers.Dense(1, kernel_initializer=keras.initializers.he_normal, bias_initializer=None,
                                 name="head")(x)
    return keras.Model(inputs, outputs)


def test_custom_layer_trains_saves_and_reloads(tmp_path):
    model = _model()
    assert [w.path for w in model.weights] == ["affine/w", "affine/b", "head/kernel", "head/bias"]
    assert model.layers[1].built and np.abs(model.layers[1].w.numpy()).max() < 0.1
    model.compile(optimizer="sgd", loss="mse")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 4)).astype("float32")
    y = rng.normal(size=(8, 1)).astype("float32")
    before = model.get_weights()
    model.fit(x, y, epochs=2, batch_size=8, verbose=0)
    after = model.get_weights()
    assert all(not np.array_equal(a, b) for a, b in zip(before, after))  # two steps moved every weight
    path = str(tmp_path / "custom.keras")
    model.save(path)
    config = json.loads(zipfile.ZipFile(path).read("config.json"))
    entry = config["config"]["layers"][1]
    # Keras 3.15.1 writes for this layer:
    assert entry["class_name"] == "Affine" and entry["module"] is None and entry["registered_name"] == "k2e2e>Affine"
    assert entry["build_config"] == {"input_shape": [None, 4]}
    assert entry["config"] == {"dtype": {"class_name": "DTypePolicy", "config": {"name": "float32"}, "module": "keras",
                                         "registered_name": None}, "name": "affine", "trainable": True, "units": 3}
    assert config["config"]["layers"][2]["config"]["bias_initializer"] is None
    restored = keras.models.load_model(path)
    assert type(restored.layers[1]) is Affine and restored.layers[1].built
    for a, b in zip(restored.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(restored.predict(x, verbose=0), model.predict(x, verbose=0))


def test_unregistered_activation_saves_and_needs_custom_objects_to_load(tmp_path):
    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras.layers.Dense(2, activation=twice)(inputs))
    path = str(tmp_path / "act.keras")
    model.save(path)
    written = json.loads(zipfile.ZipFile(path).read("config.json"))["config"]["layers"][1]["config"]["activation"]
    assert written == {"module": "builtins", "class_name": "function", "config": "twice",
                       "registered_name": "function"}  # Keras 3.15.1
    with pytest.raises(TypeError, match="Could not locate function 'twice'"):
        keras.models.load_model(path)
    x = np.ones((1, 2), np.float32)
    restored = keras.models.load_model(path, custom_objects={"twice": twice})
    assert restored.layers[1].activation is twice
    np.testing.assert_array_equal(restored.predict(x, verbose=0), model.predict(x, verbose=0))
    with keras.saving.custom_object_scope({"twice": twice}):
        assert keras.models.load_model(path).layers[1].activation is twice


class Ones(keras.layers.Layer):  # not registered
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, x):
        return x * self.w


def test_unregistered_layer_in_a_keras_file(tmp_path):
    inputs = keras.Input((2,))
    model = keras.Model(inputs, Ones(name="u")(inputs))
    path = str(tmp_path / "unregistered.keras")
    model.save(path)
    with pytest.raises(TypeError, match="Could not locate class 'Ones'"):
        keras.models.load_model(path)
    restored = keras.models.load_model(path, custom_objects={"Ones": Ones})
    assert restored.layers[1].built and restored.layers[1].w.numpy().tolist() == [1.0, 1.0]
