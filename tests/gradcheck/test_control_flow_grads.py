"""Gradcheck rows for control flow in graphs: tf.cond (If/StatelessIf), tf.while_loop
(While/StatelessWhile, with WhileGrad walking the loop history), against finite differences."""
import pytest

import eagerflow as tf
from eagerflow._src.ops.control import optional as _optional
from eagerflow._src.ops.registry import bind
from tests.gradcheck.harness import GradRow, check_row


def _checked(x):
    tf.debugging.assert_less(x, tf.constant(1e6, tf.float64))  # stateful: makes the branch an `If`
    return x


@tf.function
def _cond_true(x, y):
    return tf.cond(tf.reduce_sum(x) > -100.0, lambda: tf.sin(x) * y, lambda: x + y)


@tf.function
def _cond_false(x, y):
    return tf.cond(tf.reduce_sum(x) > 100.0, lambda: tf.sin(x) * y, lambda: x * x + y)


@tf.function
def _stateful_cond(x):
    return tf.cond(tf.reduce_sum(x) > -100.0, lambda: _checked(x) * x, lambda: x)


@tf.function
def _loop(x, w):
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(h * w + x)), (0, x))
    return h


@tf.function
def _loop_tensor_trip_count(x, n):
    _, y = tf.while_loop(lambda i, y: tf.cast(i, tf.float64) < n, lambda i, y: (i + 1, y * x), (0, tf.ones_like(x)))
    return y


@tf.function
def _loop_with_cond(x, w):
    def body(i, h):
        return i + 1, tf.cond(tf.reduce_sum(h) > -100.0, lambda: tf.tanh(h * w + x), lambda: h)
    _, h = tf.while_loop(lambda i, h: i < 3, body, (0, x))
    return h


@tf.function
def _stateful_loop(x):
    _, y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, _checked(y) * x), (0, x))
    return y


def _through_an_optional(x, y):
    """Values packed into a TensorFlow Optional and read back (what a saved tf.cond gradient does with the
    forward values its gradient needs), then a nonlinear use of each."""
    packed = bind(_optional.OptionalFromValue, (tf.sin(x), x * y), {"Toutput_types": [tf.float64, tf.float64]})
    has = bind(_optional.OptionalHasValue, (packed,))
    a, b = bind(_optional.OptionalGetValue, (packed,), {"output_types": [tf.float64, tf.float64],
                                                       "output_shapes": [x.shape, x.shape]})
    return tf.where(has, a * b, tf.zeros_like(a))


ROWS = [
    GradRow("OptionalFromValue-GetValue", _through_an_optional, [(3,), (3,)], order=3),
    GradRow("StatelessIf-true", _cond_true, [(3,), (3,)], order=2),
    GradRow("StatelessIf-false", _cond_false, [(3,), (3,)], order=2),
    GradRow("If", _stateful_cond, [(2, 2)], order=2),
    GradRow("StatelessWhile", _loop, [(4,), (4,)], order=3),
    GradRow("StatelessWhile-tensor-trip-count", lambda x: _loop_tensor_trip_count(x, tf.constant(3.0, tf.float64)),
            [(3,)], low=0.5, high=1.5),
    GradRow("StatelessWhile-with-cond", _loop_with_cond, [(4,), (4,)], order=3),
    GradRow("While", _stateful_loop, [(3,)], low=0.5, high=1.5, order=2),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
