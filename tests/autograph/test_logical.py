"""`and`/`or`/`not` and conditional expressions on tensors; Python operands stay lazy."""
import pytest

import eagerflow as tf

from .helpers import both


def in_band(x):
    return x > 0 and x < 10 or x == -1


def negate(x):
    return not x > 0


def pick(x):
    return x * 2 if x > 0 else -x


def lazy(x):
    return x is not None and x > 0


@pytest.mark.parametrize("value", [5.0, 20.0, -1.0, -3.0])
def test_and_or_not_ifexp(value):
    x = tf.constant(value)
    assert bool(both(in_band, x)) == in_band(value)
    assert bool(both(negate, x)) == negate(value)
    assert float(both(pick, x)) == pick(value)


def test_python_operands_keep_short_circuit():
    assert not bool(tf.function(lazy)(None))  # `x > 0` never evaluated on None
    assert bool(tf.function(lazy)(tf.constant(2.0)))
