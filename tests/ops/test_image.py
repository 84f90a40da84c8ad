"""tf.image.resize: values and gradients recorded from TensorFlow 2.21, a slow per-pixel reference
of half-pixel bilinear sampling, dtypes, sizes given as tensors, and errors."""
import math

import numpy as np
import pytest

import eagerflow as tf


def ref_bilinear(img, oh, ow):
    """Per-pixel half-pixel-center bilinear sampling of one [H, W] plane, written directly."""
    h, w = img.shape
    out = np.zeros((oh, ow))
    for i in range(oh):
        y = (i + 0.5) * h / oh - 0.5
        y0 = math.floor(y)
        ly = y - y0
        r0, r1 = min(max(y0, 0), h - 1), min(max(y0 + 1, 0), h - 1)
        for j in range(ow):
            x = (j + 0.5) * w / ow - 0.5
            x0 = math.floor(x)
            lx = x - x0
            c0, c1 = min(max(x0, 0), w - 1), min(max(x0 + 1, 0), w - 1)
            top = img[r0, c0] * (1 - lx) + img[r0, c1] * lx
            bottom = img[r1, c0] * (1 - lx) + img[r1, c1] * lx
            out[i, j] = top * (1 - ly) + bottom * ly
    return out


def test_bilinear_values_recorded_from_tensorflow():
    x = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4, 1)
    got = tf.image.resize(x, [5, 3])
    assert got.dtype == tf.float32 and got.shape == (2, 5, 3, 1)
    expected = [[0.16666669, 1.5, 2.8333335], [1.7666667, 3.1000001, 4.4333334], [4.1666665, 5.5, 6.8333335],
                [6.5666676, 7.9000006, 9.233335], [8.166667, 9.5, 10.833334]]
    np.testing.assert_allclose(got.numpy()[0, ..., 0], expected, rtol=1e-6)
    down = tf.image.resize(np.arange(35, dtype=np.float32).reshape(1, 5, 7, 1), [2, 3]).numpy()[0, ..., 0]
    np.testing.assert_allclose(down, [[5.916666507720947, 8.25, 10.583333015441895],
                                      [23.41666603088379, 25.75, 28.083332061767578]], rtol=1e-6)


@pytest.mark.parametrize("shape,size", [((4, 6), (7, 3)), ((5, 5), (2, 9)), ((3, 8), (3, 8)), ((1, 4), (6, 2))])
def test_bilinear_matches_per_pixel_reference(shape, size):
    img = np.random.default_rng(0).normal(size=shape)
    got = tf.image.resize(img[None, :, :, None], size).numpy()[0, ..., 0]
    np.testing.assert_allclose(got, ref_bilinear(img, *size), rtol=1e-5, atol=1e-5)


def test_nearest_values_recorded_from_tensorflow_and_dtype_kept():
    x = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4, 1)
    got = tf.image.resize(x, [5, 7], method="nearest")
    assert got.dtype == tf.float64
    np.testing.assert_array_equal(got.numpy()[0, ..., 0], [[0, 0, 1, 2, 2, 3, 3], [0, 0, 1, 2, 2, 3, 3],
                                                           [4, 4, 5, 6, 6, 7, 7], [8, 8, 9, 10, 10, 11, 11],
                                                           [8, 8, 9, 10, 10, 11, 11]])
    ints = tf.image.resize(x.astype(np.int32), [2, 7], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
    assert ints.dtype == tf.int32
    np.testing.assert_array_equal(ints.numpy()[0, ..., 0], [[0, 0, 1, 2, 2, 3, 3], [8, 8, 9, 10, 10, 11, 11]])
    down = tf.image.resize(np.arange(35, dtype=np.float32).reshape(1, 5, 7, 1), [2, 3], method="nearest")
    np.testing.assert_array_equal(down.numpy()[0, ..., 0], [[8, 10, 12], [22, 24, 26]])


def test_gradients_recorded_from_tensorflow():
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(1, 3, 4, 1))
    w = tf.constant(np.arange(15, dtype=np.float32).reshape(1, 5, 3, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.image.resize(x, [5, 3]) * w)
    expected = [[1.5, 2.0, 2.533332347869873, 4.1666669845581055],
                [9.0, 8.1, 8.699996948242188, 12.000000953674316],
                [14.5, 12.40000057220459, 12.933330535888672, 17.166669845581055]]
    np.testing.assert_allclose(tape.gradient(loss, x).numpy()[0, ..., 0], expected, rtol=1e-5)

    x = tf.constant(np.arange(35, dtype=np.float32).reshape(1, 5, 7, 1))
    w = tf.constant(np.arange(1, 7, dtype=np.float32).reshape(1, 2, 3, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.image.resize(x, [2, 3], method="nearest") * w)
    expected = np.zeros((5, 7))
    expected[1, [1, 3, 5]] = [1, 2, 3]
    expected[3, [1, 3, 5]] = [4, 5, 6]
    np.testing.assert_array_equal(tape.gradient(loss, x).numpy()[0, ..., 0], expected)


def test_antialias_values_and_gradient_recorded_from_tensorflow():
    x = np.arange(35, dtype=np.float32).reshape(1, 5, 7, 1) ** 1.5
    down = tf.image.resize(x, [2, 3], antialias=True)
    assert down.dtype == tf.float32
    np.testing.assert_allclose(down.numpy()[0, ..., 0], [[27.043276, 35.999023, 46.19828],
                                                         [105.188965, 120.45925, 136.39262]], rtol=1e-6)
    up = tf.image.resize(x, [7, 4], antialias=True).numpy()[0, ..., 0]
    np.testing.assert_allclose(up[0], [0.56325835, 3.1257043, 7.850989, 12.870921], rtol=1e-6)
    np.testing.assert_allclose(up[6], [152.3632, 165.00687, 180.37234, 193.71097], rtol=1e-6)
    xt = tf.constant(x)
    w = tf.constant(np.arange(28, dtype=np.float32).reshape(1, 7, 4, 1))
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(tf.image.resize(xt, [7, 4], antialias=True) * w)
    g = tape.gradient(loss, xt).numpy()[0, ..., 0]
    np.testing.assert_allclose(g[0], [0.8979593, 1.3632655, 1.7159185, 2.1600003, 2.6628578, 3.4857144, 3.1428556],
                               rtol=1e-5)
    np.testing.assert_allclose(g[4], [17.061226, 20.759186, 19.231022, 19.440002, 20.177961, 22.881634, 19.306112],
                               rtol=1e-5)


def test_rank3_images_size_tensors_and_integer_inputs():
    img = tf.constant(np.arange(24.0).reshape(4, 6, 1))
    out = tf.image.resize(img, [3, tf.shape(img)[1]])  # a Python int next to a tensor element
    assert out.shape == (3, 6, 1) and out.dtype == tf.float32
    assert tf.image.resize(img, tf.constant([2, 2])).shape == (2, 2, 1)
    assert tf.image.resize(np.zeros((4, 6, 1), np.uint8), [2, 7]).dtype == tf.float32


def test_preserve_aspect_ratio_sizes_match_tensorflow():
    assert tf.image.resize(np.zeros((4, 6, 1)), [5, 5], preserve_aspect_ratio=True).shape == (3, 5, 1)
    assert tf.image.resize(np.zeros((7, 3, 1)), [10, 10], preserve_aspect_ratio=True).shape == (10, 4, 1)


def test_resize_errors():
    with pytest.raises(ValueError, match="'images' must have either 3 or 4 dimensions."):
        tf.image.resize(np.zeros((4, 6)), [5, 5])
    with pytest.raises(ValueError, match="'size' must be a 1-D Tensor of 2 elements"):
        tf.image.resize(np.zeros((4, 6, 1)), [5, 5, 1])
    with pytest.raises(ValueError, match="Resize method is not implemented: foo"):
        tf.image.resize(np.zeros((4, 6, 1)), [5, 5], method="foo")
    with pytest.raises(tf.errors.InvalidArgumentError, match="output dimensions must be positive"):
        tf.image.resize(np.zeros((4, 6, 1)), [0, 5])
