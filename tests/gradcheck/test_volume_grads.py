"""Gradcheck rows for tf.nn.conv3d and the 3-D max-pooling gradient ops (ops/nn/volumes.py).

MaxPool3D itself takes float16/float32 only (TensorFlow's list), so the float64 harness reaches its
gradient ops directly, on a float64 volume whose pooled output is computed by the op's kernel.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import volumes as V
from eagerflow._src.ops.registry import bind
from tests.gradcheck.harness import GradRow, check_row

_CONV_ATTRS = {"strides": [1, 1, 2, 1, 1], "dilations": [1, 1, 1, 1, 1], "padding": "SAME"}
_POOL_ATTRS = {"ksize": [1, 2, 2, 2, 1], "strides": [1, 1, 2, 1, 1], "padding": "SAME"}
# pairwise distinct values: the maxima do not move under the finite-difference steps
_POOL_X_ARRAY = (np.random.default_rng(3).permutation(48) * 0.05 - 1.2).reshape(1, 3, 4, 2, 2)
_POOL_X = tf.constant(_POOL_X_ARRAY)
_POOL_Y = tf.constant(V._max_pool_kernel(_POOL_X_ARRAY, **_POOL_ATTRS))


def _backprop_filter(x, dy):
    return bind(V.Conv3DBackpropFilterV2, (x, tf.constant([2, 2, 2, 2, 3]), dy), _CONV_ATTRS)


ROWS = [
    GradRow("conv3d_same_s2", lambda x, f: tf.nn.conv3d(x, f, [1, 1, 2, 1, 1], "SAME"),
            [(1, 3, 4, 3, 2), (2, 2, 2, 2, 3)], order=2),
    GradRow("conv3d_valid_dilated", lambda x, f: tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "VALID",
                                                              dilations=[1, 2, 1, 1, 1]),
            [(1, 4, 3, 3, 1), (2, 2, 2, 1, 2)]),
    GradRow("Conv3DBackpropFilterV2", _backprop_filter, [(1, 3, 4, 3, 2), (1, 3, 2, 3, 3)], order=2),
    GradRow("MaxPool3DGrad", lambda g: bind(V.MaxPool3DGrad, (_POOL_X, _POOL_Y, g), _POOL_ATTRS),
            [tuple(_POOL_Y.shape)], order=2),
    GradRow("MaxPool3DGradGrad", lambda g: bind(V.MaxPool3DGradGrad, (_POOL_X, _POOL_Y, g), _POOL_ATTRS),
            [tuple(_POOL_X.shape)], order=2),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
