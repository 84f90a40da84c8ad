"""Selu's gradient at zero: TensorFlow's SeluGrad takes the negative branch only where the output is
below zero, so x = 0 gets the scale (1.0507...), not scale * alpha (1.7581...)."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_selu_gradient_at_zero_is_the_scale(dtype):
    v = tf.Variable(tf.constant([0.0, -1.0, 1.0], dtype))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.selu(v))
    # TensorFlow 2.21 (float32): [1.0507010221481323, 0.6467685699462891, 1.0507010221481323]
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [1.0507010221481323, 0.6467685699462891,
                                                             1.0507010221481323], rtol=1e-6)
    traced = tf.function(lambda: tf.gradients(tf.reduce_sum(tf.nn.selu(v)), [v])[0])()
    np.testing.assert_allclose(traced.numpy(), [1.0507010221481323, 0.6467685699462891, 1.0507010221481323],
                               rtol=1e-6)
