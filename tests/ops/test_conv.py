"""conv2d and pooling against slow explicit-loop references (written here, independently of the
kernels), plus numbers recorded from TensorFlow 2.21 for the padding split and SAME averaging."""
import itertools

import numpy as np
import pytest

import eagerflow as tf

# --------------------------------------------------------------------------------------------------
# Slow references: one output element at a time.
# --------------------------------------------------------------------------------------------------


def _pads(size, k, stride, dilation, padding):
    eff = (k - 1) * dilation + 1
    if padding == "VALID":
        return (size - eff) // stride + 1, 0
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + eff - size, 0)
    return out, total // 2  # the odd cell goes after (bottom / right)


def ref_conv2d(x, f, stride, padding, dilation=(1, 1)):
    n, h, w, c = x.shape
    kh, kw, fc, o = f.shape
    groups = c // fc
    og = o // groups
    oh, top = _pads(h, kh, stride[0], dilation[0], padding) if isinstance(padding, str) else (
        (h + sum(padding[0]) - (kh - 1) * dilation[0] - 1) // stride[0] + 1, padding[0][0])
    ow, left = _pads(w, kw, stride[1], dilation[1], padding) if isinstance(padding, str) else (
        (w + sum(padding[1]) - (kw - 1) * dilation[1] - 1) // stride[1] + 1, padding[1][0])
    out = np.zeros((n, oh, ow, o))
    for b, i, j, q in itertools.product(range(n), range(oh), range(ow), range(o)):
        g = q // og
        total = 0.0
        for di, dj, ci in itertools.product(range(kh), range(kw), range(fc)):
            r = i * stride[0] + di * dilation[0] - top
            s = j * stride[1] + dj * dilation[1] - left
            if 0 <= r < h and 0 <= s < w:
                total += x[b, r, s, g * fc + ci] * f[di, dj, ci, q]
        out[b, i, j, q] = total
    return out


def ref_pool(x, k, stride, padding, reduce):
    n, h, w, c = x.shape
    oh, top = _pads(h, k[0], stride[0], 1, padding)
    ow, left = _pads(w, k[1], stride[1], 1, padding)
    out = np.zeros((n, oh, ow, c))
    for b, i, j, ch in itertools.product(range(n), range(oh), range(ow), range(c)):
        cells = [x[b, r, s, ch]
                 for r in range(i * stride[0] - top, i * stride[0] - top + k[0])
                 for s in range(j * stride[1] - left, j * stride[1] - left + k[1])
                 if 0 <= r < h and 0 <= s < w]
        out[b, i, j, ch] = reduce(cells)
    return out


CONV_CASES = [
    # x shape, f shape, strides, padding, dilations
    ((2, 5, 6, 3), (3, 3, 3, 4), 1, "SAME", None),
    ((1, 5, 6, 2), (2, 2, 2, 3), 2, "SAME", None),
    ((1, 6, 7, 2), (3, 2, 2, 2), [2, 3], "SAME", None),
    ((2, 7, 5, 1), (3, 3, 1, 2), 1, "VALID", 2),
    ((1, 7, 8, 2), (2, 3, 2, 2), [1, 2, 2, 1], "VALID", None),
    ((1, 5, 5, 2), (3, 3, 2, 1), 2, "SAME", [2, 1]),
    ((1, 4, 5, 2), (2, 2, 2, 3), 1, [[0, 0], [2, 1], [0, 3], [0, 0]], None),
    ((1, 4, 4, 4), (2, 2, 2, 6), 1, "SAME", None),  # two groups
]


@pytest.mark.parametrize("xs,fs,strides,padding,dilations", CONV_CASES)
def test_conv2d_matches_loop_reference(xs, fs, strides, padding, dilations):
    rng = np.random.default_rng(0)
    x, f = rng.normal(size=xs), rng.normal(size=fs)
    got = tf.nn.conv2d(tf.constant(x), tf.constant(f), strides, padding, dilations=dilations).numpy()
    s = [strides] * 2 if isinstance(strides, int) else (strides if len(strides) == 2 else strides[1:3])
    d = (1, 1) if dilations is None else ([dilations] * 2 if isinstance(dilations, int) else dilations)
    pad = padding if isinstance(padding, str) else padding[1:3]
    np.testing.assert_allclose(got, ref_conv2d(x, f, s, pad, d), rtol=1e-10, atol=1e-10)


def test_conv2d_same_padding_split_matches_tensorflow():
    # TensorFlow 2.21: a 2x2 kernel, stride 2 on 5x5 pads one row/column, at the bottom/right.
    x = (np.arange(25, dtype=np.float32) / 10).reshape(1, 5, 5, 1)
    f = (np.arange(4, dtype=np.float32) + 1).reshape(2, 2, 1, 1)
    expected = [[4.1, 6.1, 3.1], [14.1, 16.1, 7.1], [6.2, 6.8, 2.4]]
    got = tf.nn.conv2d(x, f, 2, "SAME")
    assert got.dtype == tf.float32 and got.shape == (1, 3, 3, 1)
    np.testing.assert_allclose(got.numpy()[0, ..., 0], expected, rtol=1e-6)


def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    rng = np.random.default_rng(1)
    x, f = rng.normal(size=(2, 7, 6, 3)), rng.normal(size=(3, 2, 3, 4))
    y = rng.normal(size=(2, 4, 3, 4))
    conv = tf.nn.conv2d(x, f, 2, "SAME").numpy()
    back = tf.nn.conv2d_transpose(tf.constant(y), tf.constant(f), [2, 7, 6, 3], 2, "SAME").numpy()
    np.testing.assert_allclose(np.sum(conv * y), np.sum(x * back), rtol=1e-10)


def test_conv2d_gradients_against_finite_differences_of_a_loss():
    rng = np.random.default_rng(2)
    x, f = tf.constant(rng.normal(size=(1, 4, 4, 2))), tf.constant(rng.normal(size=(2, 2, 2, 2)))
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        loss = tf.reduce_sum(tf.square(tf.nn.conv2d(x, f, 1, "SAME")))
    gx, gf = tape.gradient(loss, [x, f])
    eps = 1e-6
    fn = f.numpy().copy()
    fn[1, 0, 1, 0] += eps
    up = np.sum(np.square(ref_conv2d(x.numpy(), fn, (1, 1), "SAME")))
    fn[1, 0, 1, 0] -= 2 * eps
    down = np.sum(np.square(ref_conv2d(x.numpy(), fn, (1, 1), "SAME")))
    np.testing.assert_allclose(gf.numpy()[1, 0, 1, 0], (up - down) / (2 * eps), rtol=1e-6)
    assert gx.shape == x.shape


def test_conv1d_matches_conv2d_of_height_one():
    rng = np.random.default_rng(3)
    x, f = rng.normal(size=(2, 9, 3)), rng.normal(size=(3, 3, 4))
    got = tf.nn.conv1d(x, f, 2, "SAME").numpy()
    np.testing.assert_allclose(got, ref_conv2d(x[:, None], f[None], (1, 2), "SAME")[:, 0], rtol=1e-10)


def test_conv2d_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="input depth must be evenly divisible by filter depth: 3 vs 2"):
        tf.nn.conv2d(tf.zeros([1, 4, 4, 3]), tf.zeros([2, 2, 2, 5]), 1, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Computed output size would be negative: -1"):
        tf.nn.conv2d(tf.zeros([1, 3, 3, 3]), tf.zeros([5, 5, 3, 5]), 1, "VALID")
    # TensorFlow's reference kernel's words (its MKL build aborts the process on this input)
    with pytest.raises(tf.errors.InvalidArgumentError, match="^input must be 4-dimensional\\[3,3,3\\]"):
        tf.nn.conv2d(tf.zeros([3, 3, 3]), tf.zeros([5, 5, 3, 5]), 1, "SAME")
    with pytest.raises(tf.errors.UnimplementedError, match="strides in the batch and depth"):
        tf.nn.conv2d(tf.zeros([1, 3, 3, 3]), tf.zeros([1, 1, 3, 5]), [1, 2, 2, 2], "VALID")
    with pytest.raises(ValueError, match="strides should be of length 1, 2 or 4"):
        tf.nn.conv2d(tf.zeros([1, 3, 3, 3]), tf.zeros([1, 1, 3, 5]), [2, 2, 2], "VALID")
    # A filter exactly one larger than the input gives an empty output, as in TensorFlow.
    assert tf.nn.conv2d(tf.zeros([1, 4, 4, 3]), tf.zeros([5, 5, 3, 5]), 1, "VALID").shape == (1, 0, 0, 5)


POOL_CASES = [
    ((2, 5, 6, 3), 2, 2, "VALID"),
    ((1, 5, 6, 2), 3, 2, "SAME"),
    ((1, 7, 4, 1), [3, 2], [2, 1], "SAME"),
    ((2, 4, 4, 2), [1, 3, 3, 1], [1, 1, 1, 1], "SAME"),
]


@pytest.mark.parametrize("xs,k,s,padding", POOL_CASES)
def test_pooling_matches_loop_reference(xs, k, s, padding):
    x = np.random.default_rng(4).normal(size=xs)
    kk = [k] * 2 if isinstance(k, int) else (k if len(k) == 2 else k[1:3])
    ss = [s] * 2 if isinstance(s, int) else (s if len(s) == 2 else s[1:3])
    np.testing.assert_allclose(tf.nn.max_pool2d(x, k, s, padding).numpy(), ref_pool(x, kk, ss, padding, max))
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, k, s, padding).numpy(), ref_pool(x, kk, ss, padding, np.mean),
                               rtol=1e-12)


def test_pooling_numbers_recorded_from_tensorflow():
    x = np.arange(20, dtype=np.float32).reshape(1, 4, 5, 1)
    # SAME averages count only real cells (TensorFlow 2.21 output).
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, 3, 2, "SAME").numpy()[0, ..., 0],
                               [[5.5, 7.0, 8.5], [13.0, 14.5, 16.0]])
    np.testing.assert_allclose(tf.nn.max_pool2d(x, 3, 2, "SAME").numpy()[0, ..., 0], [[11, 13, 14], [16, 18, 19]])
    # Max-pool padding never wins, even against negative values.
    np.testing.assert_allclose(tf.nn.max_pool2d(-x, 2, 2, "SAME").numpy()[0, ..., 0],
                               [[0, -2, -4], [-10, -12, -14]])


def test_max_pool_gradient_routes_to_the_argmax_and_accumulates_overlaps():
    x = tf.constant(np.array([[1., 5., 2.], [0., 3., 4.], [7., 1., 0.]]).reshape(1, 3, 3, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 1, "VALID")  # windows' maxima: 5, 5, 7, 4
    g = tape.gradient(y, x).numpy()[0, ..., 0]
    np.testing.assert_array_equal(g, [[0, 2, 0], [0, 0, 1], [1, 0, 0]])
    # Ties go to the first maximum in the window (TensorFlow: [1, 0, 0, 0]).
    ones = tf.ones([1, 2, 2, 1])
    with tf.GradientTape() as tape:
        tape.watch(ones)
        y = tf.nn.max_pool2d(ones, 2, 2, "VALID")
    np.testing.assert_array_equal(tape.gradient(y, ones).numpy().ravel(), [1, 0, 0, 0])


def test_avg_pool_gradient_spreads_by_real_cell_count():
    x = tf.ones([1, 3, 3, 1], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.avg_pool2d(x, 2, 2, "SAME")  # windows hold 4, 2, 2 and 1 real cells
    g = tape.gradient(y, x).numpy()[0, ..., 0]
    np.testing.assert_allclose(g, [[0.25, 0.25, 0.5], [0.25, 0.25, 0.5], [0.5, 0.5, 1.0]])


def test_pool_rank3_and_errors():
    x = np.random.default_rng(5).normal(size=(2, 7, 3))
    got = tf.nn.max_pool(x, 3, 2, "SAME").numpy()
    np.testing.assert_allclose(got, ref_pool(x[:, None], [1, 3], [1, 2], "SAME", max)[:, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Computed output size would be negative"):
        tf.nn.max_pool2d(tf.zeros([1, 3, 3, 3]), 5, 1, "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'padding' of \"FULL\" is not in the "
                                                           "list of allowed values: \"SAME\", \"VALID\", \"EXPLICIT\""):
        tf.nn.max_pool2d(tf.zeros([1, 3, 3, 3]), 2, 1, "FULL")


@pytest.mark.parametrize("traced", [False, True])
def test_conv2d_transpose_output_shape_that_disagrees_with_the_input_is_refused(traced):
    """TensorFlow's MKL build aborts here (AbortedError); its reference kernel's check and words."""
    def call():
        return tf.nn.conv2d_transpose(tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 3, 2]), [1, 9, 9, 3], 1, "VALID")

    with pytest.raises(tf.errors.InvalidArgumentError, match="Size of out_backprop doesn't match computed: actual = "
                                                             "4, computed = 8 spatial_dim: 1 input: 9 filter: 2"):
        tf.function(call)() if traced else call()
