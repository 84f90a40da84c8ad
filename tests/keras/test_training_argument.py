"""A layer whose call() requires `training` gets it from the call or the outer call, as Keras 3 passes it, and
raises Keras' TypeError when neither gives one (Keras 3.15 on TensorFlow 2.21: "missing a required argument:
'training'"), instead of running with training=None."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


class Doubles(keras.layers.Layer):
    def call(self, x, training):
        return x * 2 if training else x


class Wrapper(keras.Model):
    def __init__(self):
        super().__init__()
        self.inner = Doubles()
        self.out = keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)

    def call(self, x, training=None):
        return self.out(self.inner(x))


def test_a_required_training_argument_not_given_raises_keras_type_error():
    with pytest.raises(TypeError, match=r"^missing a required argument: 'training'$"):
        Doubles()(tf.ones([2]))
    with pytest.raises(TypeError, match=r"^missing a required argument: 'training'$"):
        Doubles()(keras.Input((3,)))
    with pytest.raises(TypeError, match=r"^missing a required argument: 'training'$"):
        Wrapper()(np.ones((2, 3), np.float32))


def test_given_directly_or_by_the_outer_call_it_is_used():
    assert Doubles()(tf.ones([2]), training=True).numpy().tolist() == [2.0, 2.0]
    assert Doubles()(tf.ones([2]), training=False).numpy().tolist() == [1.0, 1.0]
    model = Wrapper()
    assert model(np.ones((1, 3), np.float32), training=True).numpy().tolist() == [[6.0]]
    assert model(np.ones((1, 3), np.float32), training=False).numpy().tolist() == [[3.0]]
    # fit passes training=True and predict training=False down to the inner layer, as Keras does.
    model.compile("sgd", "mse")
    model.fit(np.ones((4, 3)), np.ones((4, 1)), epochs=1, verbose=0)
    assert model.predict(np.ones((2, 3)), verbose=0).shape == (2, 1)
