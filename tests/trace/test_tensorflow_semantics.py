"""Tracing where programs written for TensorFlow met differences: TensorFlow 2.21's answers."""
import functools

import pytest

import eagerflow as tf


def _add(a, b, c=1):
    return a + b * c


def test_partial_with_positional_and_keyword_bound_tensors():
    bound = tf.function(functools.partial(_add, tf.constant(1), c=tf.constant(3)))
    assert int(bound(tf.constant(2))) == 7  # TF 2.21: 1 + 2 * 3
    assert int(bound(b=tf.constant(5))) == 16  # TF 2.21: 1 + 5 * 3


def test_numpy_of_a_symbolic_tensor_is_an_attribute_error():
    @tf.function
    def read(x):
        return x.numpy()

    with pytest.raises(AttributeError, match="^'SymbolicTensor' object has no attribute 'numpy'$"):  # TF 2.21
        read(tf.constant(1.0))


def test_input_signature_with_defaults_for_trailing_python_arguments():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def scaled(x, scale=2.0, flag=True):
        return x * scale if flag else x

    assert scaled(tf.constant([1., 2.])).numpy().tolist() == [2.0, 4.0]  # TF 2.21


def test_placeholders_are_named_after_the_arguments():
    @tf.function
    def named(a, b, *args, **kw):
        return a

    spec = tf.TensorSpec([], tf.float32)
    cf = named.get_concrete_function(spec, spec, spec, spec, k=spec)
    # TF 2.21: a, b, args_0, args_1, k
    assert [op.name for op in cf.graph.get_operations() if op.type == "Placeholder"] == ["a", "b", "args_0", "args_1",
                                                                                         "k"]
