"""Layer construction and build as Keras 3.15.1 does them: a user-written build() marks the layer
built (also when called directly) and records its build_config; activation None set after
construction; InputLayer's Keras 2 argument names; which names a layer or model may have."""
import warnings

import numpy as np
import pytest

from eagerflow import keras


class Base(keras.layers.Layer):
    def build(self, input_shape):
        self.seen_built_in_base = self.built
        self.a = self.add_weight(shape=(input_shape[-1],), name="a")


class Sub(Base):
    def build(self, input_shape):
        super().build(input_shape)
        self.seen_built_after_super = self.built
        self.b = self.add_weight(shape=(1,), name="b")


def test_direct_build_call_marks_built_once_the_outermost_build_returns():
    layer = Sub()
    assert layer.built is False
    layer.build((None, 5))
    # Keras 3.15: built is False inside both builds, True after; weights tracked; build_config kept
    assert layer.seen_built_in_base is False and layer.seen_built_after_super is False
    assert layer.built is True
    assert [w.name for w in layer.weights] == ["a", "b"]
    assert [tuple(w.shape) for w in layer.trainable_weights] == [(5,), (1,)]
    assert layer.get_build_config() == {"input_shape": [None, 5]}  # Keras: (None, 5); saved as a list


def test_layer_without_build_is_built_by_its_first_call():
    class NoBuild(keras.layers.Layer):
        def call(self, x):
            return x
    layer = NoBuild()
    assert layer.built is False
    layer(np.ones((1, 2), np.float32))
    assert layer.built is True and layer.get_build_config() == {"input_shape": [1, 2]}


def test_activation_none_after_construction_is_linear():
    layer = keras.layers.Dense(2, activation="relu", kernel_initializer="ones", bias_initializer="zeros")
    layer.activation = None
    # Keras 3.15: [[-3.0, -3.0]] (relu would give zeros)
    assert layer(-np.ones((1, 3), np.float32)).numpy().tolist() == [[-3.0, -3.0]]
    conv = keras.layers.Conv1D(1, 1, activation="relu", kernel_initializer="ones")
    conv.activation = None
    assert conv(-np.ones((1, 2, 1), np.float32)).numpy().ravel().tolist() == [-1.0, -1.0]


def test_input_layer_takes_input_shape_with_keras_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer = keras.layers.InputLayer(input_shape=(3,))
    messages = [(w.category, str(w.message)) for w in caught if "input_shape" in str(w.message)]
    assert messages == [(UserWarning, "Argument `input_shape` is deprecated. Use `shape` instead.")]
    assert tuple(layer.output.shape) == (None, 3)
    assert tuple(layer.get_config()["batch_shape"]) == (None, 3)
    assert tuple(keras.layers.InputLayer(batch_input_shape=(2, 3)).output.shape) == (2, 3)


def test_empty_names_are_accepted():
    inputs = keras.Input((3,))
    assert keras.layers.Dense(2, name="").name == ""
    assert keras.Model(inputs, keras.layers.Dense(2)(inputs), name="").name == ""
    assert keras.Sequential([keras.layers.Dense(2)], name="").name == ""


@pytest.mark.parametrize("name,shown", [("a/b", "a/b (of type <class 'str'>)"), (3, "3 (of type <class 'int'>)")])
def test_names_keras_refuses(name, shown):
    with pytest.raises(ValueError) as info:
        keras.layers.Dense(2, name=name)
    assert str(info.value) == ("Argument `name` must be a string and cannot contain character `/`. "
                               f"Received: name={shown}")


def test_input_named_empty():
    x = keras.Input((3,), name="")
    # Keras 3.15: the InputLayer is named "", its tensor gets the automatic name
    assert x._keras_history.layer.name == ""
    assert x.name.startswith("keras_tensor")
    with pytest.raises(ValueError, match="Argument `name` must be a string and cannot contain character `/`"):
        keras.Input((3,), name="a/b")
