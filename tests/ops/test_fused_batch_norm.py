"""FusedBatchNormV3 (ops/nn/fused_batch_norm.py), the op tf.keras 2's BatchNormalization writes into
TensorFlow's SavedModels: outputs and gradients against TensorFlow 2.21's (tf.raw_ops.FusedBatchNormV3,
epsilon 1e-3, on the inputs below; the loss is sum(y * W))."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn.fused_batch_norm import fused_batch_norm

X = (np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2) % 5) * 0.5 - 1
SCALE, OFFSET = np.array([1.5, -0.5], np.float32), np.array([0.25, 1.0], np.float32)
MEAN, VARIANCE = np.array([0.1, -0.2], np.float32), np.array([0.8, 1.2], np.float32)
W = np.arange(16, dtype=np.float32).reshape(X.shape) / 10

# (is_training, exponential_avg_factor, y, running mean, running variance, dx, dscale, doffset): TensorFlow's
TENSORFLOW = [
    (False, 1.0, [-1.5936, 1.1369, 0.0824, 0.68063, 1.7584, 1.365, -0.7556, 0.90875, 0.9204, 0.45251, -1.5936, 1.1369,
                  0.0824, 0.68063, 1.7584, 1.365],
     [0.1, -0.2], [0.8, 1.2],
     [0, -0.04562, 0.3352, -0.13687, 0.6704, -0.22812, 1.0056, -0.31937, 1.3408, -0.41062, 1.676, -0.50187, 2.0112,
      -0.59312, 2.3464, -0.68437],
     [0.37989, 0.34675], [5.6, 6.4]),
    (True, 1.0, [-1.7482, 1.2691, 0.25, 0.55145, 2.2482, 1.628, -0.74911, 0.91029, 1.2491, 0.19261, -1.7482, 1.2691,
                 0.25, 0.55145, 2.2482, 1.628],
     [0, -0.125], [0.64286, 0.55357],
     [-0.99982, 0.50931, -0.99911, 0.34729, -0.9984, 0.23148, -0.00035, 0.06946, 0.00035, -0.09256, 0.9984, -0.20837,
      0.99911, -0.37039, 0.99982, -0.4862],
     [1.1989, -0.14354], [5.6, 6.4]),
    (True, 0.3, [-1.7482, 1.2691, 0.25, 0.55145, 2.2482, 1.628, -0.74911, 0.91029, 1.2491, 0.19261, -1.7482, 1.2691,
                 0.25, 0.55145, 2.2482, 1.628],
     [0.07, -0.1775], [0.75286, 1.0061],
     [-0.99982, 0.50931, -0.99911, 0.34729, -0.9984, 0.23148, -0.00035, 0.06946, 0.00035, -0.09256, 0.9984, -0.20837,
      0.99911, -0.37039, 0.99982, -0.4862],
     [1.1989, -0.14354], [5.6, 6.4]),
]


def _close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual).ravel(), expected, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("is_training, factor, y, mean, variance, dx, dscale, doffset", TENSORFLOW)
def test_outputs_and_gradients_are_tensorflows(is_training, factor, y, mean, variance, dx, dscale, doffset):
    inputs = [tf.constant(a) for a in (X, SCALE, OFFSET, MEAN, VARIANCE)]
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        out = fused_batch_norm(*inputs, epsilon=0.001, is_training=is_training, exponential_avg_factor=factor)
        loss = tf.reduce_sum(out[0] * W)
    grads = tape.gradient(loss, inputs)
    for got, want in zip(out[:3], (y, mean, variance)):
        _close(got, want)
    for got, want in zip(grads[:3], (dx, dscale, doffset)):
        _close(got, want)
    assert grads[3] is None and grads[4] is None  # TensorFlow gives the given statistics no gradient


def test_channels_first_is_channels_last_transposed():
    nchw = fused_batch_norm(np.transpose(X, (0, 3, 1, 2)), SCALE, OFFSET, MEAN, VARIANCE, epsilon=0.001,
                            is_training=False, data_format="NCHW")[0]
    _close(np.transpose(nchw.numpy(), (0, 2, 3, 1)), TENSORFLOW[0][2])


def test_traced_and_eager_agree_and_a_bad_rank_is_refused():
    fn = tf.function(lambda x: fused_batch_norm(x, SCALE, OFFSET, MEAN, VARIANCE, epsilon=0.001, is_training=False))
    _close(fn(X)[0], TENSORFLOW[0][2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must be 4-dimensional or 5-dimensional"):
        fused_batch_norm(X[0], SCALE, OFFSET, MEAN, VARIANCE)
