"""Optimizer steps against their update formulas in NumPy and TensorFlow 2.21's results."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras



@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


GRADS = ([0.5, 1.0], [0.1, -0.3], [1.0, 1.0])


def _run(opt, in_function=False):
    v = tf.Variable([1.0, -2.0])

    def step(g):
        opt.apply_gradients(zip([g], [v]))

    f = tf.function(step) if in_function else step
    for g in GRADS:
        f(tf.constant(g))
    return v.numpy()


def _np_adam(lr, b1, b2, eps, wd=0.0):
    x, m, s = np.array([1.0, -2.0]), np.zeros(2), np.zeros(2)
    for t, g in enumerate(GRADS, 1):
        g = np.array(g)
        x = x - x * wd * lr
        m += (g - m) * (1 - b1)
        s += (g * g - s) * (1 - b2)
        x = x - lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(s) + eps)  # eps outside the correction
    return x


@pytest.mark.parametrize("in_function", [False, True])
def test_adam_matches_formula_and_keras(in_function):
    opt = keras.optimizers.Adam(learning_rate=0.1, epsilon=0.5)
    got = _run(opt, in_function)
    np.testing.assert_allclose(got, _np_adam(0.1, 0.9, 0.999, 0.5), rtol=1e-6)
    np.testing.assert_allclose(got, [0.9887872338294983, -2.0142979621887207], rtol=1e-6)  # TF 2.21
    assert int(opt.iterations.numpy()) == 3
    assert [v.path for v in opt.variables][:2] == ["adam/iteration", "adam/learning_rate"]


def test_adam_defaults():
    opt = keras.optimizers.Adam()
    assert (opt.beta_1, opt.beta_2, opt.epsilon) == (0.9, 0.999, 1e-7)
    assert float(opt.learning_rate.numpy()) == pytest.approx(0.001)


def test_adamw_decoupled_weight_decay():
    got = _run(keras.optimizers.AdamW(learning_rate=0.1))
    np.testing.assert_allclose(got, _np_adam(0.1, 0.9, 0.999, 1e-7, wd=0.004), rtol=1e-5)  # float32 vs float64
    np.testing.assert_allclose(got, [0.7335138916969299, -2.208369731903076], rtol=1e-6)


@pytest.mark.parametrize("in_function", [False, True])
def test_rmsprop_matches_formula(in_function):
    got = _run(keras.optimizers.RMSprop(learning_rate=0.1), in_function)
    x, s = np.array([1.0, -2.0]), np.zeros(2)
    for g in GRADS:
        g = np.array(g)
        s = 0.9 * s + 0.1 * g * g
        x = x - 0.1 * g / np.sqrt(s + 1e-7)  # eps inside the square root
    np.testing.assert_allclose(got, x, rtol=1e-5)
    np.testing.assert_allclose(got, [0.3312385380268097, -2.4508423805236816], rtol=1e-5)


@pytest.mark.parametrize("nesterov", [False, True])
def test_sgd_momentum_matches_formula(nesterov):
    got = _run(keras.optimizers.SGD(learning_rate=0.1, momentum=0.9, nesterov=nesterov), in_function=True)
    x, m = np.array([1.0, -2.0]), np.zeros(2)
    for g in GRADS:
        g = np.array(g)
        m = 0.9 * m - 0.1 * g
        x = x + (0.9 * m - 0.1 * g if nesterov else m)
    np.testing.assert_allclose(got, x, rtol=1e-6)
    if nesterov:
        np.testing.assert_allclose(got, [0.6109499931335449, -2.4526000022888184], rtol=1e-6)


def test_gradient_clipping_options():
    v = tf.Variable([1.0, -2.0])
    keras.optimizers.SGD(learning_rate=0.1, clipnorm=0.5).apply_gradients([(tf.constant([3., 4.]), v)])
    np.testing.assert_allclose(v.numpy(), [0.97, -2.04], rtol=1e-6)
    v, w = tf.Variable([1.0, -2.0]), tf.Variable([1.0])
    keras.optimizers.SGD(learning_rate=0.1, global_clipnorm=1.0).apply_gradients(
        [(tf.constant([3., 4.]), v), (tf.constant([12.]), w)])
    np.testing.assert_allclose(v.numpy(), [0.9769230484962463, -2.0307693481445312], rtol=1e-6)
    np.testing.assert_allclose(w.numpy(), [0.9076923131942749], rtol=1e-6)
    v = tf.Variable([1.0, -2.0])
    keras.optimizers.SGD(learning_rate=0.1, clipvalue=0.5).apply_gradients([(tf.constant([3., -4.]), v)])
    np.testing.assert_allclose(v.numpy(), [0.95, -1.95], rtol=1e-6)


def test_exponential_decay_schedule_and_its_use():
    s = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    np.testing.assert_allclose([float(s(i)) for i in (0, 5, 10, 25)],
                               [0.1, 0.0707106813788414, 0.05, 0.01767767034471035], rtol=1e-6)
    stair = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True)
    assert float(stair(25)) == pytest.approx(0.025)
    v = tf.Variable([0.0])
    opt = keras.optimizers.SGD(learning_rate=keras.optimizers.schedules.ExponentialDecay(1.0, 1, 0.5))

    @tf.function
    def step():
        opt.apply_gradients([(tf.constant([1.0]), v)])

    for _ in range(3):
        step()
    np.testing.assert_allclose(v.numpy(), [-(1 + 0.5 + 0.25)], rtol=1e-6)


def test_slots_are_created_on_the_first_traced_call_only():
    v = tf.Variable([1.0])
    opt = keras.optimizers.Adam()

    @tf.function
    def step(g):
        opt.apply_gradients([(g, v)])

    step(tf.constant([1.0]))
    n = len(opt.variables)
    step(tf.constant([2.0]))
    step(tf.constant([[2.0]])[0])
    assert len(opt.variables) == n == 4


@pytest.mark.parametrize("in_function", [False, True])
def test_fused_adam_keeps_earlier_reads_unchanged(in_function):
    """The fused Adam op updates in place only when nothing else holds the variable's array."""
    v = tf.Variable([1.0, -2.0])
    opt = keras.optimizers.Adam(learning_rate=0.1)
    before = v.read_value()
    held = v.numpy()
    view = tf.reshape(v, [2, 1])

    def step():
        opt.apply_gradients([(tf.constant([0.5, 1.0]), v)])

    (tf.function(step) if in_function else step)()
    np.testing.assert_array_equal(before.numpy(), [1.0, -2.0])
    np.testing.assert_array_equal(view.numpy(), [[1.0], [-2.0]])
    np.testing.assert_array_equal(held, [1.0, -2.0])
    np.testing.assert_allclose(v.numpy(), [0.9, -2.1], rtol=1e-5)  # first Adam step moves each weight by lr
