"""A `keras.Model` subclass constructed the functional way, `M(inputs=..., outputs=...)` or through
`super().__init__(inputs=..., outputs=...)` in its own __init__: Keras 3 makes it a Functional model
with the subclass's methods. Its weights are its graph's; it calls, trains, summarises and saves like a
functional model. Values recorded from Keras 3.15.1 on TensorFlow 2.21."""
import numpy as np
import pytest

from eagerflow import keras
from eagerflow.keras import layers


class StepCounting(keras.Model):
    def train_step(self, data):
        self.steps_traced = getattr(self, "steps_traced", 0) + 1
        return super().train_step(data)


class Widening(keras.Model):
    def __init__(self, units=2, **kwargs):
        inp = keras.Input((3,))
        super().__init__(inputs=inp, outputs=layers.Dense(units, kernel_initializer="ones")(inp), **kwargs)
        self.units = units

    def get_config(self):
        return {"units": self.units, "name": self.name}


def _step_counting():
    inp = keras.Input((3,), name="xin")
    return StepCounting(inputs=inp, outputs=layers.Dense(2, name="d", kernel_initializer="ones")(inp), name="msub")


def test_subclass_with_inputs_and_outputs_is_functional_with_its_graphs_weights():
    model = _step_counting()
    assert isinstance(model, keras.Model) and type(model) is StepCounting
    assert [c.__name__ for c in type(model).__mro__[:3]] == ["StepCounting", "Functional", "Model"]
    assert [w.path for w in model.weights] == ["d/kernel", "d/bias"]
    assert model.built and [l.name for l in model.layers] == ["xin", "d"]
    assert model.count_params() == 8
    assert model.input_shape == (None, 3) and model.output_shape == (None, 2)
    np.testing.assert_array_equal(model(np.ones((1, 3))).numpy(), [[3.0, 3.0]])
    assert list(model.get_config()) == ["name", "trainable", "layers", "input_layers", "output_layers"]
    assert model.get_config()["input_layers"] == ["xin", 0, 0]


def test_subclass_trains_through_its_own_train_step_and_reloads(tmp_path):
    model = _step_counting()
    model.compile("sgd", "mse")
    history = model.fit(np.ones((4, 3)), np.zeros((4, 2)), epochs=2, verbose=0, batch_size=2)
    assert model.steps_traced >= 1
    np.testing.assert_allclose(history.history["loss"], [8.6472, 7.3445], atol=1e-4)
    model.save(tmp_path / "m.keras")
    again = keras.models.load_model(tmp_path / "m.keras", custom_objects={"StepCounting": StepCounting})
    assert type(again) is StepCounting
    np.testing.assert_allclose(again(np.ones((1, 3))).numpy(), [[2.548039674758911] * 2], rtol=1e-6)


def test_subclass_with_own_init_and_config_saves_and_reloads(tmp_path):
    model = Widening(units=4, name="nsub")
    assert len(model.weights) == 2 and model.count_params() == 16
    np.testing.assert_array_equal(model(np.ones((1, 3))).numpy(), [[3.0] * 4])
    lines = []
    model.summary(print_fn=lines.append)
    assert lines[0] == 'Model: "nsub"' and lines[-3] == " Total params: 16 (64.00 B)"
    model.save(tmp_path / "n.keras")
    again = keras.models.load_model(tmp_path / "n.keras", custom_objects={"Widening": Widening})
    assert type(again) is Widening and again.units == 4
    np.testing.assert_array_equal(again(np.ones((1, 3))).numpy(), [[3.0] * 4])


def test_plain_subclass_without_inputs_stays_a_subclassed_model():
    class Plain(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    model = Plain()
    assert "Functional" not in [c.__name__ for c in type(model).__mro__]
    assert model(np.ones((1, 3))).shape == (1, 2)


def test_non_keras_tensor_inputs_are_refused_as_keras_does():
    with pytest.raises(ValueError, match="All `inputs` values must be KerasTensors"):
        StepCounting(inputs=np.ones((1, 3)), outputs=keras.Input((2,)))
