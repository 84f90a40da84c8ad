"""Gradcheck rows for calls of traced functions (the call op's gradient is a traced backward function)."""
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
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
