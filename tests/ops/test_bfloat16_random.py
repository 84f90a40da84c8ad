"""tf.random with dtype=tf.bfloat16: the stateless draws are TensorFlow 2.21's own (Philox, 7 random
mantissa bits under 1.0, as TensorFlow makes a bfloat16 uniform); the stateful ones are eagerflow's
streams (never TensorFlow's values), checked for dtype and range."""
import numpy as np
import pytest

pytest.importorskip("ml_dtypes")

import eagerflow as tf  # noqa: E402

b = tf.bfloat16


def test_stateless_uniform_is_tensorflows():
    # TensorFlow 2.21: tf.random.stateless_uniform([6], seed=[1, 2], dtype=tf.bfloat16)
    expected = [0.34375, 0.8828125, 0.484375, 0.1484375, 0.1484375, 0.5390625]
    got = tf.random.stateless_uniform([6], seed=[1, 2], dtype=b)
    assert got.dtype is b and got.numpy().astype(float).tolist() == expected
    traced = tf.function(lambda: tf.random.stateless_uniform([6], seed=[1, 2], dtype=b))()
    assert traced.numpy().astype(float).tolist() == expected
    ranged = tf.random.stateless_uniform([3], seed=[1, 2], minval=2.0, maxval=5.0, dtype=b)
    assert ranged.numpy().astype(float).tolist() == [3.03125, 4.65625, 3.453125]


def test_stateful_draws_in_bfloat16():
    u = tf.random.uniform([2000], dtype=b, seed=1)
    assert u.dtype is b
    values = u.numpy().astype(float)
    assert values.min() >= 0.0 and values.max() < 1.0 and 0.4 < values.mean() < 0.6
    for draw in (tf.random.normal, tf.random.truncated_normal):
        assert draw([3], dtype=b).dtype is b
    assert tf.function(lambda: tf.random.normal([2], dtype=b, seed=3))().dtype is b


def test_bfloat16_layer_initializes_bfloat16_weights():
    d = tf.keras.layers.Dense(2, dtype="bfloat16")
    out = d(tf.ones([1, 3]))
    assert out.dtype is b and d.kernel.dtype is b and np.isfinite(d.kernel.numpy().astype(float)).all()
