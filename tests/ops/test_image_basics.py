"""tf.image flips, rotations, crops, pads, dtype conversion and colour adjustments: TensorFlow
2.21's outputs on the same calls (written in), eager and inside tf.function."""
import re

import numpy as np
import pytest

import eagerflow as tf

IMG = tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32) / 96.0, [2, 4, 4, 3])
ONE = IMG[0]
U8 = tf.cast(tf.reshape(tf.range(4 * 3 * 3) * 7 % 256, [4, 3, 3]), tf.uint8)
I = tf.image


def _r(t):
    return np.round(t.numpy().astype(np.float64), 4).tolist()


def test_flips_rotations_transpose():
    assert _r(I.flip_left_right(IMG)[0, 0, :, 0]) == [0.0938, 0.0625, 0.0312, 0.0]
    assert _r(I.flip_left_right(ONE)[0, :, 0]) == [0.0938, 0.0625, 0.0312, 0.0]
    assert _r(I.flip_up_down(IMG)[0, :, 0, 0]) == [0.375, 0.25, 0.125, 0.0]
    assert _r(I.rot90(IMG)[0, :, 0, 0]) == [0.0938, 0.0625, 0.0312, 0.0]
    assert _r(I.rot90(ONE, k=2)[:, 0, 0]) == [0.4688, 0.3438, 0.2188, 0.0938]
    assert _r(I.rot90(ONE, k=3)[0, :, 0]) == [0.375, 0.25, 0.125, 0.0]
    assert _r(I.transpose(ONE)[0, :, 0]) == [0.0, 0.125, 0.25, 0.375]
    with pytest.raises(ValueError, match=re.escape("'image' (shape (4,)) must be at least three-dimensional.")):
        I.flip_left_right(tf.ones([4]))


def test_crops_and_pads():
    assert _r(I.central_crop(IMG, 0.5)[0, :, :, 0]) == [[0.1562, 0.1875], [0.2812, 0.3125]]
    five = tf.reshape(tf.range(25.), [5, 5, 1])
    assert _r(I.central_crop(five, 0.6)[:, :, 0]) == [[6, 7, 8], [11, 12, 13], [16, 17, 18]]
    assert _r(I.crop_to_bounding_box(IMG, 1, 1, 2, 2)[0, :, :, 0]) == [[0.1562, 0.1875], [0.2812, 0.3125]]
    padded = I.pad_to_bounding_box(ONE, 1, 2, 6, 7)[:, :, 0]
    assert padded.shape == (6, 7) and _r(padded)[1] == [0, 0, 0, 0.0312, 0.0625, 0.0938, 0]
    assert _r(I.resize_with_crop_or_pad(five, 3, 7)[:, :, 0]) == [[0, 5, 6, 7, 8, 9, 0], [0, 10, 11, 12, 13, 14, 0],
                                                                  [0, 15, 16, 17, 18, 19, 0]]
    assert _r(I.resize_with_pad(IMG, 6, 4)[0, :, 0, 0]) == [0.0, 0.0, 0.125, 0.25, 0.375, 0.0]
    for call, message in ((lambda: I.central_crop(IMG, 1.5), "central_fraction must be within (0, 1]"),
                          (lambda: I.crop_to_bounding_box(IMG, 3, 1, 2, 2), "height must be >= target + offset."),
                          (lambda: I.pad_to_bounding_box(ONE, 3, 0, 6, 6), "height must be <= target - offset")):
        with pytest.raises(ValueError, match=re.escape(message)):
            call()


def test_convert_image_dtype_as_tensorflow():
    assert _r(I.convert_image_dtype(tf.constant([[[0, 128, 255]]], tf.uint8), tf.float32)) == [[[0.0, 0.502, 1.0]]]
    to_u8 = I.convert_image_dtype(tf.constant([0., 0.5, 0.999, 1.0, 1.2, -0.1]), tf.uint8, saturate=True)
    assert to_u8.dtype == tf.uint8 and to_u8.numpy().tolist() == [0, 127, 255, 255, 255, 0]
    assert I.convert_image_dtype(tf.constant([0, 1, 255], tf.uint8), tf.int32).numpy().tolist() == [
        0, 8388608, 2139095040]
    assert I.convert_image_dtype(tf.constant([0, 2 ** 24, 2 ** 31 - 1], tf.int32), tf.uint8).numpy().tolist() == [
        0, 2, 255]
    assert I.convert_image_dtype(tf.constant([255], tf.uint8), tf.float16).numpy().tolist() == [1.0]


def test_colour_adjustments_as_tensorflow():
    assert _r(I.rgb_to_grayscale(IMG)[0, 0]) == [[0.0085], [0.0397], [0.071], [0.1022]]
    assert I.rgb_to_grayscale(U8)[:, :, 0].numpy().tolist() == [[5, 26, 47], [68, 89, 110], [131, 152, 174],
                                                                 [195, 216, 237]]
    assert _r(I.adjust_brightness(IMG, 0.1)[0, 0, 0]) == [0.1, 0.1104, 0.1208]
    assert I.adjust_brightness(U8, 0.5)[0].numpy().tolist() == [[127, 134, 141], [148, 155, 162], [169, 176, 183]]
    assert _r(I.adjust_contrast(IMG, 2.0)[0, 0, 0]) == [-0.2344, -0.224, -0.2135]
    assert _r(I.adjust_gamma(ONE, 2.0, 0.5)[0, 0]) == [0.0, 0.0001, 0.0002]
    assert _r(I.per_image_standardization(IMG)[0, 0, 0]) == [-1.696, -1.6238, -1.5516]
    std_u8 = I.per_image_standardization(U8)
    assert std_u8.dtype == tf.float32 and _r(std_u8[0, 0]) == [-1.6846, -1.5883, -1.4921]
    np.testing.assert_allclose(I.psnr(IMG, IMG * 0.9, max_val=1.0).numpy(), [30.9287, 22.3992], atol=1e-4)
    assert _r(I.total_variation(IMG)) == [5.625, 5.625]
    dy, dx = I.image_gradients(IMG[:1, :3, :3, :1])
    assert _r(dy)[0] == [[[0.125], [0.125], [0.125]], [[0.125], [0.125], [0.125]], [[0.0], [0.0], [0.0]]]
    assert _r(dx)[0][0] == [[0.0312], [0.0312], [0.0]]


def test_random_adjustments_keep_shapes_and_ranges():
    assert I.random_flip_left_right(IMG, seed=1).shape == (2, 4, 4, 3)
    flipped = I.random_flip_left_right(ONE, seed=1).numpy()
    assert np.array_equal(flipped, ONE.numpy()) or np.array_equal(flipped, ONE.numpy()[:, ::-1])
    assert I.random_crop(IMG, [2, 2, 2, 3], seed=1).shape == (2, 2, 2, 3)
    assert bool(tf.reduce_all(tf.abs(I.random_brightness(IMG, 0.2) - IMG) <= 0.2 + 1e-6))
    assert I.random_contrast(IMG, 0.5, 1.5).shape == (2, 4, 4, 3)


def test_a_pipeline_inside_tf_function():
    @tf.function
    def g(x):
        return I.flip_left_right(I.per_image_standardization(I.central_crop(x, 0.5)))
    assert _r(g(IMG)[0, 0, :, 0]) == [-0.1985, -0.3067]  # TF 2.21


def test_bicubic_and_area_resize_as_tensorflow():
    img = tf.reshape(tf.range(2 * 4 * 5, dtype=tf.float32) ** 1.5 / 10.0, [1, 4, 5, 2])
    assert _r(I.resize(img, [3, 7], method="bicubic")[0, :, :, 0]) == [
        [0.2763, 0.4601, 0.8022, 1.2347, 1.7373, 2.3749, 2.8457],
        [5.7125, 6.3753, 7.3523, 8.2711, 9.2241, 10.3256, 11.1063],
        [15.5457, 16.4463, 17.7613, 18.9766, 20.2186, 21.6321, 22.6263]]
    assert _r(I.resize(img, [3, 2], method="area")[0, :, :, 1]) == [[1.4776, 3.3529], [7.6288, 10.8185],
                                                                    [16.6615, 20.7541]]
    assert _r(I.resize(img, [6, 8], method="area")[0, 1, :, 0]) == [1.5811, 1.8366, 2.2199, 2.8593, 3.2023,
                                                                     3.9348, 4.5438, 4.9497]
    u8 = tf.cast(tf.reshape(tf.range(16) * 15, [4, 4, 1]), tf.uint8)
    out = I.resize(u8, [3, 3], method="bicubic")
    assert out.dtype == tf.float32 and _r(out[:, :, 0]) == [[7.7311, 28.6849, 49.6387], [91.5462, 112.5, 133.4538],
                                                            [175.3613, 196.3151, 217.2689]]


def test_bicubic_gradient_as_tensorflow():
    x = tf.constant(np.random.default_rng(0).random((1, 4, 5, 2)).astype(np.float32))
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.reduce_sum(I.resize(x, (7, 3), method="bicubic") * tf.reshape(tf.range(42, dtype=tf.float32),
                                                                             [1, 7, 3, 2]))
    # TF 2.21 (the gradient does not depend on x: the resize is linear)
    rows = _r(g.gradient(y, x)[0, :, :, 0])
    assert rows[0] == [2.6101, 1.1166, 6.6313, 3.298, 7.7091]
    assert rows[3] == [43.2809, 18.5158, 58.9024, 20.6971, 48.3799]
