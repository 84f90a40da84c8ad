"""SelectV2's branch-free kernel (ops/array/branchless_select.py) against np.where, bit for bit: nan
payloads, infinities, -0.0, broadcasting of the condition and of either branch, every float
width; small or non-float inputs take np.where itself."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.array.branchless_select import BRANCHLESS_MIN_SIZE, select

SPECIALS = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-310, -3.5, 7.0])


def _values(rng, shape, dtype):
    v = np.array(rng.standard_normal(shape), dtype)
    flat = v.reshape(-1)  # a view: v gets the special values
    n = min(len(SPECIALS), flat.size)
    flat[:n] = SPECIALS[:n].astype(dtype)
    rng.shuffle(flat)
    return v


def _bits(a):
    a = np.asarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c_shape, x_shape, y_shape", [
    ((128, 96), (128, 96), (128, 96)),
    ((128, 96), (128, 96), ()),  # a ReLU / maximum gradient: select(mask, g, 0)
    ((128, 96), (), (128, 96)),
    ((128, 1), (128, 96), (96,)),  # the condition broadcasts too
    ((128, 96), (96,), (128, 1)),  # neither branch has the result's shape
])
def test_matches_np_where_bit_for_bit(dtype, c_shape, x_shape, y_shape):
    rng = np.random.default_rng(0)
    c = rng.random(c_shape) < 0.5
    x, y = _values(rng, x_shape, dtype), _values(rng, y_shape, dtype)
    expected = np.where(c, x, y)
    got = select(c, x, y)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert max(x.size, y.size, c.size) >= BRANCHLESS_MIN_SIZE
    np.testing.assert_array_equal(_bits(got), _bits(expected))


def test_other_inputs_take_np_where():
    rng = np.random.default_rng(1)
    c = rng.random((128, 96)) < 0.5
    for x, y in [(np.arange(c.size).reshape(c.shape), np.zeros(c.shape, np.int64)),
                 (np.ones(c.shape, np.complex64), np.zeros(c.shape, np.complex64)),
                 (np.ones(c.shape, np.float32), np.zeros(c.shape, np.float64)),
                 (np.ones((4, 4), np.float32), np.full((4, 4), -0.0, np.float32))]:
        cc = c if x.shape == c.shape else c[:4, :4]
        got, expected = select(cc, x, y), np.where(cc, x, y)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


def test_tf_where_and_the_maximum_gradient_use_it_in_graphs_and_eagerly():
    rng = np.random.default_rng(2)
    x = _values(rng, (256, 64), np.float32)
    g = _values(rng, (256, 64), np.float32)
    expected_select = np.where(x > 0, g, np.float32(-0.0))
    eager = tf.where(tf.constant(x > 0), tf.constant(g), tf.constant(np.full(x.shape, -0.0, np.float32)))
    np.testing.assert_array_equal(_bits(eager.numpy()), _bits(expected_select))

    @tf.function
    def grad(x, g):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.maximum(x, 0.0) * g
        return tape.gradient(y, x)

    # TensorFlow's Maximum gradient: select(x >= 0, upstream, 0), so nan/inf upstream stays where selected
    expected = np.where(x >= 0, g, np.float32(0.0))
    got = grad(tf.constant(x), tf.constant(g)).numpy()
    np.testing.assert_array_equal(_bits(got), _bits(expected))
