"""Gradients where programs written for TensorFlow met differences: answers recorded from
TensorFlow 2.21 (and checked against calculus: d^k/dx^k of x**4 and sin x)."""
import numpy as np
import pytest

import eagerflow as tf


def test_a_persistent_tape_gives_a_third_derivative_inside_its_context():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x ** 4
        d1 = tape.gradient(y, x)
        d2 = tape.gradient(d1, x)
        d3 = tape.gradient(d2, x)
    # TF 2.21: 32, 48, 48 (4x^3, 12x^2, 24x at 2)
    assert [float(d) for d in (d1, d2, d3)] == [32.0, 48.0, 48.0]


def test_iterated_gradients_on_a_persistent_tape():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        g = tf.sin(x)
        out = []
        for _ in range(3):
            g = tape.gradient(g, x)
            out.append(float(g))
    # TF 2.21: cos 2, -sin 2, -cos 2
    np.testing.assert_allclose(out, [np.cos(2.0), -np.sin(2.0), -np.cos(2.0)], rtol=1e-6)


def test_tf_gradients_twice_through_a_while_loop_in_a_function():
    @tf.function
    def grads(a):
        y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * a), [0, tf.constant(1.0)])[1]
        g = tf.gradients(y, a)[0]
        return g, tf.gradients(g, a)[0]

    g, g2 = grads(tf.constant(2.0))
    assert (float(g), float(g2)) == (12.0, 12.0)  # TF 2.21: 3a^2 and 6a at 2


def test_batch_jacobian_refuses_what_tensorflow_refuses():
    x = tf.constant([[1., 2.], [3., 4.]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        summed = tf.reduce_sum(x, axis=1)
        flat = tf.reshape(x, [4])
        first = x[:1] * 2.
        mixed = x * tf.reduce_sum(x)
    # TF 2.21's ValueErrors: rank checks (target, then source) before the batch check
    with pytest.raises(ValueError, match=r"^Shape \(2,\) must have rank at least 2$"):
        tape.batch_jacobian(summed, x)
    with pytest.raises(ValueError, match=r"^Shape \(4,\) must have rank at least 2$"):
        tape.batch_jacobian(flat, x)
    with pytest.raises(ValueError, match=r"Need first dimension of target shape \(\(1, 2\)\) and source shape "
                                         r"\(\(2, 2\)\) to match."):
        tape.batch_jacobian(first, x)
    # not batch-independent: TF 2.21 computes it anyway (eagerly and in tf.function)
    np.testing.assert_array_equal(tape.batch_jacobian(mixed, x).numpy(),
                                  [[[14., 4.], [6., 16.]], [[14., 4.], [6., 16.]]])
    v = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.stack([v, v], axis=1)
    with pytest.raises(ValueError, match=r"^Shape \(2,\) must have rank at least 2$"):
        tape.batch_jacobian(y, v)


def test_batch_jacobian_checks_an_unknown_batch_when_it_runs():
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def first_row(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x[:1] * 2.
        return tape.batch_jacobian(y, x)

    # TF 2.21: InvalidArgumentError from its assert_equal of the two batch sizes
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        first_row(tf.constant([[1., 2.], [3., 4.]]))
    np.testing.assert_array_equal(first_row(tf.constant([[1., 2.]])).numpy(), [[[2., 0.], [0., 2.]]])


def test_custom_gradient_called_with_a_variable():
    @tf.custom_gradient
    def doubled(v):
        def grad(dy, variables=None):
            return dy * 3.0
        return v * 2.0, grad

    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = doubled(v)
    assert float(y) == 2.0
    assert float(tape.gradient(y, v)) == 3.0  # TF 2.21: grad_fn's gradient for the argument
