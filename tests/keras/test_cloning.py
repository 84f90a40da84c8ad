"""keras.models.clone_model, model.to_json / keras.models.model_from_json, and the inputs/outputs
lists of functional and Sequential models, as TensorFlow 2.21's Keras 3 behaves (its outputs on the
same programs are written in here)."""
import json

import numpy as np
import pytest

from eagerflow import keras

X = np.ones((2, 4), "float32")


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _sequential():
    keras.utils.set_random_seed(0)
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dense(2)],
                            name="seq")


def test_to_json_and_model_from_json_rebuild_the_architecture():
    m = _sequential()
    text = m.to_json()
    config = json.loads(text)
    # Keras 3: ['build_config', 'class_name', 'compile_config', 'config', 'module', 'registered_name'] Sequential keras
    assert sorted(config) == ["build_config", "class_name", "compile_config", "config", "module", "registered_name"]
    assert (config["class_name"], config["module"]) == ("Sequential", "keras")
    assert sorted(config["config"]) == ["build_input_shape", "dtype", "layers", "name", "trainable"]
    rebuilt = keras.models.model_from_json(text)
    assert rebuilt.name == "seq" and [layer.name for layer in rebuilt.layers] == ["dense", "dense_1"]
    assert [w.shape for w in rebuilt.get_weights()] == [(4, 3), (3,), (3, 2), (2,)]
    assert m.to_json(indent=2).startswith('{\n  "module": "keras",\n  "class_name": "')
    with pytest.raises(json.JSONDecodeError):
        keras.models.model_from_json("{bad")


def test_clone_model_has_the_architecture_and_new_weights():
    m = _sequential()
    c = keras.models.clone_model(m)
    assert (c.name, [layer.name for layer in c.layers], len(c.weights), c.built) == ("seq", ["dense", "dense_1"], 4,
                                                                                      True)
    assert not np.allclose(c(X), m(X))  # freshly initialised
    c.set_weights(m.get_weights())
    np.testing.assert_allclose(c(X), m(X), rtol=1e-6)
    renamed = keras.models.clone_model(
        m, clone_function=lambda layer: layer.__class__.from_config({**layer.get_config(), "name": layer.name + "_c"}))
    assert [layer.name for layer in renamed.layers] == ["dense_c", "dense_1_c"]


def test_clone_functional_model_keeps_names_inputs_and_shared_layers():
    inp = keras.Input((4,), name="feat")
    shared = keras.layers.Dense(4, name="shared")
    out = keras.layers.Dense(1, name="out")(shared(shared(inp)))
    f = keras.Model(inp, out, name="func")
    fc = keras.models.clone_model(f)
    # Keras 3: func ['feat', 'shared', 'out'] ['feat']
    assert (fc.name, [layer.name for layer in fc.layers], [t.name for t in fc.inputs]) == (
        "func", ["feat", "shared", "out"], ["feat"])
    assert len(fc.weights) == 4  # the shared layer is cloned once
    fc.set_weights(f.get_weights())
    np.testing.assert_allclose(fc(X), f(X), rtol=1e-6)
    f2 = keras.models.model_from_json(f.to_json())
    assert [layer.name for layer in f2.layers] == ["feat", "shared", "out"]


def test_clone_of_a_subclassed_model_refuses_clone_function():
    class Net(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.d = keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)
    with pytest.raises(ValueError, match="Arguments `clone_function` and `input_tensors` are only supported for "
                                         "Sequential models or Functional models. Received model of type 'Net'"):
        keras.models.clone_model(Net(), clone_function=lambda layer: layer)


def test_inputs_and_outputs_are_flat_lists_input_and_output_the_structure():
    i = keras.Input((3,))
    o = keras.layers.Dense(2)(i)
    m = keras.Model(i, o)
    # Keras 3: <class 'list'> <class 'list'> KerasTensor KerasTensor
    assert isinstance(m.inputs, list) and isinstance(m.outputs, list)
    assert m.input is i and m.output is o and m.inputs == [i] and m.outputs == [o]
    s = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    assert [t.shape for t in s.inputs] == [(None, 3)] and [t.shape for t in s.outputs] == [(None, 2)]
    assert not hasattr(keras.Sequential([keras.layers.Dense(2)]), "inputs")  # never called: no inputs yet
    s.add(keras.layers.Dense(5))
    s.pop()
    assert [t.shape for t in s.outputs] == [(None, 2)]
