"""Max pooling with NaN and -inf cells, against TensorFlow 2.21's CPU answers (recorded): NaN cells
are skipped, a window with no finite-or-greater value gives the dtype's lowest finite value, MaxPool's
gradient scans each window from its first cell and moves only on a strictly greater value, and
MaxPool3D's gradient goes to every cell equal to the output."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

nan, inf = np.nan, np.inf
F32_LOWEST = -3.4028234663852886e+38


def _pool1d_and_grad(values, k):
    x = tf.constant(np.array(values, np.float32).reshape(1, -1, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool1d(x, k, k, "VALID")
    return y.numpy().ravel().tolist(), tape.gradient(y, x).numpy().ravel().tolist()


def _pool3d_and_grad(values, k):
    x = tf.constant(np.array(values, np.float32).reshape(1, 1, 1, -1, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool3d(x, (1, 1, k), (1, 1, k), "VALID")
    return y.numpy().ravel().tolist(), tape.gradient(y, x).numpy().ravel().tolist()


def test_max_pool1d_skips_nan_and_all_nan_window_gives_lowest():
    x = np.array([nan, 1, 2, nan, nan, nan, 3, nan], np.float32).reshape(1, 8, 1)
    assert tf.nn.max_pool1d(x, 2, 2, "VALID").numpy().ravel().tolist() == [1, 2, F32_LOWEST, 3]
    same = tf.nn.max_pool1d(x, 3, 1, "SAME").numpy().ravel().tolist()
    assert same == [1, 2, 2, 2, F32_LOWEST, 3, 3, 3]


@pytest.mark.parametrize("dtype, lowest", [("float32", F32_LOWEST), ("float64", np.finfo(np.float64).min),
                                           ("float16", -65504.0), ("bfloat16", -3.3895313892515355e+38)])
def test_max_pool2d_nan_in_each_float_dtype(dtype, lowest):
    x = tf.cast(np.array([[nan, 1], [2, nan]], np.float32).reshape(1, 2, 2, 1), dtype)
    assert tf.nn.max_pool2d(x, 2, 1, "VALID").numpy().ravel().astype(np.float64).tolist() == [2.0]
    all_nan = tf.cast(np.full((1, 2, 2, 1), nan, np.float32), dtype)
    assert tf.nn.max_pool2d(all_nan, 2, 1, "VALID").numpy().astype(np.float64).ravel().tolist() == [lowest]


def test_minus_inf_window_gives_lowest_finite():
    x = np.array([[-inf, nan], [nan, nan]], np.float32).reshape(1, 2, 2, 1)
    assert tf.nn.max_pool2d(x, 2, 1, "VALID").numpy().ravel().tolist() == [F32_LOWEST]


def test_max_pooling2d_layer_and_graph_and_jit_agree():
    x = np.array([[nan, 1], [2, nan]], np.float32).reshape(1, 2, 2, 1)
    assert keras.layers.MaxPooling2D(2)(x).numpy().ravel().tolist() == [2.0]
    graph = tf.function(lambda v: tf.nn.max_pool2d(v, 2, 1, "VALID"))
    jit = tf.function(lambda v: tf.nn.max_pool2d(v, 2, 1, "VALID"), jit_compile=True)
    assert graph(x).numpy().ravel().tolist() == [2.0]
    assert jit(x).numpy().ravel().tolist() == [2.0]


def test_max_pool3d_skips_nan():
    x = np.array([nan, 5, nan, -1, nan, nan, nan, nan], np.float32).reshape(1, 2, 2, 2, 1)
    assert tf.nn.max_pool3d(x, (1, 2, 2), 1, "VALID").numpy().ravel().tolist() == [5, F32_LOWEST]


@pytest.mark.parametrize("values, k, want", [
    ([nan, 1, 2, nan, -3, nan], 2, ([1, 2, -3], [1, 0, 1, 0, 1, 0])),
    ([nan, nan, nan, 1], 2, ([F32_LOWEST, 1], [1, 0, 1, 0])),
    ([-inf, -inf], 2, ([F32_LOWEST], [1, 0])),
    ([1, nan, 2, nan, nan, 1, 3, nan, nan, nan, nan, nan], 3,
     ([2, 1, 3, F32_LOWEST], [0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0])),
])
def test_max_pool_gradient_routing(values, k, want):
    assert _pool1d_and_grad(values, k) == (want[0], want[1])


@pytest.mark.parametrize("values, want", [
    ([1, nan, 2, nan, nan, 1, 3, nan, nan, nan, nan, nan], ([2, 1, 3, F32_LOWEST], [0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0])),
    ([1, nan, 1, -inf, -inf, -inf], ([1, F32_LOWEST], [1, 0, 1, 0, 0, 0])),
])
def test_max_pool3d_gradient_goes_to_cells_equal_to_output(values, want):
    assert _pool3d_and_grad(values, 3) == (want[0], want[1])
