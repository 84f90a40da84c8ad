"""Gradcheck rows for the tf.image colour ops: RGBToHSV's piecewise rule (TensorFlow's) against
float64 finite differences, on positive pixels with three distinct channels (away from the ties
and sector boundaries where the function has a kink), and the linear YUV/YIQ conversions."""
import numpy as np
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row


def _distinct_pixels(rng, shape=(2, 3)):
    """Channels at least 0.1 apart in [0.1, 0.9], every ordering of them represented."""
    base = np.array([0.15, 0.5, 0.85])
    pixels = [rng.permutation(base) + rng.uniform(-0.04, 0.04, 3) for _ in range(int(np.prod(shape)))]
    return [np.array(pixels).reshape(shape + (3,))]


ROWS = [
    GradRow("RGBToHSV", tf.image.rgb_to_hsv, [(2, 3, 3)], make=_distinct_pixels),
    GradRow("RGBToHSV/six-orderings", tf.image.rgb_to_hsv, [(12, 3)],
            make=lambda rng: _distinct_pixels(rng, (12,))),
    GradRow("ExtractImagePatches", lambda x: tf.image.extract_patches(x * x, [1, 2, 3, 1], [1, 2, 1, 1],
                                                                      [1, 1, 2, 1], "SAME"), [(2, 5, 6, 2)], order=2),
    GradRow("ExtractImagePatches/valid", lambda x: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 1, 2, 1],
                                                                            [1, 2, 1, 1], "VALID"), [(1, 6, 5, 3)]),
    GradRow("sobel_edges", tf.image.sobel_edges, [(1, 4, 5, 2)]),
    GradRow("rgb_to_yuv/yuv_to_rgb", lambda x: tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x) * x), [(2, 2, 3)]),
    GradRow("rgb_to_yiq/yiq_to_rgb", lambda x: tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(x) * x), [(2, 2, 3)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_image_gradients(row):
    check_row(row)
