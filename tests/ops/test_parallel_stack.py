"""tf.parallel_stack as TensorFlow 2.21 answers it: stack's values inside tf.function, refused eagerly."""
import pytest

import eagerflow as tf


def test_parallel_stack_stacks_along_a_new_first_axis_in_a_graph():
    got = tf.function(lambda: tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])]))()
    assert got.dtype == tf.int32 and got.numpy().tolist() == [[1, 2], [3, 4]]


def test_parallel_stack_is_refused_eagerly():
    with pytest.raises(RuntimeError, match=r"^tf.parallel_stack\(\) is not compatible with eager execution.$"):
        tf.parallel_stack([tf.constant([1, 2])])
