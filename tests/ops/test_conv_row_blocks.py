"""Convolutions run their matmuls in row blocks below the BLAS's threading threshold
(ops/nn/window_matmul.py): a batch's convolution must not become one large BLAS call again (a
multi-threaded BLAS then waits for busy cores: 0.13 ms at batch 1 became 40 ms at batch 8), and the
blocks must compute what one product computes. Max pooling as the maximum of strided slices is
checked against a loop reference, infinities and padding included."""
import itertools

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import window_matmul as WM


def _offset_sum_conv(x, f, stride, padding, dilation, groups=1):
    """float64 reference: the sum over window offsets of (shifted input slice) @ (filter tap), per group."""
    x, f = x.astype(np.float64), f.astype(np.float64)
    n, h, w, c = x.shape
    kh, kw, fc, o = f.shape
    eff = [(kh - 1) * dilation + 1, (kw - 1) * dilation + 1]
    if padding == "SAME":
        outs = [-(-h // stride), -(-w // stride)]
        pads = [max((outs[0] - 1) * stride + eff[0] - h, 0), max((outs[1] - 1) * stride + eff[1] - w, 0)]
        x = np.pad(x, ((0, 0), (pads[0] // 2, pads[0] - pads[0] // 2), (pads[1] // 2, pads[1] - pads[1] // 2), (0, 0)))
    else:
        outs = [(h - eff[0]) // stride + 1, (w - eff[1]) // stride + 1]
    og = o // groups
    y = np.zeros((n, outs[0], outs[1], o))
    for i, j in itertools.product(range(kh), range(kw)):
        tap = x[:, i * dilation:i * dilation + stride * (outs[0] - 1) + 1:stride,
                j * dilation:j * dilation + stride * (outs[1] - 1) + 1:stride, :]
        for g in range(groups):
            y[..., g * og:(g + 1) * og] += tap[..., g * fc:(g + 1) * fc] @ f[i, j, :, g * og:(g + 1) * og]
    return y


CASES = [  # x shape, filter shape, stride, padding, dilation: batches of images, and one image over the budget
    ((32, 13, 13, 16), (3, 3, 16, 32), 1, "VALID", 1),
    ((32, 28, 28, 1), (3, 3, 1, 16), 1, "VALID", 1),
    ((2, 90, 70, 8), (5, 5, 8, 24), 2, "SAME", 1),
    ((3, 60, 64, 6), (3, 3, 3, 12), 1, "SAME", 2),  # two groups
    ((4, 17, 19, 3), (5, 5, 3, 8), 2, "SAME", 1),  # a shallow input (copied offset by offset), strided
    ((40, 9, 9, 2), (2, 3, 2, 4), 1, "VALID", 3),  # shallow and dilated, several blocks of images
    ((6, 12, 11, 8), (3, 2, 8, 5), 1, "SAME", 2),  # input gradient by window offsets: dilated and padded
]


@pytest.mark.parametrize("xs,fs,stride,padding,dilation", CASES)
def test_blocked_convolution_and_its_gradients_compute_the_whole_product(xs, fs, stride, padding, dilation):
    rng = np.random.default_rng(sum(xs))
    x = rng.standard_normal(xs).astype(np.float32)
    f = rng.standard_normal(fs).astype(np.float32)
    xt, ft = tf.constant(x), tf.constant(f)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([xt, ft])
        y = tf.nn.conv2d(xt, ft, stride, padding, dilations=dilation)
        dy = tf.constant(rng.standard_normal(y.shape).astype(np.float32))
        loss = tf.reduce_sum(y * dy)
    dx, df = tape.gradient(loss, [xt, ft])
    reference = _offset_sum_conv(x, f, stride, padding, dilation, xs[3] // fs[2])
    scale = np.abs(reference).max()
    np.testing.assert_allclose(y.numpy(), reference, rtol=0, atol=2e-6 * scale)
    # The gradients are the adjoints of the convolution: <conv(x, f), dy> = <x, dx> = <f, df>.
    inner = float(np.sum(reference * dy.numpy().astype(np.float64)))
    for value, grad in ((x, dx), (f, df)):
        assert grad.shape == value.shape
        np.testing.assert_allclose(np.sum(value.astype(np.float64) * grad.numpy()), inner,
                                   rtol=1e-4, atol=1e-4 * scale)


@pytest.mark.parametrize("traced", [False, True])
def test_a_batch_convolution_never_reaches_the_blas_as_one_large_product(traced, monkeypatch):
    """Every product the kernels hand the BLAS (forward, input and filter gradients, Conv2D, its
    transpose and Conv3D) is at most MACS_PER_CALL multiply-adds, whatever the batch."""
    sizes = []

    def recording(a, b, **kwargs):
        sizes.append(a.shape[0] * a.shape[1] * b.shape[1])
        return np.matmul(a, b, **kwargs)
    monkeypatch.setattr(WM, "_product", recording)
    rng = np.random.default_rng(7)
    x = tf.constant(rng.random((32, 13, 13, 16), dtype=np.float32))
    f = tf.Variable(rng.random((3, 3, 16, 32), dtype=np.float32))
    g = tf.Variable(rng.random((3, 3, 8, 16), dtype=np.float32))
    v = tf.constant(rng.random((8, 10, 10, 10, 4), dtype=np.float32))
    h = tf.Variable(rng.random((3, 3, 3, 4, 8), dtype=np.float32))

    def losses(x, v):
        with tf.GradientTape() as tape:
            tape.watch([x, v])
            y = tf.nn.conv2d(x, f, 1, "VALID")
            t = tf.nn.conv2d_transpose(x, g, [32, 26, 26, 8], 2, "SAME")
            z = tf.nn.conv3d(v, h, [1, 1, 1, 1, 1], "VALID")
            loss = tf.reduce_sum(y * y) + tf.reduce_sum(t * t) + tf.reduce_sum(z * z)
        return tape.gradient(loss, [x, v, f, g, h])
    grads = (tf.function(losses) if traced else losses)(x, v)
    assert all(gr is not None for gr in grads)
    # forward + input + filter products of the three ops, with each op's rows split into several blocks
    whole = 32 * 11 * 11 * 144 * 32
    assert sum(sizes) >= 3 * whole and len(sizes) >= 3 * -(-whole // WM.MACS_PER_CALL)
    assert max(sizes) <= WM.MACS_PER_CALL


@pytest.mark.parametrize("lead,macs_per_row", [((32, 26, 26), 144), ((32, 11, 11), 4608), ((3, 200, 200), 1600),
                                               ((2, 5, 7, 9), 20000), ((0, 4, 4), 9), ((5,), 10)])
def test_row_blocks_cover_every_row_once_within_the_budget(lead, macs_per_row):
    limit = max(1, WM.MACS_PER_CALL // macs_per_row)
    one_row_of_axis_1 = int(np.prod(lead[2:]))
    seen = np.zeros(lead, int)
    for index in WM.row_blocks(lead, macs_per_row):
        assert seen[index].size <= max(limit, one_row_of_axis_1)
        seen[index] += 1
    assert (seen == 1).all()


@pytest.mark.parametrize("macs_per_row", [WM.LARGE_ROW_MACS, 10 ** 6])
def test_a_wide_filter_matrix_is_one_product_for_the_blas_threads(macs_per_row, monkeypatch):
    """Compute-bound products are not split: no loop of tiny products, and the BLAS may use its threads."""
    assert WM.row_blocks((32, 28, 28), macs_per_row) == [(slice(None),)]
    calls = []
    monkeypatch.setattr(WM, "_product", lambda a, b, **kw: calls.append(a.shape) or np.matmul(a, b, **kw))
    rng = np.random.default_rng(3)
    x = tf.constant(rng.random((8, 10, 10, 64), dtype=np.float32))
    f = tf.constant(rng.random((3, 3, 64, 64), dtype=np.float32))  # K * O = 576 * 64 = 36864 multiply-adds a row
    tf.nn.conv2d(x, f, 1, "VALID")
    assert calls == [(8 * 8 * 8, 576)]


def _loop_max_pool(x, k, s, padding):
    n, h, w, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // s), -(-w // s)
        top, left = max((oh - 1) * s + k - h, 0) // 2, max((ow - 1) * s + k - w, 0) // 2
    else:
        oh, ow, top, left = (h - k) // s + 1, (w - k) // s + 1, 0, 0
    y = np.empty((n, oh, ow, c), x.dtype)
    for b, i, j, ch in itertools.product(range(n), range(oh), range(ow), range(c)):
        r0, c0 = i * s - top, j * s - left
        window = x[b, max(r0, 0):r0 + k, max(c0, 0):c0 + k, ch]
        y[b, i, j, ch] = np.max(window)
    if x.dtype.kind == "f":  # TensorFlow 2.21: a window of -inf only gives the lowest finite value
        np.maximum(y, np.finfo(x.dtype).min, out=y)
    return y


@pytest.mark.parametrize("dtype,k,s,padding", [(np.float32, 2, 2, "VALID"), (np.float32, 3, 2, "SAME"),
                                                (np.float64, 3, 1, "SAME"), (np.int32, 2, 1, "VALID")])
def test_max_pool_of_strided_slices_matches_a_loop_reference(dtype, k, s, padding):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((2, 7, 9, 3)) * 10).astype(dtype)
    if dtype != np.int32:
        x[0, 1, 1, 0] = np.inf
        x[1, 4, 5, 2] = -np.inf
        x[1, :3, :3, 1] = -np.inf  # a window (and a SAME window's real cells) of -inf only
    got = tf.nn.max_pool2d(x, k, s, padding).numpy()
    np.testing.assert_array_equal(got, _loop_max_pool(x, k, s, padding))
