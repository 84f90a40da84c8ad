"""len/range on tensors, recursive conversion of user functions, lists appended in loops."""
import numpy as np

import eagerflow as tf

from .helpers import both


def helper(x):
    if x > 0:
        return x
    return -x


def calls_helper(t):
    total = 0.0
    for v in t:
        total += helper(v)
    return total


def length(t):
    return len(t)


def test_user_functions_are_converted_when_called():
    t = tf.constant([1.0, -2.0, 3.0])
    assert float(both(calls_helper, t)) == 6.0
    spec = [tf.TensorSpec([None], tf.float32)]
    assert float(tf.function(calls_helper, input_signature=spec)(t)) == 6.0


def test_len_of_unknown_length_is_a_shape_read():
    f = tf.function(length, input_signature=[tf.TensorSpec([None], tf.float32)])
    assert int(f(tf.constant([1.0, 2.0, 3.0]))) == 3
    assert int(tf.function(length)(tf.constant([1.0, 2.0]))) == 2


def test_list_append_then_stack_in_tensor_loop():
    def squares(n):
        out = []
        for i in tf.range(n):
            out.append(i * i)
        return tf.stack(out)
    np.testing.assert_array_equal(tf.function(squares)(tf.constant(4)).numpy(), [0, 1, 4, 9])
    np.testing.assert_array_equal(squares(tf.constant(4)).numpy(), [0, 1, 4, 9])


def test_python_list_in_python_loop_stays_a_list():
    def build(x):
        out = []
        for i in range(3):
            out.append(x + i)
        return tf.stack(out)
    np.testing.assert_allclose(both(build, tf.constant(1.0)).numpy(), [1.0, 2.0, 3.0])
