"""Python scalar operands beside an eager tensor convert through a small cache (ops/operands.py):
the cached tensors must behave exactly as fresh conversions."""
from __future__ import annotations

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops import operands


def test_cached_scalars_give_the_same_results_as_fresh_conversions():
    t = tf.constant([1.5, -2.0])
    for _ in range(3):
        np.testing.assert_array_equal((t + 1.0).numpy(), np.float32([2.5, -1.0]))
        np.testing.assert_array_equal((t * 3).numpy(), np.float32([4.5, -6.0]))
        assert (t + 1.0).dtype is tf.float32
        assert (tf.constant([1, 2], tf.int64) + 2**40).numpy().tolist() == [2**40 + 1, 2**40 + 2]
        assert (tf.constant([1.0], tf.float64) - 0.1).numpy()[0] == 1.0 - 0.1  # converted straight to float64


def test_negative_zero_keeps_its_sign_and_one_is_not_true():
    t = tf.constant([1.0])
    t * 0.0
    assert np.signbit((t * -0.0).numpy()[0])
    assert not np.signbit((t * 0.0).numpy()[0])
    tf.constant([2]) * 1  # an int 1 cached beside int32 (True == 1 as a dict key)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bool"):
        tf.add(tf.constant([True]), True)  # True stays a bool tensor: AddV2 refuses it


def test_failed_conversions_are_not_cached_and_the_cache_is_bounded():
    i = tf.constant([1, 2])
    for _ in range(3):
        with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
            i - 1.5
    x = tf.constant([1.0])
    for k in range(2 * operands._SCALARS_LIMIT):
        x + float(k) + 0.5
    assert len(operands._SCALARS) <= operands._SCALARS_LIMIT
