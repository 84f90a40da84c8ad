"""tf.complex against TensorFlow 2.21 (values, dtypes, errors, gradient, graph op written in)."""
import numpy as np
import pytest

import eagerflow as tf


def test_values_and_dtypes():
    z = tf.complex(1.0, 2.0)
    assert z.dtype == tf.complex64 and complex(z.numpy()) == 1 + 2j
    assert tf.complex(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64)).dtype == tf.complex128
    np.testing.assert_array_equal(tf.complex(tf.constant([[1.0], [2.0]]), tf.constant([3.0, 4.0])).numpy(),
                                  [[1 + 3j, 1 + 4j], [2 + 3j, 2 + 4j]])
    np.testing.assert_array_equal(tf.complex(tf.constant([1.0, 2.0]), 2.0).numpy(), [1 + 2j, 2 + 2j])
    inf = tf.complex(tf.constant([np.inf]), tf.constant([1.0])).numpy()[0]
    assert inf.real == np.inf and inf.imag == 1.0  # no 0 * inf: the parts are set, not multiplied


def test_errors_as_tensorflow():
    for real, imag, words in [(1, 2, "int32 int32"), (tf.constant(1.0), tf.constant(2.0, tf.float64), "float32 float64")]:
        with pytest.raises(TypeError, match=f"The `real` and `imag` components have incorrect types: {words}. They "
                                            r"must be consistent, and one of \[tf.float32, tf.float64\]"):
            tf.complex(real, imag)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        tf.complex(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def test_gradient_and_graph():
    x, y = tf.constant([1.0, 2.0]), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = tf.complex(x, y)
        loss = tf.reduce_sum(tf.abs(z) ** 2)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), [2.0, 4.0], rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, y).numpy(), 12.0, rtol=1e-6)  # summed over the broadcast
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), [1.0, 1.0])
    assert float(tape.gradient(z, y)) == 0.0
    cf = tf.function(tf.complex).get_concrete_function(tf.TensorSpec([2]), tf.TensorSpec([2]))
    assert [op.type for op in cf.graph.get_operations()] == ["Placeholder", "Placeholder", "Complex", "Identity"]
