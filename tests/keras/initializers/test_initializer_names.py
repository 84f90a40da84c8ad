"""The names of `keras.initializers` (also `tf.initializers` and `tf.keras.initializers`) and what
`get`, `serialize` and `deserialize` make of them, as Keras 3.15.1 on TensorFlow 2.21 answers."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

I = keras.initializers

# dir(keras.initializers) in Keras 3.15.1, public names
KERAS_3_15_NAMES = [
    "Constant", "GlorotNormal", "GlorotUniform", "HeNormal", "HeUniform", "Identity", "IdentityInitializer",
    "Initializer", "LecunNormal", "LecunUniform", "Ones", "Orthogonal", "OrthogonalInitializer", "RandomNormal",
    "RandomUniform", "STFT", "STFTInitializer", "TruncatedNormal", "VarianceScaling", "Zeros", "constant",
    "deserialize", "get", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "identity", "lecun_normal",
    "lecun_uniform", "ones", "orthogonal", "random_normal", "random_uniform", "serialize", "stft",
    "truncated_normal", "variance_scaling", "zeros"]

# Keras 3.15: each lower-case name and *Initializer alias is the class itself
ALIASES = {"constant": "Constant", "zeros": "Zeros", "ones": "Ones", "identity": "Identity", "stft": "STFT",
           "random_normal": "RandomNormal", "random_uniform": "RandomUniform", "truncated_normal": "TruncatedNormal",
           "variance_scaling": "VarianceScaling", "orthogonal": "Orthogonal", "glorot_normal": "GlorotNormal",
           "glorot_uniform": "GlorotUniform", "he_normal": "HeNormal", "he_uniform": "HeUniform",
           "lecun_normal": "LecunNormal", "lecun_uniform": "LecunUniform", "IdentityInitializer": "Identity",
           "OrthogonalInitializer": "Orthogonal", "STFTInitializer": "STFT"}


def test_every_keras_3_15_name_is_there():
    assert len(KERAS_3_15_NAMES) == 39
    missing = [n for n in KERAS_3_15_NAMES if not hasattr(I, n)]
    assert missing == []


@pytest.mark.parametrize("namespace", ["initializers", "keras.initializers"])
def test_tensorflow_exposes_the_same_module(namespace):
    module = tf.initializers if namespace == "initializers" else tf.keras.initializers
    for name in KERAS_3_15_NAMES:
        assert getattr(module, name) is getattr(I, name), name


@pytest.mark.parametrize("alias,cls", sorted(ALIASES.items()))
def test_aliases_are_the_classes(alias, cls):
    assert getattr(I, alias) is getattr(I, cls)


# keras.initializers.get(<string>) -> type name, Keras 3.15.1
GET_STRINGS = {"identity": "Identity", "IdentityInitializer": "Identity", "Identity": "Identity",
               "truncated_normal": "TruncatedNormal", "variance_scaling": "VarianceScaling",
               "VarianceScaling": "VarianceScaling", "random_normal": "RandomNormal", "uniform": "RandomUniform",
               "normal": "RandomNormal", "one": "Ones", "zero": "Zeros", "RandomNormal": "RandomNormal",
               "GlorotUniform": "GlorotUniform", "he_normal": "HeNormal", "orthogonal": "Orthogonal",
               "OrthogonalInitializer": "Orthogonal", "Orthogonal": "Orthogonal", "Initializer": "Initializer",
               "stft": "STFT", "zeros": "Zeros", "glorot_uniform": "GlorotUniform", "lecun_normal": "LecunNormal"}


@pytest.mark.parametrize("name,cls", sorted(GET_STRINGS.items()))
def test_get_by_name(name, cls):
    assert type(I.get(name)).__name__ == cls


@pytest.mark.parametrize("bad", ["glorotUniform", "nope", 3])
def test_get_refuses_what_keras_refuses(bad):
    with pytest.raises(ValueError, match=f"Could not interpret initializer identifier: {bad}"):
        I.get(bad)


def test_get_instantiates_a_class_and_keeps_callables():
    assert type(I.get(I.Zeros)) is I.Zeros
    assert type(I.get(I.zeros)) is I.Zeros
    assert type(I.get(tf.keras.initializers.he_normal)) is I.HeNormal
    instance = I.GlorotUniform(seed=1)
    assert I.get(instance) is instance

    def fn(shape, dtype=None):
        return tf.zeros(shape)
    assert I.get(fn) is fn
    assert I.get(None) is None
    tf_init = tf.random_normal_initializer()
    assert I.get(tf_init) is tf_init


# get_config() of a default instance, Keras 3.15.1 (key order too)
CONFIGS = {
    "Constant": {"value": 0.0}, "Identity": {}, "Orthogonal": {"seed": None, "gain": 1.0},
    "TruncatedNormal": {"seed": None, "mean": 0.0, "stddev": 0.05},
    "RandomNormal": {"seed": None, "mean": 0.0, "stddev": 0.05},
    "RandomUniform": {"seed": None, "minval": -0.05, "maxval": 0.05},
    "VarianceScaling": {"seed": None, "scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal",
                        "input_axes": None, "output_axes": None},
    "GlorotUniform": {"seed": None, "input_axes": None, "output_axes": None}, "Zeros": {}, "Ones": {},
    "STFT": {"side": "real", "window": "hann", "periodic": False, "scaling": "density"},
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_default_configs(name):
    config = getattr(I, name)().get_config()
    assert list(config.items()) == list(CONFIGS[name].items())


def test_identity_leaves_gain_out_of_its_config_as_keras_does():
    assert I.Identity(gain=2.0).get_config() == {}


def test_serialize_and_deserialize():
    assert I.serialize(I.he_normal(seed=2)) == {"module": "keras.initializers", "class_name": "HeNormal",
                                                "config": {"seed": 2, "input_axes": None, "output_axes": None},
                                                "registered_name": None}
    assert I.serialize(I.Constant(2.0)) == {"module": "keras.initializers", "class_name": "Constant",
                                            "config": {"value": 2.0}, "registered_name": None}
    assert type(I.deserialize({"class_name": "zeros", "config": {}})) is I.Zeros
    assert type(I.deserialize("he_normal")) is I.HeNormal
    restored = I.deserialize(I.serialize(I.TruncatedNormal(mean=1.0, stddev=0.5, seed=4)))
    assert type(restored) is I.TruncatedNormal and restored.get_config() == {"seed": 4, "mean": 1.0, "stddev": 0.5}


def test_tensorflow_initializers_serialize_under_their_tensorflow_module():
    # Keras 3.15 on TF 2.21: serialize_keras_object(tf.random_normal_initializer())
    assert keras.utils.serialize_keras_object(tf.random_normal_initializer()) == {
        "module": "tensorflow.python.ops.init_ops_v2", "class_name": "RandomNormal",
        "config": {"mean": 0.0, "stddev": 0.05, "seed": None}, "registered_name": "RandomNormal"}


def test_variance_scaling_argument_errors():
    with pytest.raises(ValueError, match=r"Argument `scale` must be positive float. Received: scale=0"):
        I.VarianceScaling(scale=0)
    with pytest.raises(ValueError, match=r"Invalid `mode` argument: x. Please use one of"):
        I.VarianceScaling(mode="x")
    with pytest.raises(ValueError, match=r"Invalid `distribution` argument: x."):
        I.VarianceScaling(distribution="x")
    assert I.VarianceScaling(distribution="normal").get_config()["distribution"] == "truncated_normal"
    assert I.VarianceScaling(distribution="untruncated_normal").get_config()["distribution"] == "untruncated_normal"


def test_the_base_class_must_be_subclassed():
    with pytest.raises(NotImplementedError, match=r"Initializer subclasses must implement the `__call__\(\)` method."):
        I.Initializer()((2,))
    assert I.Initializer.from_config({}).get_config() == {}
