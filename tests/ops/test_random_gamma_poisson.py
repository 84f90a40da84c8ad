"""tf.random.gamma / tf.random.poisson: seeded draws (TensorFlow's seed rules; NumPy's streams),
shapes, moments, and the reparameterization gradient of gamma (RandomGammaGrad, whose values
below are TensorFlow 2.21's)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.random.gamma_poisson import RandomGammaGrad
from eagerflow._src.ops.registry import bind


def test_shapes_dtypes_and_seeds():
    assert tf.random.gamma([3], [1.0, 2.0], seed=1).shape == (3, 2)
    assert tf.random.gamma([3, 1], 2.0, beta=[1.0, 4.0], dtype=tf.float64).shape == (3, 1, 2)
    assert tf.random.poisson([3], [1.0, 2.0], dtype=tf.int32).dtype == tf.int32
    tf.random.set_seed(7)
    first = tf.random.gamma([5], 2.0, seed=3).numpy()
    tf.random.set_seed(7)
    np.testing.assert_array_equal(tf.random.gamma([5], 2.0, seed=3).numpy(), first)
    f = tf.function(lambda a: tf.random.poisson([4], a, seed=2))
    tf.random.set_seed(1)
    traced = f(tf.constant([3.0])).numpy()
    tf.random.set_seed(1)
    np.testing.assert_array_equal(tf.random.poisson([4], tf.constant([3.0]), seed=2).numpy(), traced)


def test_moments():
    s = tf.random.gamma([40000], [0.5, 3.0], [2.0, 1.0], dtype=tf.float64, seed=5).numpy()
    np.testing.assert_allclose(s.mean(0), [0.25, 3.0], rtol=0.03)  # alpha / beta
    np.testing.assert_allclose(s.var(0), [0.125, 3.0], rtol=0.06)  # alpha / beta**2
    p = tf.random.poisson([40000], [0.5, 3.0], seed=5).numpy()
    np.testing.assert_allclose(p.mean(0), [0.5, 3.0], rtol=0.03)
    np.testing.assert_allclose(p.var(0), [0.5, 3.0], rtol=0.06)
    assert np.all(p == np.round(p))


def test_random_gamma_grad_matches_tensorflow():
    got = bind(RandomGammaGrad, (tf.constant([0.5, 2.0, 7.0, 1.0], tf.float64),
                                 tf.constant([0.3, 1.5, 8.0, 2.0], tf.float64))).numpy()
    np.testing.assert_allclose(got, [1.0098019459488548, 0.9366390678772176, 1.0940278062028435,
                                     1.6316914623496996], rtol=1e-8)


def test_reparameterized_gradient_has_the_right_mean():
    """E[sample] = alpha / beta, so the mean of d sample / d alpha is 1 / beta."""
    alpha, beta = tf.constant([0.7, 4.0], tf.float64), tf.constant([2.0, 0.5], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        s = tf.random.gamma([20000], alpha, beta, dtype=tf.float64, seed=9)
    g = tape.gradient(s, alpha).numpy() / 20000
    np.testing.assert_allclose(g, [0.5, 2.0], rtol=0.03)


def test_refusals():
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.random.gamma([2], [1.0, 2.0], dtype=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of bool is not in the list of "
                                                              "allowed values"):
        tf.random.poisson([2], [1.0, 2.0], dtype=tf.bool)
