"""Small top-level names against TensorFlow 2.21 (values written in): histogram_fixed_width_bins,
AggregationMethod, is_symbolic_tensor, grad_pass_through, tf.compat, the Keras aliases tf.losses /
metrics / optimizers / initializers, eig / eigvals / matrix_square_root."""
import numpy as np
import pytest

import eagerflow as tf


def test_histogram_fixed_width_bins():
    got = tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    assert got.numpy().tolist() == [0, 0, 1, 2, 4, 4]
    wide = tf.histogram_fixed_width_bins(tf.constant([[1.0, 9.0]]), [0.0, 10.0], nbins=3, dtype=tf.int64)
    assert wide.dtype == tf.int32 and wide.numpy().tolist() == [[0, 2]]  # TF 2.21 returns int32 regardless
    traced = tf.function(lambda v: tf.histogram_fixed_width_bins(v, [0.0, 5.0], nbins=5))
    assert traced(tf.constant([[1.5, 15.0]])).numpy().tolist() == [[1, 4]]


def test_aggregation_method_and_symbolic_tensors():
    assert (tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT, tf.AggregationMethod.EXPERIMENTAL_TREE,
            tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N) == (0, 0, 1, 2)
    assert not tf.is_symbolic_tensor(tf.constant(1)) and not tf.is_symbolic_tensor(1.0)
    assert bool(tf.function(lambda x: tf.constant(tf.is_symbolic_tensor(x)))(tf.constant(1.0)))


def test_grad_pass_through_is_the_straight_through_estimator():
    x = tf.Variable(2.4)
    with tf.GradientTape() as tape:
        y = tf.grad_pass_through(lambda v: tf.round(v))(x) * 3
    assert float(y) == 6.0 and float(tape.gradient(y, x)) == 3.0  # TF 2.21: 6.0 and 3.0 (round has no gradient)
    c = tf.constant([0.2, 0.7])
    with tf.GradientTape() as tape:
        tape.watch(c)
        z = tf.reduce_sum(tf.grad_pass_through(tf.round)(c) * [1.0, 2.0])
    assert tape.gradient(z, c).numpy().tolist() == [1.0, 2.0]


def test_compat_helpers():
    assert tf.compat.as_bytes("a") == b"a" and tf.compat.as_str(b"b") == "b" and tf.compat.as_text(b"c") == "c"
    assert tf.compat.as_bytes(bytearray(b"x")) == b"x" and tf.compat.as_str_any(3) == "3"
    assert tf.compat.dimension_value(tf.TensorShape([3, None])[1]) is None
    assert tf.compat.dimension_value(tf.TensorShape([3, None])[0]) == 3
    assert tf.compat.path_to_str("x") == "x"
    with pytest.raises(TypeError, match="Expected binary or unicode string, got 1"):
        tf.compat.as_bytes(1)
    assert tf.compat.forward_compatible(2020, 1, 1)
    with tf.compat.forward_compatibility_horizon(2019, 1, 1):
        assert not tf.compat.forward_compatible(2020, 1, 1)


def test_keras_aliases_and_linalg_aliases():
    assert tf.losses.MeanSquaredError is tf.keras.losses.MeanSquaredError
    assert tf.metrics.Mean is tf.keras.metrics.Mean and tf.optimizers.Adam is tf.keras.optimizers.Adam
    assert tf.initializers.GlorotUniform is tf.keras.initializers.GlorotUniform
    assert tf.eig is tf.linalg.eig and tf.eigvals is tf.linalg.eigvals and tf.matrix_square_root is tf.linalg.sqrtm
    np.testing.assert_allclose(tf.matrix_square_root(tf.constant([[4.0, 0.0], [0.0, 9.0]])).numpy(), [[2, 0], [0, 3]])
