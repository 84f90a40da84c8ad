"""Keras 3.15's VarianceScaling family (VarianceScaling, Glorot*, He*, Lecun*) takes `input_axes` and
`output_axes` (the axes whose sizes multiply into fan_in and fan_out, used when both are given) and
writes them in get_config; Orthogonal and the plain random initializers do not. Configs are Keras
3.15's; a config written before (without the keys) still loads."""
import json

import numpy as np
import pytest

from eagerflow import keras

I = keras.initializers
AXES = {"input_axes": None, "output_axes": None}


@pytest.mark.parametrize("name", ["GlorotNormal", "GlorotUniform", "HeNormal", "HeUniform", "LecunNormal",
                                  "LecunUniform"])
def test_presets_write_their_seed_and_axes(name):
    assert getattr(I, name)().get_config() == {"seed": None, **AXES}  # Keras 3.15, key order too
    assert list(getattr(I, name)().get_config()) == ["seed", "input_axes", "output_axes"]
    assert getattr(I, name)(seed=3, input_axes=[0], output_axes=[1]).get_config() == {
        "seed": 3, "input_axes": [0], "output_axes": [1]}


def test_variance_scaling_and_the_others_write_keras_keys():
    assert list(I.VarianceScaling().get_config().items()) == [
        ("seed", None), ("scale", 1.0), ("mode", "fan_in"), ("distribution", "truncated_normal"),
        ("input_axes", None), ("output_axes", None)]
    assert I.VarianceScaling(input_axes=[0], output_axes=[1]).get_config()["input_axes"] == [0]
    assert I.Orthogonal().get_config() == {"seed": None, "gain": 1.0}
    assert I.RandomNormal().get_config() == {"seed": None, "mean": 0.0, "stddev": 0.05}
    assert I.RandomUniform().get_config() == {"seed": None, "minval": -0.05, "maxval": 0.05}
    assert isinstance(I.get("lecun_normal"), I.LecunNormal) and isinstance(I.get("lecun_uniform"), I.LecunUniform)


def test_the_axes_choose_the_fans():
    # shape (2, 3, 4) with input_axes [0, 1], output_axes [2]: fan_in 6, fan_out 4 (by rank: 3*2 and 4*2)
    assert I.compute_fans((2, 3, 4), [0, 1], [2]) == (6, 4)
    assert I.compute_fans((2, 3, 4)) == (6, 8)
    assert I.compute_fans((2, 3, 4), [0, 1], None) == (6, 8)  # both or neither, as in Keras
    draw = I.VarianceScaling(scale=1.0, mode="fan_in", distribution="uniform", seed=1, input_axes=[0, 1],
                             output_axes=[2])((20, 30, 40))
    limit = np.sqrt(3.0 / 600)  # fan_in = 20 * 30
    assert np.abs(draw).max() <= limit and np.abs(draw).max() > 0.99 * limit
    he = I.HeUniform(seed=1, input_axes=[2], output_axes=[0])((20, 30, 40))
    assert np.abs(he).max() <= np.sqrt(6.0 / 40) and np.abs(he).max() > 0.99 * np.sqrt(6.0 / 40)


def test_configs_without_the_axes_still_load():
    old = {"module": "keras.initializers", "class_name": "GlorotUniform", "config": {"seed": 7},
           "registered_name": None}
    init = I.deserialize(old)
    assert isinstance(init, I.GlorotUniform) and init.get_config() == {"seed": 7, **AXES}
    layer = keras.layers.Dense.from_config({"name": "d", "units": 2, "kernel_initializer": old})
    assert layer.get_config()["kernel_initializer"]["config"] == {"seed": 7, **AXES}
    assert I.VarianceScaling.from_config({"seed": None, "scale": 2.0, "mode": "fan_out",
                                          "distribution": "uniform"}).get_config()["mode"] == "fan_out"


def test_a_keras_file_round_trips_the_axes(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(
        2, kernel_initializer=I.LecunNormal(seed=1, input_axes=[0], output_axes=[1]))])
    path = str(tmp_path / "m.keras")
    model.save(path)
    again = keras.models.load_model(path)
    config = again.layers[0].get_config()["kernel_initializer"]
    assert config["class_name"] == "LecunNormal"
    assert json.loads(json.dumps(config["config"])) == {"seed": 1, "input_axes": [0], "output_axes": [1]}
    np.testing.assert_array_equal(again.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())
