"""Model.input_shape / output_shape as Keras 3.15 reports them (values and message written in)."""
import pytest

import eagerflow as tf

keras = tf.keras
L = keras.layers


def test_sequential_shapes():
    m = keras.Sequential([keras.Input((6,)), L.Dense(4), L.Dense(2)])
    assert m.output_shape == (None, 2) and m.input_shape == (None, 6)
    unbuilt = keras.Sequential([L.Dense(2)], name="unbuilt")
    with pytest.raises(AttributeError, match="Sequential model 'unbuilt' has no defined output shape yet."):
        unbuilt.output_shape


def test_functional_shapes():
    i = keras.Input((6,))
    two = keras.Model(i, [L.Dense(2)(i), L.Dense(3)(i)])
    assert two.output_shape == [(None, 2), (None, 3)] and two.input_shape == (None, 6)
    j = keras.Input((6,))
    assert keras.Model(j, L.Dense(2)(j)).output_shape == (None, 2)
