"""`assert` on a tensor becomes tf.debugging.Assert, checked when the function runs."""
import pytest

import eagerflow as tf


def positive(x):
    assert x > 0, "must be positive"
    return x * 2


def test_tensor_assert_checks_at_run_time():
    f = tf.function(positive)
    assert float(f(tf.constant(2.0))) == 4.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be positive"):
        f(tf.constant(-1.0))
    assert f.experimental_get_tracing_count() == 1


def test_python_assert_stays_python():
    with pytest.raises(AssertionError, match="must be positive"):
        tf.function(positive)(-1.0)
    with pytest.raises(AssertionError):
        positive(tf.constant(-1.0))  # eager
