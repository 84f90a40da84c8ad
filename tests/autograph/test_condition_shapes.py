"""An `if` or `while` test that is a tensor of rank other than 0: TensorFlow 2.21's AutoGraph reshapes one holding
a single value (`i < n` with n of shape [1]) or of unknown shape to a scalar, and refuses one known to hold
several with a ValueError (messages and values recorded from TensorFlow 2.21 on the same functions)."""
import pytest

import eagerflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def count_up(n):
    i = tf.constant(0)
    while i < n:
        i += 1
    return i


@tf.function(input_signature=[tf.TensorSpec([1], tf.int32)])
def sign(n):
    if n > 0:
        y = 1
    else:
        y = 2
    return y


def test_a_one_value_condition_runs_as_tensorflow():
    assert int(count_up(tf.constant([3]))) == 3
    assert int(sign(tf.constant([1]))) == 1 and int(sign(tf.constant([-1]))) == 2


def test_a_condition_of_unknown_size_holding_several_values_fails_when_run():
    with pytest.raises(tf.errors.InvalidArgumentError):  # TensorFlow: at the loop condition's Reshape
        count_up(tf.constant([3, 4]))


@pytest.mark.parametrize("statement", ["while loop", "if statement"])
def test_a_condition_known_to_hold_several_values_is_refused(statement):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
    def looped(n):
        i = tf.constant(0)
        while i < n:
            i += 1
        return i

    @tf.function(input_signature=[tf.TensorSpec([2], tf.int32)])
    def branched(n):
        if n > 0:
            return 1
        return 2

    with pytest.raises(ValueError, match=rf"condition of {statement} expected to be `tf.bool` scalar, got "
                                         r"Tensor\(.*shape=\(2,\), dtype=bool\); to check for None, use `is not None`"):
        (looped if statement == "while loop" else branched)(tf.constant([1, 1]))
