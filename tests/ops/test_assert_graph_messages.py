"""tf.debugging.assert_* inside tf.function: the message TensorFlow 2.21's graph Assert kernel writes
(each piece bracketed, tensors summarized as its kernel does and named, e.g. "x (a:0) = "), the
Assert node's name, and the trace-time failure on constants naming the converted tensors. Every
expected string was printed by TensorFlow 2.21 running the same function."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.debugging.assert_messages import summarize_value


def _failure(fn, arg):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(lambda a: [fn(a), a][1])(arg)
    message = str(info.value)
    node = re.search(r"\{\{node (\S+)\}\}", message).group(1)
    body = re.search(r"assertion failed: (.*?)\n\t", message, re.S).group(1)
    return node, body


CASES = [
    (lambda a: tf.debugging.assert_less(a, 3), tf.constant([[1, 5, 7], [9, 2, 0]]),
     "assert_less/Assert/Assert",
     "[Condition x < y did not hold element-wise:] [x (a:0) = ] [[1 5 7]...] [y (assert_less/y:0) = ] [3]"),
    (lambda a: tf.debugging.assert_less(a, 3, summarize=10, name="mine"), tf.constant([[1, 5, 7], [9, 2, 0]]),
     "mine/Assert/Assert",
     "[Condition x < y did not hold element-wise:] [x (a:0) = ] [[1 5 7][9 2 0]] [y (mine/y:0) = ] [3]"),
    (lambda a: tf.debugging.assert_equal(a, 1.5, message="eq"), tf.constant([1.25, 2.5]),
     None,  # TensorFlow names this one assert_equal_1 (a scope its own code opened first)
     "[eq] [Condition x == y did not hold element-wise:] [x (a:0) = ] [1.25 2.5] [y (assert_equal/y:0) = ] [1.5]"),
    (lambda a: tf.debugging.assert_non_positive(a, message="np"), tf.constant([1.25, 2.5]),
     "assert_non_positive/assert_less_equal/Assert/AssertGuard/Assert",
     "[np.  ] [Condition x <= 0 did not hold element-wise:x (a:0) = ] [1.25 2.5]"),
    (lambda a: tf.debugging.assert_negative(a), tf.constant(3),
     "assert_negative/assert_less/Assert/Assert",
     "[] [Condition x < 0 did not hold element-wise:] [x (a:0) = ] [3]"),
    (lambda a: tf.debugging.assert_greater_equal(a, tf.constant([5, 5], name="five")), tf.constant([1, 7]),
     "assert_greater_equal/Assert/Assert",
     "[Condition x >= y did not hold element-wise:] [x (a:0) = ] [1 7] [y (five:0) = ] [5 5]"),
    (lambda a: tf.debugging.assert_none_equal(a, a), tf.constant([True]),
     "assert_none_equal/Assert/AssertGuard/Assert",
     "[Condition x != y did not hold element-wise:] [x (a:0) = ] [1] [y (a:0) = ] [1]"),
    (lambda a: tf.debugging.assert_less(a * 2., tf.constant([2., 3.]), message="m"), tf.constant([1., 5.]),
     "assert_less/Assert/AssertGuard/Assert",
     "[m] [Condition x < y did not hold element-wise:] [x (mul:0) = ] [2 10] [y (Const:0) = ] [2 3]"),
    (lambda a: tf.debugging.assert_positive(a - 3.), tf.constant([1., 5.]),
     "assert_positive/assert_less/Assert/AssertGuard/Assert",
     "[] [Condition x > 0 did not hold element-wise:] [x (sub:0) = ] [-2 2]"),
]


@pytest.mark.parametrize("fn, arg, node, body", CASES, ids=[c[2] or "assert_equal" for c in CASES])
def test_graph_assert_message(fn, arg, node, body):
    got_node, got_body = _failure(fn, arg)
    assert got_body == body
    if node is not None:
        assert got_node == node


def test_eager_message_has_no_names():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.debugging.assert_less(tf.constant([1., 5.]), tf.constant([2., 3.]))
    assert str(info.value) == ("Condition x < y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
                               "Corresponding x values:\n[5.]\nCorresponding y values:\n[3.]\n"
                               "First 2 elements of x:\n[1. 5.]\nFirst 2 elements of y:\n[2. 3.]")


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.debugging.assert_less(tf.constant(5), 3),
     "Condition x < y did not hold element-wise:\nx (Const:0) = \n5\ny (assert_less/y:0) = \n3"),
    (lambda: tf.debugging.assert_less(5, 3, message="m"),
     "m\nCondition x < y did not hold element-wise:\nx (assert_less/x:0) = \n5\ny (assert_less/y:0) = \n3"),
    (lambda: tf.debugging.assert_positive(tf.constant(-1.5)),
     "\nCondition x > 0 did not hold element-wise:\nx (Const:0) = \n-1.5"),
    (lambda: tf.debugging.assert_non_positive(2, message="q"),
     "q.  \nCondition x <= 0 did not hold element-wise:x (assert_non_positive/x:0) = \n2"),
])
def test_constants_fail_while_tracing_naming_the_tensors(fn, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(fn).get_concrete_function()
    assert str(info.value).endswith(message)


@pytest.mark.parametrize("value, limit, text", [
    (np.array([[1, 5, 7], [9, 2, 0]]), 3, "[1 5 7]..."),
    (np.array([[1, 5, 7], [9, 2, 0]]), 4, "[1 5 7][9...]..."),
    (np.array([1, 2, 3, 4]), 3, "1 2 3..."),
    (np.array(np.float32(0.1)), 3, "0.1"),
    (np.array([np.float32(1 / 3)]), 3, "0.333333343"),
    (np.array([1 / 3]), 3, "0.33333333333333331"),
    (np.array([True, False]), 3, "1 0"),
    (np.zeros((2, 0)), 3, ""),
])
def test_summaries_as_tensorflow_kernels_write_them(value, limit, text):
    """TensorFlow's texts from tf.debugging.Assert(False, [value], summarize=limit) in a tf.function."""
    assert summarize_value(value, limit) == text
