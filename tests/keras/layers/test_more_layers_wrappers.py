"""Pipeline, Wrapper and InputSpec against Keras 3.15.1's recorded behaviour: weight paths under the
outer layer, configs, round trips, and the messages Keras gives."""
import numpy as np
import pytest

from eagerflow import keras

L = keras.layers


def test_pipeline_chains_layers_with_weights_under_its_name():
    keras.backend.clear_session()
    pipeline = L.Pipeline([L.Rescaling(2.0), L.Dense(2)])
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    pipeline(x)
    # Keras 3.15: ['pipeline/dense/kernel', 'pipeline/dense/bias'], config keys ['layers', 'name']
    assert [w.path for w in pipeline.weights] == ["pipeline/dense/kernel", "pipeline/dense/bias"]
    kernel, bias = np.arange(6, dtype=np.float32).reshape(3, 2) / 10, np.array([1.0, -1.0], np.float32)
    pipeline.set_weights([kernel, bias])
    np.testing.assert_allclose(np.asarray(pipeline(x)), (2 * x) @ kernel + bias, rtol=1e-6)
    config = pipeline.get_config()
    assert list(config) == ["layers", "name"] and config["name"] == "pipeline"
    assert [c["class_name"] for c in config["layers"]] == ["Rescaling", "Dense"]
    clone = L.Pipeline.from_config(config)
    assert [type(layer).__name__ for layer in clone.layers] == ["Rescaling", "Dense"]
    assert L.Pipeline([L.Rescaling(1.0)]).name == "pipeline_1"


def test_pipeline_augments_by_default_and_not_when_training_is_false():
    """Keras' Pipeline.call defaults training=True, so its augmentation layers run outside fit."""
    images = np.random.default_rng(0).random((16, 4, 5, 1)).astype(np.float32)
    pipeline = L.Pipeline([L.RandomFlip("horizontal", seed=3)])
    np.testing.assert_array_equal(np.asarray(pipeline(images, training=False)), images)
    flipped = np.asarray(pipeline(images))
    changed = [not np.array_equal(f, i) for f, i in zip(flipped, images)]
    assert any(changed)
    for f, i, c in zip(flipped, images, changed):
        np.testing.assert_array_equal(f, i[:, ::-1] if c else i)


def test_wrapper_subclass_builds_its_layer_inside_and_serializes_it():
    class Doubled(L.Wrapper):
        def call(self, x):
            return self.layer(x) * 2

    keras.backend.clear_session()
    wrapper = Doubled(L.Dense(2, kernel_initializer="ones"))
    y = wrapper(np.ones((1, 3), np.float32))
    np.testing.assert_allclose(np.asarray(y), [[6.0, 6.0]])
    # Keras 3.15: ['doubled/dense/kernel', 'doubled/dense/bias'], config name/trainable/dtype/layer
    assert [w.path for w in wrapper.weights] == ["doubled/dense/kernel", "doubled/dense/bias"]
    assert list(wrapper.get_config()) == ["name", "trainable", "dtype", "layer"]
    assert wrapper.get_config()["layer"]["class_name"] == "Dense"
    with pytest.raises(ValueError, match="Layer 3 supplied to Wrapper isn't a supported layer type. Please ensure "
                                         "wrapped layer is a valid Keras layer."):
        L.Wrapper(3)


def test_input_spec_config_and_repr():
    # Keras 3.15's answers
    spec = L.InputSpec(ndim=3, axes={-1: 4})
    assert spec.get_config() == {"dtype": None, "shape": None, "ndim": 3, "max_ndim": None, "min_ndim": None,
                                 "axes": {-1: 4}, "optional": False}
    assert repr(spec) == "InputSpec(ndim=3, axes={-1: 4})"
    shaped = L.InputSpec(shape=(None, 3))
    assert shaped.ndim == 2 and shaped.get_config()["shape"] == (None, 3)
    assert L.InputSpec.from_config(spec.get_config()).get_config() == spec.get_config()
