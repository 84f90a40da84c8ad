"""Fourth-order gradients through a loop under jit_compile=True (codegen/xla_higher_order.py).

Through a loop whose body holds a tf.cond, the fourth order's backward walk sums a gradient into
the third order's backward loop's history, which eagerflow's XLA lowering does not compile yet.
TensorFlow 2.21's XLA compiles it (tf.function(cond_in_a_loop, jit_compile=True) at x = 1.5 gives
[5.0625, 13.5, 27.0, 36.0, 24.0]), so the refusal must not claim TensorFlow refuses it too, as it
did ("...loop nested in a loop is not supported (TensorFlow's XLA refuses it too...").
"""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402
from tests.control_flow import test_fourth_order_through_loops as fourth_order  # noqa: E402 - cases


def plain_loop(x):
    """h <- h sin(x) + x, three times from h = x: no cond, the loop history path alone."""
    with tf.GradientTape() as t4:
        t4.watch(x)
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    h = x
                    for _ in tf.range(3):
                        h = h * tf.sin(x) + x
                d1 = t1.gradient(h, x)
            d2 = t2.gradient(d1, x)
        d3 = t3.gradient(d2, x)
    return h, d1, d2, d3, t4.gradient(d3, x)


def _closed_form(x):
    """h = x (s^3 + s^2 + s + 1) with s = sin x, and dh/dx."""
    s, c = np.sin(x), np.cos(x)
    return x * (s ** 3 + s ** 2 + s + 1), (s ** 3 + s ** 2 + s + 1) + x * c * (3 * s ** 2 + 2 * s + 1)


def test_fourth_order_through_a_plain_loop_compiles_and_agrees():
    """No cond in the body: the fourth order compiles; jit == tf.function == eager == TensorFlow's, h the
    closed form x (s^3 + s^2 + s + 1), s = sin x (and its derivative)."""
    x = tf.constant(0.7, tf.float64)
    expected = [1.6286165276875342, 4.218385734883966, 6.213458358038558, -2.617265543342044,
                -47.1505779206259]  # TensorFlow 2.21, tf.function
    eager = [float(v) for v in plain_loop(x)]
    plain = [float(v) for v in tf.function(plain_loop)(x)]
    jit = [float(v) for v in tf.function(plain_loop, jit_compile=True)(x)]
    np.testing.assert_allclose(eager[:2], _closed_form(0.7), rtol=1e-12)
    np.testing.assert_allclose(plain, eager, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(jit, eager, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(jit, expected, rtol=1e-9, atol=1e-12)


def test_fourth_order_through_a_cond_in_a_loop_is_refused_without_claiming_tensorflow_refuses_it():
    x = tf.constant(1.5, tf.float64)
    np.testing.assert_allclose([float(v) for v in tf.function(fourth_order.cond_in_a_loop)(x)],
                               fourth_order.COND_IN_A_LOOP[1.5], rtol=1e-12)  # TensorFlow 2.21's, jit or not
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(fourth_order.cond_in_a_loop, jit_compile=True)(x)
    message = str(info.value)
    assert "fourth-order gradient through a loop whose body holds a tf.cond (which TensorFlow's XLA compiles)" \
        in message
    assert "take the higher-order gradient outside the jit_compile=True function" in message
