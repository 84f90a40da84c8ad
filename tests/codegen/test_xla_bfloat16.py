"""bfloat16 under jit_compile=True (through JAX's jnp.bfloat16), against TensorFlow 2.21's XLA.

Where TensorFlow's XLA and its eager kernels agree, the compiled result equals the NumPy path's
bit for bit. Where they differ, we follow XLA as TensorFlow's jit_compile=True does: XLA's cumsum
accumulates in float32 (452 for the 300 values where eager TensorFlow's bfloat16 scan gives 412),
and its softmax and rsqrt round once rather than per step.
"""
import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("ml_dtypes")

import eagerflow as tf  # noqa: E402

b = tf.bfloat16
X = [[0.3, -1.7, 2.5], [4.1, 0.01, -0.6]]
Y = [[1.3, 0.7, -2.5], [0.2, 3.01, 1.6]]

SAME_AS_EAGER = {
    "mul": lambda x, y, v: x * y,
    "exp": lambda x, y, v: tf.exp(x),
    "sum": lambda x, y, v: tf.reduce_sum(v),
    "matmul": lambda x, y, v: tf.matmul(tf.reshape(v, [1, 300]), tf.reshape(v, [300, 1])),
    "sqdiff": lambda x, y, v: tf.math.squared_difference(x, y),
    "div": lambda x, y, v: x / y,
    "reciprocal": lambda x, y, v: tf.math.reciprocal(y),
    "cast": lambda x, y, v: tf.cast(x, tf.float32),
    "cast_in": lambda x, y, v: tf.cast(tf.cast(x, tf.float32) * 1.1, b),
    "mean": lambda x, y, v: tf.reduce_mean(x),
    "log_softmax": lambda x, y, v: tf.nn.log_softmax(x),
    "add_n": lambda x, y, v: tf.add_n([x, y, x]),
    "tanh": lambda x, y, v: tf.tanh(x),
    "leaky_relu": lambda x, y, v: tf.nn.leaky_relu(x),
}

# TensorFlow 2.21 with jit_compile=True (its eager kernels give other values for these)
XLA_VALUES = {
    "cumsum": (lambda x, y, v: tf.math.cumsum(v)[-1], 452.0),
    "softmax": (lambda x, y, v: tf.nn.softmax(x), [[0.09814453125, 0.01348876953125, 0.890625],
                                                   [0.9765625, 0.016357421875, 0.009033203125]]),
    "rsqrt": (lambda x, y, v: tf.math.rsqrt(tf.abs(x)), [[1.8203125, 0.765625, 0.6328125],
                                                         [0.494140625, 10.0, 1.2890625]]),
}


def _args():
    v = tf.cast(tf.range(1, 301), b) * tf.constant(0.01, b)
    return tf.constant(X, b), tf.constant(Y, b), v


@pytest.mark.parametrize("name", sorted(SAME_AS_EAGER))
def test_compiled_equals_eager(name):
    fn = SAME_AS_EAGER[name]
    eager = fn(*_args())
    compiled = tf.function(fn, jit_compile=True)(*_args())
    assert compiled.dtype is eager.dtype
    np.testing.assert_array_equal(np.asarray(compiled.numpy()).astype(float), np.asarray(eager.numpy()).astype(float))


@pytest.mark.parametrize("name", sorted(XLA_VALUES))
def test_compiled_matches_tensorflow_xla(name):
    fn, expected = XLA_VALUES[name]
    compiled = tf.function(fn, jit_compile=True)(*_args())
    assert compiled.dtype is b
    np.testing.assert_array_equal(np.asarray(compiled.numpy()).astype(float), expected)


def test_compiled_gradient_of_a_bfloat16_variable():
    w = tf.Variable(tf.constant(X, b))
    y = tf.constant(Y, b)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.tanh(w) * y)
        return tape.gradient(loss, w)

    # TensorFlow 2.21 (eager): the gradient of sum(tanh(w) * y)
    expected = [[1.1875, 0.08447265625, -0.05859375], [0.0, 3.015625, 1.140625]]
    np.testing.assert_array_equal(step().numpy().astype(float), expected)
    compiled = tf.function(step, jit_compile=True)()
    assert compiled.dtype is b
    np.testing.assert_allclose(compiled.numpy().astype(float), expected, atol=2 ** -7)


def test_compiled_mixed_bfloat16_fit_matches_keras():
    keras = tf.keras
    keras.mixed_precision.set_global_policy("mixed_bfloat16")
    try:
        inp = keras.Input((4,))
        m = keras.Model(inp, keras.layers.Dense(1)(keras.layers.Dense(8, activation="relu")(inp)))
        m.set_weights([np.linspace(-0.5, 0.5, 32).reshape(4, 8).astype(np.float32), np.zeros(8, np.float32),
                       np.linspace(-0.3, 0.4, 8).reshape(8, 1).astype(np.float32), np.zeros(1, np.float32)])
        m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", jit_compile=True)
        x = np.random.default_rng(0).normal(size=(64, 4)).astype(np.float32)
        history = m.fit(x, x.sum(1, keepdims=True) * 0.5, epochs=3, batch_size=16, verbose=0, shuffle=False)
    finally:
        keras.mixed_precision.set_global_policy(None)
    # Keras 3.15 on TensorFlow 2.21 (not compiled), same weights and data
    np.testing.assert_allclose(history.history["loss"], [0.8505845069885254, 0.7065494060516357,
                                                         0.5681898593902588], rtol=2e-3)
