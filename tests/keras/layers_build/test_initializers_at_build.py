"""Every form of initializer Keras 3.15 accepts works when a layer is built by a call on
keras.Input or inside a tf.function: initial values are made eagerly, outside the trace."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

I = keras.initializers


def small_normal(shape, dtype=None):
    """A user initializer that calls TensorFlow ops."""
    return tf.random.normal(shape) * 0.01


FORMS = {
    "tf.random_normal_initializer": lambda: tf.random_normal_initializer(),
    "tf.random_uniform_initializer": lambda: tf.random_uniform_initializer(),
    "tf.zeros_initializer": lambda: tf.zeros_initializer(),
    "tf.ones_initializer": lambda: tf.ones_initializer(),
    "tf.constant_initializer": lambda: tf.constant_initializer(0.5),
    "tf.keras.initializers.GlorotUniform()": lambda: tf.keras.initializers.GlorotUniform(),
    "string glorot_uniform": lambda: "glorot_uniform",
    "string truncated_normal": lambda: "truncated_normal",
    "string identity": lambda: "identity",
    "string Zeros": lambda: "Zeros",
    "string TruncatedNormal": lambda: "TruncatedNormal",
    "keras.initializers.zeros": lambda: keras.initializers.zeros,
    "keras.initializers.he_normal": lambda: keras.initializers.he_normal,
    "tf.initializers.orthogonal": lambda: tf.initializers.orthogonal,
    "tf.keras.initializers.ones": lambda: tf.keras.initializers.ones,
    "user function": lambda: small_normal,
}
# what the (4, 4) kernel must be, where the form fixes it
EXACT = {"tf.zeros_initializer": np.zeros((4, 4)), "tf.ones_initializer": np.ones((4, 4)),
         "tf.constant_initializer": np.full((4, 4), 0.5), "string identity": np.eye(4),
         "string Zeros": np.zeros((4, 4)),
         "keras.initializers.zeros": np.zeros((4, 4)), "tf.keras.initializers.ones": np.ones((4, 4))}


def _check_kernel(name, kernel):
    value = np.asarray(kernel.numpy())
    assert value.shape == (4, 4) and value.dtype == np.float32
    if name in EXACT:
        np.testing.assert_array_equal(value, EXACT[name])
    elif name == "user function":
        assert 0 < value.std() < 0.05
    elif name == "tf.initializers.orthogonal":
        np.testing.assert_allclose(value @ value.T, np.eye(4), atol=1e-5)
    else:
        assert value.std() > 0


@pytest.mark.parametrize("name", sorted(FORMS))
def test_built_by_a_call_on_keras_input(name):
    layer = keras.layers.Dense(4, kernel_initializer=FORMS[name]())
    out = layer(keras.Input((4,)))
    assert tuple(out.shape) == (None, 4)
    _check_kernel(name, layer.kernel)


@pytest.mark.parametrize("name", sorted(FORMS))
def test_built_inside_tf_function(name):
    layer = keras.layers.Dense(4, kernel_initializer=FORMS[name]())

    @tf.function
    def step(x):
        return layer(x)
    out = step(tf.ones((2, 4)))
    assert tuple(out.shape) == (2, 4)
    _check_kernel(name, layer.kernel)
    # float32 sums of four kernel values: an output near 0 carries float32's absolute error, not a relative one
    np.testing.assert_allclose(out.numpy(), np.ones((2, 4)) @ layer.kernel.numpy() + layer.bias.numpy(), rtol=1e-5,
                               atol=1e-6)


def test_add_weight_with_a_user_function_in_a_functional_model():
    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer=small_normal, name="w")

        def call(self, x):
            return x * self.w

    inputs = keras.Input((3,))
    model = keras.Model(inputs, Scale()(inputs))
    w = model.layers[1].w.numpy()
    assert w.shape == (3,) and np.abs(w).max() < 0.1
    np.testing.assert_allclose(model(np.ones((1, 3), np.float32)).numpy(), w[None, :], rtol=1e-6)


def test_bias_initializer_none_draws_glorot_uniform_as_keras_does():
    layer = keras.layers.Dense(2, bias_initializer=None, kernel_initializer="ones")
    out = layer(np.ones((1, 3), np.float32)).numpy()
    assert [w.name for w in layer.weights] == ["kernel", "bias"]  # Keras 3.15: the bias is still made
    bias = layer.bias.numpy()
    # Keras 3.15: add_weight(initializer=None) is glorot_uniform for a float weight; a (2,) shape has
    # fan_in = fan_out = 2, so |b| <= sqrt(6 / 4)
    assert np.all(np.abs(bias) <= np.sqrt(1.5)) and np.any(bias != 0)
    np.testing.assert_allclose(out, 3.0 + bias[None, :], rtol=1e-6)
    assert layer.get_config()["bias_initializer"] is None


def test_kernel_initializer_none_and_integer_weights():
    layer = keras.layers.Dense(2, kernel_initializer=None)
    assert tuple(layer(np.ones((1, 3), np.float32)).shape) == (1, 2)
    assert np.any(layer.kernel.numpy() != 0)
    holder = keras.layers.Layer()
    counter = holder.add_weight(shape=(2,), initializer=None, dtype="int32", trainable=False)
    assert counter.numpy().tolist() == [0, 0]  # Keras 3.15: zeros for a non-float weight
