"""tf.image.sobel_edges, ssim and ssim_multiscale against TensorFlow 2.21's numbers (written in)."""
import numpy as np
import pytest

import eagerflow as tf


def _wave(shape, k=0.37, phase=0.0):
    n = int(np.prod(shape))
    return ((np.sin(np.arange(n) * k + phase) + 1) / 2).reshape(shape).astype(np.float32)


IMG = _wave((2, 5, 6, 2))
A = _wave((2, 16, 16, 3))
B = np.clip(0.8 * A + 0.2 * _wave((2, 16, 16, 3), 1.3, 0.5), 0, 1).astype(np.float32)
A2 = _wave((1, 48, 48, 1), 0.11)
B2 = np.clip(A2 * 0.7 + 0.3 * _wave((1, 48, 48, 1), 0.9, 1.0), 0, 1).astype(np.float32)

# TensorFlow: sobel_edges(IMG)[0, :, :, 1, :] (rounded to 6 places) and sum(|sobel_edges(IMG)|)
TF_SOBEL_CH1 = [
    [[0.0, 0.0], [0.0, 1.601714], [0.0, 0.97689], [0.0, -0.158909], [0.0, -1.211589], [0.0, 0.0]],
    [[-1.619028, 0.0], [-2.488274, 0.732469], [-3.348668, 0.985741], [-2.457498, 0.723409], [-0.280903, 0.082689],
     [1.013375, 0.0]],
    [[3.523585, 0.0], [2.827914, -0.832448], [0.878923, -0.258727], [-1.5298, 0.450324], [-3.138341, 0.923828],
     [-3.59148, 0.0]],
    [[-0.276894, 0.0], [0.966668, -0.284556], [2.875749, -0.846529], [3.280632, -0.965714], [1.969538, -0.579769],
     [0.919079, 0.0]],
    [[0.0, 0.0], [0.0, 0.959006], [0.0, -0.181011], [0.0, -1.226349], [0.0, -1.630228], [0.0, 0.0]]]
TF_SOBEL_ABS_SUM = 211.08749389648438


def test_sobel_edges_matches_tensorflow():
    got = tf.image.sobel_edges(tf.constant(IMG))
    assert got.shape == (2, 5, 6, 2, 2) and got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy()[0, :, :, 1, :], TF_SOBEL_CH1, atol=2e-6)
    assert float(tf.reduce_sum(tf.abs(got))) == pytest.approx(TF_SOBEL_ABS_SUM, rel=1e-6)
    assert tf.image.sobel_edges(tf.constant(IMG, tf.float64)).dtype == tf.float64


def test_sobel_edges_graph_as_tensorflow():
    cf = tf.function(tf.image.sobel_edges).get_concrete_function(tf.TensorSpec([None, None, None, 2], tf.float32))
    assert {"DepthwiseConv2dNative", "MirrorPad", "Tile"} <= {op.type for op in cf.graph.get_operations()}
    assert cf.outputs[0].shape.as_list() == [None, None, None, 2, 2]
    np.testing.assert_allclose(cf(tf.constant(IMG)).numpy(), tf.image.sobel_edges(IMG).numpy(), rtol=1e-6)


@pytest.mark.parametrize("kwargs,want", [
    (dict(max_val=1.0, filter_size=5), [0.9520095, 0.9520361]),
    (dict(max_val=1.0), [0.95243216, 0.952445]),
    (dict(max_val=2.0, filter_size=7, filter_sigma=0.8, k1=0.02, k2=0.05), [0.9459769, 0.9459494]),
], ids=["filter5", "defaults", "sigma-k1-k2"])
def test_ssim_matches_tensorflow(kwargs, want):
    got = tf.image.ssim(A, B, **kwargs)
    assert got.dtype == tf.float32 and got.shape == (2,)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    traced = tf.function(lambda x, y: tf.image.ssim(x, y, **kwargs))(tf.constant(A), tf.constant(B))
    np.testing.assert_allclose(traced.numpy(), want, rtol=1e-5)


def test_ssim_of_one_image_and_of_integer_images():
    assert float(tf.image.ssim(A[0], B[0], 1.0)) == pytest.approx(0.95243216, rel=1e-5)
    u8a, u8b = (A * 255).astype(np.uint8), (B * 255).astype(np.uint8)
    np.testing.assert_allclose(tf.image.ssim(u8a, u8b, 255, filter_size=5).numpy(), [0.9521501, 0.9521038],
                               rtol=1e-5)
    assert float(tf.image.ssim(A, A, 1.0)[0]) == pytest.approx(1.0, abs=1e-6)


def test_ssim_multiscale_matches_tensorflow():
    got = tf.image.ssim_multiscale(A2, B2, 1.0, filter_size=3, power_factors=(0.3, 0.3, 0.4))
    np.testing.assert_allclose(got.numpy(), [0.87902635], rtol=1e-5)
    got = tf.image.ssim_multiscale(A2, B2, 1.0, filter_size=3)  # the five default weights, odd sizes padded
    np.testing.assert_allclose(got.numpy(), [0.91394275], rtol=1e-5)
    traced = tf.function(lambda x, y: tf.image.ssim_multiscale(x, y, 1.0, filter_size=3))
    np.testing.assert_allclose(traced(tf.constant(A2), tf.constant(B2)).numpy(), [0.91394275], rtol=1e-5)


def test_ssim_shape_mismatch_as_tensorflow():
    with pytest.raises(ValueError, match=r"Shapes \(16, 16, 3\) and \(8, 16, 3\) are incompatible"):
        tf.image.ssim(A, B[:, :8], 1.0)


def test_ssim_gradient_is_finite_difference():
    """d ssim / d img1 in float64 arithmetic of the float32 graph: central differences agree."""
    x, y = tf.constant(A[:1, :8, :8, :1]), tf.constant(B[:1, :8, :8, :1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.reduce_sum(tf.image.ssim(x, y, 1.0, filter_size=3))
    grad = tape.gradient(s, x).numpy()
    eps = 1e-2
    for idx in [(0, 1, 2, 0), (0, 4, 4, 0), (0, 7, 0, 0)]:
        bump = np.zeros_like(A[:1, :8, :8, :1])
        bump[idx] = eps
        up = float(tf.image.ssim(x + bump, y, 1.0, filter_size=3)[0])
        down = float(tf.image.ssim(x - bump, y, 1.0, filter_size=3)[0])
        assert grad[idx] == pytest.approx((up - down) / (2 * eps), rel=2e-2, abs=2e-4)
