"""Gradcheck rows for calls of traced functions (the call op's gradient is a traced backward function) and of
Python functions (tf.py_function)."""
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


@tf.function
def _smooth(x, y):
    return tf.sin(x) * y + x * x


@tf.function
def _checked(x):
    tf.debugging.assert_greater(x * 0.0 + 1.0, tf.constant(0.0, tf.float64))  # makes the call stateful
    return tf.tanh(x) * x


ROWS = [
    GradRow("PartitionedCall", lambda x, y: _smooth(x, y), [(3,), (3,)], order=2),
    GradRow("StatefulPartitionedCall", lambda x: _checked(x), [(2, 2)], order=2),
    # tf.py_function: its gradient runs the Python function again under a tape (float64 in, float64 out)
    GradRow("EagerPyFunc", lambda x, y: tf.py_function(lambda a, b: tf.sin(a) * b + a * a, [x, y], tf.float64),
            [(3,), (3,)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
