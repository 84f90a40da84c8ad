"""Gradcheck rows for the tf.nn breadth additions: depthwise/separable convolution (and the two
depthwise backprop ops, called directly so their own gradients are checked), space/depth moves,
softsign and the composed losses and moment helpers. LRN is float32/half only, as in TensorFlow, so
the float64 harness cannot run it: tests/ops/test_nn_breadth.py checks its gradient instead."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import depthwise as D
from eagerflow._src.ops.registry import bind
from tests.gradcheck.harness import GradRow, check_row

_DW_ATTRS = {"strides": [1, 2, 1, 1], "dilations": [1, 1, 1, 1], "padding": "SAME"}
_DW_X = tf.constant(np.random.default_rng(4).uniform(-1, 1, (1, 4, 3, 2)))
_DW_F = tf.constant(np.random.default_rng(5).uniform(-1, 1, (2, 2, 2, 3)))


def _backprop_input(f, dy):
    return bind(D.DepthwiseConv2dNativeBackpropInput, (tf.constant([1, 4, 3, 2]), f, dy), _DW_ATTRS)


def _backprop_filter(x, dy):
    return bind(D.DepthwiseConv2dNativeBackpropFilter, (x, tf.constant([2, 2, 2, 3]), dy), _DW_ATTRS)


def _positive_targets(rng):
    return [rng.uniform(1.5, 3.0, (2, 3)), rng.uniform(-1, 1, (2, 3))]


def _moment_helpers(x):
    counts, m_ss, v_ss, _ = tf.nn.sufficient_statistics(x, [0], shift=0.25)
    mean, variance = tf.nn.normalize_moments(counts, m_ss, v_ss, shift=0.25)
    return mean + 2.0 * variance


def _weighted_moments(x, w):
    mean, variance = tf.nn.weighted_moments(x, [1], tf.abs(w) + 0.5)
    return mean * 3.0 + variance


ROWS = [
    GradRow("depthwise_conv2d", lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"),
            [(1, 4, 3, 2), (2, 2, 2, 3)], order=2),
    GradRow("depthwise_conv2d_valid_dilated", lambda x, f: tf.nn.depthwise_conv2d(
        x, f, [1, 1, 1, 1], "VALID", dilations=[2, 1]), [(2, 5, 3, 2), (2, 2, 2, 1)]),
    GradRow("DepthwiseConv2dNativeBackpropInput", _backprop_input, [(2, 2, 2, 3), (1, 2, 3, 6)], order=2),
    GradRow("DepthwiseConv2dNativeBackpropFilter", _backprop_filter, [(1, 4, 3, 2), (1, 2, 3, 6)], order=2),
    GradRow("separable_conv2d", lambda x, f, p: tf.nn.separable_conv2d(x, f, p, [1, 1, 1, 1], "SAME"),
            [(1, 3, 3, 2), (2, 2, 2, 2), (1, 1, 4, 3)]),
    GradRow("space_to_depth", lambda x: tf.nn.space_to_depth(x, 2), [(1, 4, 2, 3)], order=2),
    GradRow("depth_to_space", lambda x: tf.nn.depth_to_space(x, 2), [(1, 2, 3, 8)], order=2),
    GradRow("softsign", tf.nn.softsign, [(3, 4)], order=2),
    GradRow("crelu", lambda x: tf.nn.crelu(x, axis=0), [(3, 4)]),
    GradRow("weighted_cross_entropy", lambda z, y: tf.nn.weighted_cross_entropy_with_logits(y, z, 2.5),
            [(3, 4), (3, 4)], low=-3, high=3),
    GradRow("log_poisson_loss_full", lambda t, c: tf.nn.log_poisson_loss(t, c, compute_full_loss=True),
            [(2, 3), (2, 3)], make=_positive_targets),
    GradRow("compute_average_loss", lambda x, w: tf.nn.compute_average_loss(x, sample_weight=w), [(4,), (4,)]),
    GradRow("sufficient_statistics+normalize_moments", _moment_helpers, [(4, 3)]),
    GradRow("weighted_moments", _weighted_moments, [(2, 4), (2, 4)]),
    GradRow("avg_pool1d", lambda x: tf.nn.avg_pool1d(x, 2, 1, "SAME"), [(2, 5, 2)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
