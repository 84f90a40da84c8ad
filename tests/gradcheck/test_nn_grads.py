"""Gradcheck rows for tf.nn, tf.image (and the gradient ops behind them).

Gradient ops (ReluGrad, Conv2DBackprop*, MaxPoolGrad, ...) get rows of their own that call them
directly, so their gradient rules (which second derivatives use) are checked too.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import conv as C
from eagerflow._src.ops.image import resizing as I
from eagerflow._src.ops.nn import basic as N
from eagerflow._src.ops.nn import pooling as P
from eagerflow._src.ops.registry import bind
from tests.gradcheck.harness import GradRow, check_row

_RNG = np.random.default_rng(123)


def _const(shape, low=-1.0, high=1.0):
    return tf.constant(_RNG.uniform(low, high, size=shape))


def _distinct(*shapes, spacing=0.05):
    """Inputs whose values are pairwise far apart (max-pooling must not change its choice)."""
    def make(rng):
        out = []
        for s in shapes:
            n = int(np.prod(s))
            out.append((rng.permutation(n) * spacing - n * spacing / 2).reshape(s))
        return out
    return make


def _positive_variance(rng):
    return [rng.uniform(-2, 2, (3, 4)), rng.uniform(-1, 1, (4,)), rng.uniform(0.5, 2, (4,)),
            rng.uniform(-1, 1, (4,)), rng.uniform(0.5, 1.5, (4,))]


# Fixed operands for rows that differentiate a gradient op with respect to one input.
_RELU_FEATURES = _const((3, 4), -2, 2)
_POOL_X = tf.constant(_distinct((1, 5, 5, 2))(np.random.default_rng(5))[0])
_POOL_ATTRS = {"ksize": [1, 3, 3, 1], "strides": [1, 2, 2, 1], "padding": "SAME"}
_POOL_Y = bind(P.MaxPool, (_POOL_X,), _POOL_ATTRS)
_AVG_ATTRS = {"ksize": [1, 2, 3, 1], "strides": [1, 2, 1, 1], "padding": "SAME"}
_CONV_ATTRS = {"strides": [1, 2, 1, 1], "dilations": [1, 1, 1, 1], "padding": "SAME"}
_ORIG_IMAGE = _const((1, 3, 4, 2))


def _conv_backprop_filter(x, dy):
    return bind(C.Conv2DBackpropFilter, (x, tf.constant([2, 3, 2, 3]), dy), _CONV_ATTRS)


def _resize_bilinear_grad(g):
    return bind(I.ResizeBilinearGrad, (tf.cast(g, tf.float32), _ORIG_IMAGE), {"half_pixel_centers": True})


def _scale_and_translate_grad(g):
    return bind(I.ScaleAndTranslateGrad, (tf.cast(g, tf.float32), _ORIG_IMAGE, tf.constant([5 / 3, 0.75]),
                                          tf.constant([0.0, 0.0])), {"kernel_type": "triangle", "antialias": True})


def _sparse_xent(logits):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([2, 0, 3]), logits=logits)


def _logits_and_distribution(*shape):
    """Cross-entropy labels are probability distributions (the op's gradient assumes they sum to 1)."""
    def make(rng):
        labels = rng.uniform(0.1, 1.0, shape)
        return [rng.uniform(-2, 2, shape), labels / labels.sum(axis=-1, keepdims=True)]
    return make


def _moments(x):
    mean, variance = tf.nn.moments(x, axes=[0, 2])
    return mean * 2.0 + variance


ROWS = [
    # activations
    GradRow("relu", tf.nn.relu, [(3, 4)], order=2),
    GradRow("ReluGrad", lambda g: bind(N.ReluGrad, (g, _RELU_FEATURES)), [(3, 4)], order=2),
    GradRow("relu6", tf.nn.relu6, [(3, 4)], low=-2, high=8, order=2),
    GradRow("elu", tf.nn.elu, [(3, 4)], order=2),
    GradRow("selu", tf.nn.selu, [(3, 4)], order=2),
    GradRow("softplus", tf.nn.softplus, [(3, 4)], low=-5, high=5, order=2),
    GradRow("leaky_relu", lambda x: tf.nn.leaky_relu(x, alpha=0.3), [(3, 4)], order=2),
    GradRow("gelu", tf.nn.gelu, [(3, 4)], order=2),
    GradRow("gelu_tanh", lambda x: tf.nn.gelu(x, approximate=True), [(3, 4)], order=2),
    GradRow("silu", tf.nn.silu, [(3, 4)], order=2),
    # softmax family
    GradRow("softmax", tf.nn.softmax, [(3, 4)], order=2),
    GradRow("softmax_axis0", lambda x: tf.nn.softmax(x, axis=0), [(3, 4)]),
    GradRow("log_softmax", tf.nn.log_softmax, [(3, 4)], order=2),
    GradRow("softmax_xent", lambda z, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z),
            [(3, 4), (3, 4)], make=_logits_and_distribution(3, 4), order=2),
    GradRow("softmax_xent_axis1", lambda z, y: tf.nn.softmax_cross_entropy_with_logits(
        labels=tf.transpose(y, [0, 3, 1, 2]), logits=tf.transpose(z, [0, 3, 1, 2]), axis=1),
        [(2, 3, 2, 4), (2, 3, 2, 4)], make=_logits_and_distribution(2, 3, 2, 4)),
    GradRow("sparse_softmax_xent", _sparse_xent, [(3, 5)], order=2),
    GradRow("sigmoid_xent", lambda z, y: tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z),
            [(3, 4), (3, 4)], low=-3, high=3),
    # losses and normalisation
    GradRow("l2_loss", tf.nn.l2_loss, [(3, 4)], order=2),
    GradRow("bias_add", tf.nn.bias_add, [(2, 3, 4), (4,)], order=2),
    GradRow("bias_add_nchw", lambda x, b: tf.nn.bias_add(x, b, data_format="NCHW"), [(2, 3, 4), (3,)]),
    GradRow("BiasAddGrad", lambda g: bind(N.BiasAddGrad, (g,)), [(2, 3, 4)], order=2),
    GradRow("moments", _moments, [(3, 2, 4)]),
    GradRow("batch_normalization", lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
            [(3, 4), (4,), (4,), (4,), (4,)], make=_positive_variance),
    # convolution
    GradRow("conv2d_same_s2", lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), [(1, 5, 4, 2), (3, 2, 2, 3)], order=2),
    GradRow("conv2d_valid_dilated", lambda x, f: tf.nn.conv2d(x, f, 1, "VALID", dilations=2),
            [(2, 5, 5, 1), (2, 2, 1, 2)]),
    GradRow("conv2d_explicit", lambda x, f: tf.nn.conv2d(x, f, [1, 2], [[0, 0], [1, 0], [2, 1], [0, 0]]),
            [(1, 3, 4, 2), (2, 2, 2, 2)]),
    GradRow("conv2d_grouped", lambda x, f: tf.nn.conv2d(x, f, 1, "SAME"), [(1, 3, 3, 4), (2, 2, 2, 4)]),
    GradRow("conv2d_transpose", lambda x, f: tf.nn.conv2d_transpose(x, f, [1, 5, 4, 2], 2, "SAME"),
            [(1, 3, 2, 3), (3, 2, 2, 3)], order=2),
    GradRow("Conv2DBackpropFilter", _conv_backprop_filter, [(1, 4, 3, 2), (1, 2, 3, 3)], order=2),
    GradRow("conv1d", lambda x, f: tf.nn.conv1d(x, f, 1, "SAME"), [(2, 5, 2), (3, 2, 2)]),
    # pooling
    GradRow("max_pool_same", lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"), [(1, 5, 5, 2)],
            make=_distinct((1, 5, 5, 2)), order=2),
    GradRow("max_pool_valid", lambda x: tf.nn.max_pool2d(x, [2, 3], [1, 2], "VALID"), [(2, 4, 5, 1)],
            make=_distinct((2, 4, 5, 1))),
    GradRow("MaxPoolGrad", lambda g: bind(P.MaxPoolGrad, (_POOL_X, _POOL_Y, g), _POOL_ATTRS), [(1, 3, 3, 2)],
            order=2),
    # (first order only: TensorFlow registers no gradient for MaxPoolGradWithArgmax)
    GradRow("max_pool_with_argmax", lambda x: tf.nn.max_pool_with_argmax(x, [3, 2], [1, 2], "SAME")[0],
            [(2, 4, 5, 2)], make=_distinct((2, 4, 5, 2))),
    GradRow("max_pool_with_argmax_batch_index",
            lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID", include_batch_in_index=True)[0],
            [(2, 4, 4, 1)], make=_distinct((2, 4, 4, 1))),
    GradRow("MaxPoolGradGrad", lambda g: bind(P.MaxPoolGradGrad, (_POOL_X, _POOL_Y, g), _POOL_ATTRS),
            [(1, 5, 5, 2)], order=2),
    GradRow("avg_pool_same", lambda x: tf.nn.avg_pool2d(x, [2, 3], [2, 1], "SAME"), [(1, 5, 4, 2)], order=2),
    GradRow("avg_pool_valid", lambda x: tf.nn.avg_pool(x, 2, 2, "VALID"), [(2, 5, 4, 1)]),
    GradRow("AvgPoolGrad", lambda g: bind(P.AvgPoolGrad, (tf.constant([1, 5, 4, 2]), g), _AVG_ATTRS),
            [(1, 3, 4, 2)], order=2),
    # image resizing. ResizeBilinear's output is float32 (as in TensorFlow): tiny input values keep
    # float32 rounding far below the finite-difference step (the op is linear, so scale is free).
    GradRow("resize_bilinear_up", lambda x: tf.cast(tf.image.resize(x, [5, 7]), tf.float64), [(1, 3, 4, 2)],
            low=-1e-6, high=1e-6),
    GradRow("resize_bilinear_down", lambda x: tf.cast(tf.image.resize(x, [2, 3]), tf.float64), [(2, 5, 7, 1)],
            low=-1e-6, high=1e-6),
    GradRow("resize_antialias", lambda x: tf.cast(tf.image.resize(x, [2, 5], antialias=True), tf.float64),
            [(1, 5, 3, 2)], low=-1e-6, high=1e-6),
    GradRow("ScaleAndTranslateGrad", _scale_and_translate_grad, [(1, 5, 3, 2)], low=-1e-6, high=1e-6),
    GradRow("ResizeBilinearGrad", _resize_bilinear_grad, [(1, 5, 3, 2)], low=-1e-6, high=1e-6),
    GradRow("resize_bicubic", lambda x: tf.cast(tf.image.resize(x, [5, 3], method="bicubic"), tf.float64),
            [(1, 3, 4, 2)], low=-1e-6, high=1e-6),
    GradRow("ResizeBicubicGrad", lambda g: bind(I.ResizeBicubicGrad, (tf.cast(g, tf.float32), _ORIG_IMAGE),
                                                {"half_pixel_centers": True}), [(1, 5, 3, 2)], low=-1e-6, high=1e-6),
    GradRow("resize_nearest", lambda x: tf.image.resize(x, [5, 3], method="nearest"), [(1, 3, 4, 2)], order=2),
    GradRow("ResizeNearestNeighborGrad", lambda g: bind(I.ResizeNearestNeighborGrad, (g, tf.constant([3, 4])),
                                                        {"half_pixel_centers": True}), [(1, 5, 7, 1)], order=2),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
