"""`tf.ones(4)`, `tf.zeros(3, tf.int32)`, `tf.fill(2, x)`: a scalar shape is a vector of that length,
inside tf.function as eagerly (it raised AttributeError while tracing), and Python floats in a shape
are TensorFlow 2.21's TypeError, with its eager and its graph wording."""
from __future__ import annotations

import numpy as np
import pytest

import eagerflow as tf


def _made(mode):
    def make():
        return tf.ones(4), tf.zeros(3, tf.int32), tf.fill(2, 7.0), tf.ones((2,)), tf.zeros([]), tf.ones(True)
    return make() if mode == "eager" else tf.function(make)()


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_scalar_and_python_shapes(mode):
    ones, zeros, filled, pair, scalar, one = _made(mode)
    np.testing.assert_array_equal(ones.numpy(), np.ones(4, np.float32))
    assert zeros.dtype == tf.int32 and zeros.numpy().tolist() == [0, 0, 0]
    assert filled.numpy().tolist() == [7.0, 7.0] and pair.shape == (2,) and scalar.shape == ()
    assert one.shape == (1,)  # True is 1, as in TensorFlow


def test_a_variable_updated_by_ones_of_a_scalar_shape_in_a_function():
    v = tf.Variable(np.ones(4, np.float32))

    @tf.function
    def bump():
        v.assign_add(tf.ones(4))
        return v.read_value()
    assert bump().numpy().tolist() == [2.0] * 4


@pytest.mark.parametrize("shape, eager, graph", [
    (2.5, "Cannot convert 2.5 to EagerTensor of dtype int32", "Expected int32, but got 2.5 of type 'float'."),
    ([2.5], "Cannot convert [2.5] to EagerTensor of dtype int32", [2]),
    ([1, 2.5], "Cannot convert [1, 2.5] to EagerTensor of dtype int32", [1, 2]),
    ([2.5, 1.9], "Cannot convert [2.5, 1.9] to EagerTensor of dtype int32", [2, 1]),
    ([2000.5], "Cannot convert [2000.5] to EagerTensor of dtype int32",
     "Expected int32, but got 2000.5 of type 'float'."),
])
def test_float_shapes_raise_tensorflows_type_errors(shape, eager, graph):
    """TF 2.21: eagerly a TypeError; traced, a list shape of under 1000 elements is truncated (TensorFlow
    builds a small filled tensor as a constant), a larger one or a scalar is the graph's TypeError."""
    with pytest.raises(TypeError) as raised:
        tf.ones(shape)
    assert str(raised.value) == eager

    @tf.function
    def f():
        return tf.ones(shape)
    if isinstance(graph, list):
        assert f().shape.as_list() == graph
        return
    with pytest.raises(TypeError) as raised:
        f()
    assert str(raised.value).endswith(graph)


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_zeros_like_of_strings_is_empty_strings(mode):
    def make(x):
        return tf.zeros_like(x)
    run = make if mode == "eager" else tf.function(make)
    out = run(tf.constant([["a", "bc"]]))
    assert out.dtype == tf.string and out.numpy().tolist() == [[b"", b""]]  # TF 2.21: [[b'' b'']]
    assert run(tf.constant("a")).numpy() == b""
