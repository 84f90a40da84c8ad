"""Fourth-order gradients through a loop under jit_compile=True (codegen/xla_higher_order.py,
xla_control_flow.py): tests/control_flow/test_fourth_order_through_loops.py's cases, compiled.

Through a loop whose body holds a tf.cond, the fourth order's backward walk reads the third order's
backward loop's history as an external and sums a gradient into it. That was refused with a message
claiming TensorFlow refuses it too ("...loop nested in a loop is not supported (TensorFlow's XLA
refuses it too..."), but TensorFlow 2.21's XLA compiles it: tf.function(cond_in_a_loop,
jit_compile=True) at x = 1.5 gives [5.0625, 13.5, 27.0, 36.0, 24.0], at 0.7 (the bounded loop)
[10, 3.100333208019873, 11.356172035531527, 26.679884043133654, 555.2329958465448,
-178.24559536892008]: its tf.function numbers to ~1e-13, which the tests here compare against.
What TensorFlow's XLA does refuse at the fourth order is nested loops, as at the second.
"""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402
from tests.control_flow import test_fourth_order_through_loops as fourth_order  # noqa: E402 - cases
from tests.control_flow.nested_tapes import derivatives  # noqa: E402


def _sine_affine_loop(x):
    h = x
    for _ in tf.range(3):
        h = h * tf.sin(x) + x
    return h


def plain_loop(x):
    """h <- h sin(x) + x, three times from h = x: no cond, the loop history path alone."""
    return derivatives(_sine_affine_loop, x, 4)


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


@pytest.mark.parametrize("fn, cases", [
    (fourth_order.cond_in_a_loop, fourth_order.COND_IN_A_LOOP),
    (fourth_order.cond_in_a_bounded_loop, fourth_order.COND_IN_A_BOUNDED_LOOP),
    (fourth_order.cond_on_two_variables, fourth_order.COND_ON_TWO_VARIABLES),
    (fourth_order.cond_nested_in_a_cond, fourth_order.COND_NESTED_IN_A_COND)], ids=lambda v: getattr(v, "__name__", ""))
def test_fourth_order_through_a_cond_in_a_loop_compiles(fn, cases):
    # TensorFlow's tf.function numbers (`expected`), which eagerflow's tf.function gives too:
    # tests/control_flow/test_fourth_order_through_loops.py::test_fourth_order_under_tf_function_is_tensorflows
    # checks that on these very cases (not computed again here: the traced fourth order is most of the cost).
    compiled = tf.function(fn, jit_compile=True)
    for args, expected in cases.items():  # one trace and one XLA compilation for all the cases
        args = [tf.constant(a, tf.float64) for a in (args if isinstance(args, tuple) else (args,))]
        jit = [np.asarray(v) for v in compiled(*args)]
        assert len(jit) == len(expected)
        for c, e in zip(jit, expected):
            # TensorFlow's outputs: int32 where it gives an integer (a loop's counter), float64 elsewhere
            assert c.dtype == (np.int32 if isinstance(e, int) else np.float64) and c.shape == np.shape(e)
            np.testing.assert_allclose(c, e, rtol=1e-9, atol=1e-10)


def test_fourth_order_through_nested_loops_is_refused_as_tensorflow_does():
    """TensorFlow 2.21 under jit_compile=True: "Input 1 to node ... with op EmptyTensorList must be
    a compile-time constant"; its tf.function computes it, as eagerflow's does."""
    x = tf.constant(0.5, tf.float64)
    np.testing.assert_allclose(float(tf.function(fourth_order.nested_loops)(x)[4]), 85.84204780636966, rtol=1e-9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop nested in a loop"):
        tf.function(fourth_order.nested_loops, jit_compile=True)(x)
