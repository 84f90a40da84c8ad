"""codegen/epilogue.py and ops/nn/conv_pool.py: a convolution (with its per-channel chain) whose result
only a tiling MaxPool reads is pooled block by block, and the chain runs after the pooling when its
steps keep the order of values.

The reference is the same function run eagerly (one kernel per op, nothing fused): the fused result
must equal it up to the BLAS's rounding of a row (the fused call splits its products into other
row pieces, and a piece of one row is a matrix-vector product that rounds differently), with NaN in
the same places; a float64 NumPy computation checks both. Running the chain after the pool instead of
before changes nothing at all: the kernel is run both ways on the same blocks and compared bit for bit.
Blocks are forced inside images and batches (small MACS_PER_CALL and BLOCK_VALUES), sizes are odd
(outputs no tile covers), inputs shallow (copied offset by offset) and deep."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import conv_epilogue, conv_pool, window_matmul

from .test_buffers_kernels import _numpy_conv  # float64 VALID convolution, stride 1

RNG = np.random.default_rng(2712)


def _numpy_pool(y, k, dtype=np.float32):
    """TensorFlow's max pool: NaN cells skipped, a tile of only NaN and -inf gives the lowest finite value."""
    n, h, w, c = y.shape
    oh, ow = h // k[0], w // k[1]
    tiles = y[:, :oh * k[0], :ow * k[1]].reshape(n, oh, k[0], ow, k[1], c)
    return np.maximum(np.where(np.isnan(tiles), -np.inf, tiles).max(axis=(2, 4)), np.finfo(dtype).min)


def _fused(code):
    """(epilogue steps, pool) of each k_Conv2D statement in generated code."""
    found = []
    for line in code.splitlines():
        if "k_Conv2D(" not in line:
            continue
        steps = re.search(r"epilogue=\(([^)]*)\)", line)
        pool = re.search(r"pool=\((\d+), (\d+)\)", line)
        found.append((tuple(s.strip(" '") for s in steps.group(1).split(",") if s.strip()) if steps else None,
                      (int(pool.group(1)), int(pool.group(2))) if pool else None))
    return found


@pytest.fixture(params=["one block", "small blocks"])
def blocks(request, monkeypatch):
    if request.param == "small blocks":  # several per image (rows of tiles), and a shorter last one
        monkeypatch.setattr(window_matmul, "MACS_PER_CALL", 700)
        monkeypatch.setattr(window_matmul, "BLOCK_VALUES", 40)
        monkeypatch.setattr(conv_epilogue, "TILE_WIDTH", 3 * 5)
    return request.param


def _check(fn, x, spec_shape, reference=None, rtol=1e-4):
    traced = tf.function(fn)
    code = traced.get_concrete_function(tf.TensorSpec(spec_shape, x.dtype)).code
    fused = traced(tf.constant(x)).numpy()
    eager = fn(tf.constant(x)).numpy()
    finite = np.isfinite(eager)
    np.testing.assert_allclose(fused, eager, rtol=1e-6, atol=1e-6 * np.abs(eager[finite]).max(initial=1.0))
    np.testing.assert_array_equal(np.isnan(fused), np.isnan(eager))
    if reference is not None:
        np.testing.assert_allclose(fused, reference, rtol=rtol, atol=rtol)
    return code, fused


@pytest.mark.parametrize("batch", [1, 6])
@pytest.mark.parametrize("channels, k", [(1, (2, 2)), (3, (3, 2)), (6, (2, 2)), (5, (1, 3))])
def test_conv_chain_and_pool_fused_equal_unfused(batch, channels, k, blocks):
    x = RNG.standard_normal((batch, 12, 13, channels)).astype(np.float32)  # 10 x 11 outputs: odd tiles left over
    f = RNG.standard_normal((3, 3, channels, 4)).astype(np.float32)
    b, shift = (RNG.standard_normal(4).astype(np.float32) for _ in range(2))
    scale = (RNG.random(4) + 0.25).astype(np.float32)

    def block(v):
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b)) * scale + shift
        return tf.nn.max_pool2d(y, k, k, "VALID")

    reference = _numpy_pool(np.maximum(_numpy_conv(x, f) + b, 0) * scale + shift, k)
    code, _ = _check(block, x, [None, 12, 13, channels], reference)
    assert _fused(code) == [(("BiasAdd", "Relu", "Mul", "AddV2"), k)], code
    assert "k_MaxPool" not in code, code


@pytest.mark.parametrize("case", ["negative scale", "zero scale", "infinite bias", "NaN shift", "1 - x"])
def test_a_chain_that_does_not_keep_the_order_runs_before_the_pool(case, blocks, monkeypatch):
    x = RNG.standard_normal((3, 9, 8, 2)).astype(np.float32)
    f = RNG.standard_normal((2, 3, 2, 3)).astype(np.float32)
    b = np.array([0.5, -0.25, 1.0], np.float32)
    scale = np.array([1.5, 0.5, 2.0], np.float32)
    shift = np.array([0.1, 0.2, -0.3], np.float32)
    if case == "negative scale":
        scale[1] = -0.5
    elif case == "zero scale":
        scale[2] = 0.0
    elif case == "infinite bias":
        b[0] = np.inf
    elif case == "NaN shift":
        shift[1] = np.nan
    orders = []
    real = conv_pool.chain_commutes_with_max
    monkeypatch.setattr(conv_pool, "chain_commutes_with_max", lambda *a: orders.append(real(*a)) or orders[-1])

    if case == "1 - x":
        def block(v):
            return tf.nn.max_pool2d(1.0 - tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b), 2, 2, "VALID")
        reference = _numpy_pool(1.0 - (_numpy_conv(x, f) + b), (2, 2))
        steps = ("BiasAdd", "SubFrom")
    else:
        def block(v):
            y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b)) * scale + shift
            return tf.nn.max_pool2d(y, 2, 2, "VALID")
        with np.errstate(invalid="ignore"):
            reference = _numpy_pool(np.maximum(_numpy_conv(x, f) + b, 0) * scale + shift, (2, 2))
        steps = ("BiasAdd", "Relu", "Mul", "AddV2")
    code, fused = _check(block, x, x.shape)
    assert _fused(code) == [(steps, (2, 2))], code
    assert orders == [False], orders
    np.testing.assert_allclose(fused, reference, rtol=1e-4, atol=1e-4)


def test_nan_and_infinite_cells_pool_as_unfused(blocks):
    """NaN cells are skipped by the pool and a tile of only NaN or -inf gives the dtype's lowest value,
    after the chain as unfused (Relu keeps NaN, turns -inf into 0)."""
    x = RNG.standard_normal((2, 8, 8, 1)).astype(np.float32)
    x[0, 1, 1, 0] = np.nan  # read by the four outputs of tile (0, 0) of a 2x2 kernel: a tile of NaN
    x[1, 5, 5, 0] = -np.inf  # the same for tile (2, 2): -inf times a positive filter
    x[1, 2, 0, 0] = np.nan  # read by outputs (1, 0) and (2, 0): one NaN cell in tiles (0, 0) and (1, 0)
    f = np.abs(RNG.standard_normal((2, 2, 1, 2))).astype(np.float32) + 0.1
    b = np.array([0.25, -0.5], np.float32)
    lowest = np.finfo(np.float32).min
    conv = _numpy_conv(x, f) + b

    def with_relu(v):
        return tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b)), 2, 2, "VALID")

    def without_relu(v):
        return tf.nn.max_pool2d(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b) * 2.0, 2, 2, "VALID")

    code, out = _check(with_relu, x, x.shape, _numpy_pool(np.maximum(conv, 0), (2, 2)))
    assert _fused(code) == [(("BiasAdd", "Relu"), (2, 2))], code
    assert (out[0, 0, 0] == lowest).all() and (out[1, 2, 2] == 0).all()
    assert np.isfinite(out[1, :2, 0]).all() and (out[1, :2, 0] > lowest).all()  # the NaN cell skipped
    code, out = _check(without_relu, x, x.shape, _numpy_pool(conv * 2, (2, 2)))
    assert _fused(code) == [(("BiasAdd", "Mul"), (2, 2))], code
    assert (out[0, 0, 0] == lowest).all() and (out[1, 2, 2] == lowest).all()


def test_a_convolution_without_a_chain_and_a_bare_pool():
    x = RNG.standard_normal((4, 11, 11, 3)).astype(np.float32)
    f = RNG.standard_normal((3, 3, 3, 8)).astype(np.float32)
    code, _ = _check(lambda v: tf.nn.max_pool2d(tf.nn.conv2d(v, f, 1, "VALID"), 3, 3, "VALID"), x, x.shape,
                     _numpy_pool(_numpy_conv(x, f), (3, 3)))
    assert _fused(code) == [((), (3, 3))], code


@pytest.mark.parametrize("pool", [
    lambda y: tf.nn.max_pool2d(y, 2, 2, "SAME"),  # padded windows
    lambda y: tf.nn.max_pool2d(y, 3, 2, "VALID"),  # overlapping windows
    lambda y: tf.nn.avg_pool2d(y, 2, 2, "VALID"),
    lambda y: tf.nn.max_pool2d(y, 2, 2, "VALID") + tf.reduce_max(y),  # the convolution's result read twice
])
def test_pools_that_do_not_tile_or_share_the_result_are_not_fused(pool):
    x = RNG.standard_normal((2, 9, 9, 3)).astype(np.float32)
    f = RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
    b = RNG.standard_normal(4).astype(np.float32)
    code, _ = _check(lambda v: pool(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b))), x, x.shape)
    assert all(p is None for _, p in _fused(code)), code


def test_grouped_and_strided_convolutions_pool_their_whole_result():
    """Two groups (one product per group) and a strided convolution: pooled after the products."""
    x = RNG.standard_normal((3, 14, 12, 4)).astype(np.float32)
    f = RNG.standard_normal((3, 3, 2, 6)).astype(np.float32)
    b = RNG.standard_normal(6).astype(np.float32)
    code, _ = _check(lambda v: tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b)),
                                                2, 2, "VALID"), x, x.shape)
    assert _fused(code) == [(("BiasAdd", "Relu"), (2, 2))], code
    g = RNG.standard_normal((3, 3, 4, 5)).astype(np.float32)
    code, _ = _check(lambda v: tf.nn.max_pool2d(tf.nn.conv2d(v, g, 2, "SAME"), 2, 2, "VALID"), x, x.shape)
    assert _fused(code) == [((), (2, 2))], code


@pytest.mark.parametrize("threads", [1, 4])
def test_helper_threads_give_the_same_bits_and_small_products(threads, monkeypatch):
    before = tf.config.threading.get_intra_op_parallelism_threads()
    tf.config.threading.set_intra_op_parallelism_threads(threads)
    sizes = []

    def recording(a, b, **kwargs):
        sizes.append(a.shape[0] * a.shape[1] * b.shape[1])
        return np.matmul(a, b, **kwargs)
    monkeypatch.setattr(window_matmul, "_product", recording)
    try:
        x = RNG.standard_normal((40, 13, 13, 16)).astype(np.float32)
        f = RNG.standard_normal((3, 3, 16, 32)).astype(np.float32)
        b = RNG.standard_normal(32).astype(np.float32)
        fn = lambda v: tf.nn.max_pool2d(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b)), 2, 2, "VALID")
        code, out = _check(fn, x, x.shape, _numpy_pool(np.maximum(_numpy_conv(x, f) + b, 0), (2, 2)))
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(before)
    assert _fused(code) == [(("BiasAdd", "Relu"), (2, 2))], code
    assert max(sizes) <= window_matmul.MACS_PER_CALL
    # only the 10 x 10 outputs the tiles cover are computed by the fused call (plus the eager 11 x 11)
    assert sum(sizes) == 40 * (100 + 121) * 144 * 32


def test_keras_conv_batch_norm_pool_inference_and_training():
    """The Keras pattern: inference fuses convolution, bias, Relu, the normalization's affine and the pool
    and equals the eager call; under a GradientTape the pool's input is kept for its gradient, so the
    pool is not fused there, and gradients equal the eager ones."""
    keras = tf.keras
    model = keras.Sequential([keras.Input((12, 11, 1)), keras.layers.Conv2D(6, 3, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(),
                              keras.layers.Conv2D(4, 2, activation="relu"), keras.layers.MaxPooling2D(),
                              keras.layers.Flatten(), keras.layers.Dense(3)])
    bn = model.layers[1]
    bn.moving_mean.assign(RNG.standard_normal(6).astype(np.float32))
    bn.moving_variance.assign(RNG.random(6).astype(np.float32) + 0.5)
    bn.gamma.assign(RNG.random(6).astype(np.float32) + 0.1)
    x = tf.constant(RNG.standard_normal((9, 12, 11, 1)).astype(np.float32))
    infer = tf.function(lambda v: model(v, training=False))
    code = infer.get_concrete_function(tf.TensorSpec([None, 12, 11, 1])).code
    assert _fused(code) == [(("AddV2", "Relu", "Mul", "AddV2"), (2, 2)), (("AddV2", "Relu"), (2, 2))], code
    np.testing.assert_allclose(infer(x).numpy(), model(x, training=False).numpy(), rtol=1e-6, atol=1e-6)

    def grads(v):
        with tf.GradientTape() as tape:
            out = tf.reduce_sum(model(v, training=False) ** 2)
        return tape.gradient(out, model.trainable_variables)

    traced = tf.function(grads)
    assert all(p is None for _, p in _fused(traced.get_concrete_function(x).code))
    for t, e in zip(traced(x), grads(x)):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("steps, operands, expected", [
    (("BiasAdd", "Relu", "Mul", "AddV2"), ([1.0, -2.0], [0.5, 3.0], [-1.0, 0.0]), True),
    (("Relu6", "Sub"), ([1e30, -1e30],), True),
    (("Mul",), ([0.5, 0.0],), False),  # x * 0 turns an infinite cell into NaN
    (("Mul",), ([0.5, -1.0],), False),  # reverses the order
    (("AddV2",), ([np.inf, 0.0],), False),
    (("BiasAdd",), ([np.nan, 0.0],), False),
    (("SubFrom",), ([1.0, 1.0],), False),
])
def test_which_chains_keep_the_order_of_values(steps, operands, expected):
    assert conv_pool.chain_commutes_with_max(steps, [np.array(v, np.float32) for v in operands]) is expected


@pytest.mark.parametrize("channels", [1, 7])
def test_the_chain_after_the_pool_gives_the_same_bits_as_before_it(channels, blocks):
    """The kernel itself, both orders on the same blocks: identical bits, NaN, infinities and all."""
    from eagerflow._src.ops.nn.windows import geometry, window_view
    x = RNG.standard_normal((5, 11, 10, channels)).astype(np.float32) * 3
    x[0, 1, 1, 0], x[2, 4, 6, 0], x[3, 0, 2, 0] = np.nan, np.inf, -np.inf
    f = RNG.standard_normal((3, 2, channels, 6)).astype(np.float32)
    steps = ("BiasAdd", "Relu6", "Mul", "Sub", "Relu", "AddV2")
    operands = [RNG.standard_normal(6).astype(np.float32) * 4, (RNG.random(6) + 0.01).astype(np.float32),
                np.float32(0.75), RNG.standard_normal(6).astype(np.float32)]
    assert conv_pool.chain_commutes_with_max(steps, operands)
    attrs = dict(strides=[1, 1, 1, 1], padding="VALID")
    geo = geometry(x.shape[1:3], f.shape[:2], attrs)
    win = window_view(x, geo, f.shape[:2], attrs)
    outs = []
    for after in (False, True):
        out = np.empty((5, geo[0][0] // 2, geo[1][0] // 2, 6), np.float32)
        finish = conv_epilogue.channel_epilogue(steps, operands, 6, np.float32)
        with np.errstate(invalid="ignore"):
            outs.append(conv_pool.pooled_windows_matmul(win, f.reshape(-1, 6), (2, 2), out, finish, after))
    np.testing.assert_array_equal(outs[0], outs[1])
    assert not np.isnan(outs[0]).any()
