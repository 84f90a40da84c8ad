"""MaxPool over windows that tile the input (VALID, stride = window: ops/nn/pooling.py `_max_pool_tiles`)
against a NumPy reference: the largest non-NaN cell of each window, the dtype's lowest finite value
for a window of only NaN and -inf (TensorFlow's CPU kernel, see test_max_pool_nan.py); rows and
columns that no window covers are dropped; batches larger than one block run in blocks."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import pooling


def _reference(x, kh, kw):
    n, h, w, c = x.shape
    oh, ow = h // kh, w // kw
    cells = x[:, :oh * kh, :ow * kw].reshape(n, oh, kh, ow, kw, c).transpose(0, 1, 3, 5, 2, 4).reshape(n, oh, ow, c, -1)
    cells = np.where(np.isnan(cells), -np.inf, cells)
    return np.maximum(cells.max(axis=-1), np.finfo(x.dtype).min).astype(x.dtype)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape, k", [((3, 7, 9, 5), (2, 2)), ((2, 11, 10, 3), (3, 2)), ((1, 6, 8, 4), (1, 3)),
                                      ((4, 5, 5, 2), (2, 1)), ((5, 4, 4, 1), (4, 4))])
def test_tiling_windows_match_numpy(dtype, shape, k, monkeypatch):
    monkeypatch.setattr(pooling, "POOL_BLOCK_BYTES", 200)  # several blocks, the last one shorter
    rng = np.random.default_rng(sum(shape) + k[0])
    x = rng.standard_normal(shape).astype(dtype)
    x[rng.random(shape) < 0.2] = np.nan
    x[rng.random(shape) < 0.1] = -np.inf
    x[0, :k[0], :k[1], 0] = np.nan  # a window of NaN only
    got = tf.nn.max_pool2d(x, k, k, "VALID").numpy()
    np.testing.assert_array_equal(got, _reference(x, *k))
    graph = tf.function(lambda v: tf.nn.max_pool2d(v, k, k, "VALID"))
    np.testing.assert_array_equal(graph(x).numpy(), got)


def test_an_empty_batch_and_a_window_larger_than_the_input():
    x = np.zeros((0, 4, 4, 2), np.float32)
    assert tf.nn.max_pool2d(x, 2, 2, "VALID").shape == (0, 2, 2, 2)
    y = np.ones((2, 1, 4, 2), np.float32)
    assert tf.nn.max_pool2d(y, 2, 2, "VALID").shape == (2, 0, 2, 2)
