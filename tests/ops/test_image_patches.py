"""tf.image.extract_patches (ExtractImagePatches) against TensorFlow 2.21's numbers (written in)."""
import numpy as np
import pytest

import eagerflow as tf

IMG = np.arange(2 * 7 * 6 * 2, dtype=np.float32).reshape(2, 7, 6, 2)


def _wave(shape, k=0.37, phase=0.0):
    n = int(np.prod(shape))
    return ((np.sin(np.arange(n) * k + phase) + 1) / 2).reshape(shape).astype(np.float32)


# (sizes, strides, rates, padding) -> TensorFlow's shape, first 40 values of image 0, and sum of all
CASES = [
    (([1, 3, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"), (2, 3, 3, 12),
     [0, 1, 2, 3, 12, 13, 14, 15, 24, 25, 26, 27, 4, 5, 6, 7, 16, 17, 18, 19, 28, 29, 30, 31, 8, 9, 10, 11, 20, 21,
      22, 23, 32, 33, 34, 35, 24, 25, 26, 27], 18036.0),
    (([1, 2, 3, 1], [1, 3, 1, 1], [1, 2, 1, 1], "SAME"), (2, 3, 6, 12),
     [0, 0, 0, 0, 0, 0, 0, 0, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 12, 13, 14, 15, 16, 17, 0, 0, 0, 0, 0, 0, 14, 15, 16,
      17, 18, 19, 0, 0, 0, 0], 21376.0),
    (([1, 3, 3, 1], [1, 1, 2, 1], [1, 2, 2, 1], "VALID"), (2, 3, 1, 18),
     [0, 1, 4, 5, 8, 9, 24, 25, 28, 29, 32, 33, 48, 49, 52, 53, 56, 57, 12, 13, 16, 17, 20, 21, 36, 37, 40, 41, 44,
      45, 60, 61, 64, 65, 68, 69, 24, 25, 28, 29], 8910.0),
]
# d sum(extract_patches(X, [1,2,3,1], [1,2,2,1], [1,1,1,1], "SAME") * W) / dX, image 0, channel 0
TF_GRAD = [[0.5, 0.78232, 1.24476, 0.06421, 0.89875, 0.99927], [0.98692, 0.83773, 0.68418, 0.36029, 1.36183, 0.41284],
           [0.00953, 0.04034, 1.21454, 0.82514, 0.67838, 0.37651], [0.51681, 0.79604, 1.23564, 0.05622, 0.91051, 0.9999],
           [0.69063, 0.39633, 0.67186, 0.80942, 1.22625, 0.04872], [0.00654, 0.04721, 1.22424, 0.81219, 0.67295, 0.39287],
           [0.91638, 0.99996, 0.91299, 0.0546, 1.23368, 0.79888]]


@pytest.mark.parametrize("args,shape,head,total", CASES, ids=["valid-strided", "same-rate", "valid-rates"])
def test_patches_match_tensorflow(args, shape, head, total):
    got = tf.image.extract_patches(IMG, *args)
    assert got.shape == shape and got.dtype == tf.float32
    assert got.numpy()[0].reshape(-1)[:40].tolist() == head
    assert float(tf.reduce_sum(got)) == total
    traced = tf.function(lambda x: tf.image.extract_patches(x, *args))
    cf = traced.get_concrete_function(tf.TensorSpec([None, 7, 6, 2]))
    assert cf.outputs[0].shape.as_list() == [None] + list(shape[1:])
    assert np.array_equal(cf(tf.constant(IMG)).numpy(), got.numpy())
    assert tf.image.extract_patches(IMG.astype(np.int32), *args).dtype == tf.int32


def test_gradient_matches_tensorflow():
    x = tf.constant(_wave((2, 7, 6, 2)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.extract_patches(x, [1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME") *
                          _wave((2, 4, 3, 12), 0.3))
    np.testing.assert_allclose(tape.gradient(y, x).numpy()[0, ..., 0], TF_GRAD, atol=1e-5)


@pytest.mark.parametrize("change,error,words", [
    (dict(sizes=[2, 2, 2, 1]), tf.errors.UnimplementedError, "Only support ksizes across space."),
    (dict(sizes=[1, 2, 2]), tf.errors.InvalidArgumentError, "Length for attr 'ksizes' of 3 must be at least minimum 4"),
    (dict(padding="FULL"), tf.errors.InvalidArgumentError,
     "Value for attr 'padding' of \"FULL\" is not in the list of allowed values: \"SAME\", \"VALID\""),
    (dict(sizes=[1, 9, 2, 1]), tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: -1 \[input_size: 7, effective_filter_size: 9, stride: 1\]"),
], ids=["batch-ksize", "short-ksizes", "padding", "too-large"])
def test_bad_calls_as_tensorflow(change, error, words):
    kwargs = dict(images=IMG, sizes=[1, 2, 2, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="VALID")
    kwargs.update(change)
    with pytest.raises(error, match=words):
        tf.image.extract_patches(**kwargs)
