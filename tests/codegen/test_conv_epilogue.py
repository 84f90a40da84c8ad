"""codegen/epilogue.py and ops/nn/conv_epilogue.py: a convolution's following per-channel chain (BiasAdd,
Relu/Relu6, Mul/AddV2/Sub by one value or one per channel) runs inside the convolution's row blocks.

The fused result must be bit for bit the unfused one: the same op run eagerly (one kernel per op, no
fusion) is the reference, and a float64 NumPy computation checks both. Block boundaries are forced
to fall inside images and batches (small MACS_PER_CALL), and rows not to divide the tiled width."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import conv_epilogue, window_matmul

RNG = np.random.default_rng(27)


def _numpy_conv(x, f, stride=1):
    """float64 VALID convolution: the sum of (strided, shifted input) @ (filter tap)."""
    kh, kw = f.shape[:2]
    oh, ow = (x.shape[1] - kh) // stride + 1, (x.shape[2] - kw) // stride + 1
    y = np.zeros(x.shape[:1] + (oh, ow, f.shape[3]))
    for i in range(kh):
        for j in range(kw):
            y += x[:, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride, :].astype(np.float64) \
                @ f[i, j].astype(np.float64)
    return y


def _epilogue(code):
    found = re.findall(r"epilogue=\(([^)]*)\)", code)
    return [tuple(s.strip(" '") for s in steps.split(",") if s.strip()) for steps in found]


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few rows: several per image, and a last block shorter than the others."""
    monkeypatch.setattr(window_matmul, "MACS_PER_CALL", 700)
    monkeypatch.setattr(conv_epilogue, "TILE_WIDTH", 3 * 5)


def _check(fn, *args, rtol=1e-5, reference=None):
    """Runs `fn` traced (fused) and eagerly (unfused): equal bit for bit; and near `reference`."""
    fused = tf.function(fn)(*[tf.constant(a) for a in args]).numpy()
    eager = fn(*[tf.constant(a) for a in args]).numpy()
    np.testing.assert_array_equal(fused, eager)
    if reference is not None:
        np.testing.assert_allclose(fused, reference, rtol=rtol, atol=rtol)
    return fused


@pytest.mark.parametrize("dtype, rtol", [(np.float32, 1e-4), (np.float64, 1e-10)])
@pytest.mark.parametrize("batch", [1, 7])
def test_bias_relu_and_batch_norm_affine_fused_equal_unfused(dtype, rtol, batch, small_blocks):
    x = RNG.standard_normal((batch, 9, 11, 3)).astype(dtype)  # odd spatial sizes, 5 output channels
    f = RNG.standard_normal((3, 3, 3, 5)).astype(dtype)
    b, scale, shift = (RNG.standard_normal(5).astype(dtype) for _ in range(3))

    def block(v):
        y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b))
        return y * scale + shift

    code = tf.function(block).get_concrete_function(tf.TensorSpec([None, 9, 11, 3], dtype)).code
    assert _epilogue(code) == [("BiasAdd", "Relu", "Mul", "AddV2")], code
    assert "k_BiasAdd" not in code and "k_Relu" not in code, code
    reference = np.maximum(_numpy_conv(x, f) + b, 0) * scale + shift
    _check(block, x, reference=reference, rtol=rtol)


def test_relu6_sub_from_scalar_and_strided_shallow_input(small_blocks):
    """A first layer (1 channel, copied offset by offset), stride 2, then Relu6, 1 - x, x * 0.5, x - c."""
    x = RNG.standard_normal((5, 13, 10, 1)).astype(np.float32) * 4
    f = RNG.standard_normal((3, 3, 1, 7)).astype(np.float32)
    c = RNG.standard_normal(7).astype(np.float32)

    def block(v):
        y = tf.nn.relu6(tf.nn.conv2d(v, f, 2, "VALID"))
        return (1.0 - y) * 0.5 - c

    code = tf.function(block).get_concrete_function(tf.TensorSpec(x.shape)).code
    assert _epilogue(code) == [("Relu6", "SubFrom", "Mul", "Sub")], code
    reference = (1.0 - np.clip(_numpy_conv(x, f, 2), 0, 6)) * 0.5 - c
    _check(block, x, reference=reference)


def test_nan_passes_through_relu_and_bias_as_unfused(small_blocks):
    x = RNG.standard_normal((3, 6, 6, 2)).astype(np.float32)
    x[0, 2, 3, 1] = np.nan
    x[2, 0, 0, 0] = np.inf
    f = RNG.standard_normal((2, 2, 2, 4)).astype(np.float32)
    b = np.array([0.5, np.nan, -1.0, 2.0], np.float32)

    def block(v):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b))

    out = _check(block, x)
    assert np.isnan(out[:, :, :, 1]).all()  # the NaN bias channel
    assert np.isnan(out[0, 1:3, 2:4, :]).all()  # every window holding the NaN input cell
    finite = np.isfinite(_numpy_conv(np.nan_to_num(x, posinf=0), f))
    assert (out[..., [0, 2, 3]][finite[..., [0, 2, 3]] & np.isfinite(out[..., [0, 2, 3]])] >= 0).all()


def test_a_convolution_read_twice_is_not_fused():
    x = RNG.standard_normal((2, 7, 7, 3)).astype(np.float32)
    f = RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
    b = RNG.standard_normal(4).astype(np.float32)

    def two_uses(v):
        y = tf.nn.conv2d(v, f, 1, "VALID")
        return tf.nn.relu(tf.nn.bias_add(y, b)) + y

    code = tf.function(two_uses).get_concrete_function(tf.TensorSpec(x.shape)).code
    assert "epilogue=" not in code, code
    conv = _numpy_conv(x, f)
    _check(two_uses, x, reference=np.maximum(conv + b, 0) + conv)


def test_the_chain_stops_at_a_value_read_twice_or_returned():
    x = RNG.standard_normal((2, 7, 7, 3)).astype(np.float32)
    f = RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
    b, scale = RNG.standard_normal(4).astype(np.float32), RNG.standard_normal(4).astype(np.float32)

    def relu_read_twice(v):
        r = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b))
        return r * scale + tf.reduce_max(r)

    code = tf.function(relu_read_twice).get_concrete_function(tf.TensorSpec(x.shape)).code
    assert _epilogue(code) == [("BiasAdd", "Relu")], code
    r = np.maximum(_numpy_conv(x, f) + b, 0)
    _check(relu_read_twice, x, reference=r * scale + r.max())

    g = tf.function(lambda v: (tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b),
                               tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(v, f, 1, "VALID"), b)) * 2.0))
    code = g.get_concrete_function(tf.TensorSpec(x.shape)).code
    assert sorted(_epilogue(code)) == [("BiasAdd",), ("BiasAdd", "Relu", "Mul")], code
    first, second = g(tf.constant(x))
    np.testing.assert_allclose(first.numpy(), _numpy_conv(x, f) + b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(second.numpy(), 2 * r, rtol=1e-5, atol=1e-5)


def test_a_full_size_operand_is_not_fused():
    """Only one value or one per channel broadcasts along rows; a [H, W, C] operand does not."""
    x = RNG.standard_normal((2, 7, 7, 3)).astype(np.float32)
    f = RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
    m = RNG.standard_normal((5, 5, 4)).astype(np.float32)
    fn = lambda v: tf.nn.relu(tf.nn.conv2d(v, f, 1, "VALID")) * m
    code = tf.function(fn).get_concrete_function(tf.TensorSpec(x.shape)).code
    assert _epilogue(code) == [("Relu",)], code
    _check(fn, x, reference=np.maximum(_numpy_conv(x, f), 0) * m)


def test_keras_conv_batch_norm_inference_and_training_gradients():
    """A Keras Conv2D + BatchNormalization (variables read after the convolution, moved above it):
    inference equals the eager call; gradients through the traced call equal the eager ones."""
    keras = tf.keras
    model = keras.Sequential([keras.Input((10, 9, 2)), keras.layers.Conv2D(6, 3, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(),
                              keras.layers.Flatten(), keras.layers.Dense(3)])
    bn = model.layers[1]
    bn.moving_mean.assign(RNG.standard_normal(6).astype(np.float32))
    bn.moving_variance.assign(RNG.random(6).astype(np.float32) + 0.5)
    bn.gamma.assign(RNG.standard_normal(6).astype(np.float32))
    x = tf.constant(RNG.standard_normal((9, 10, 9, 2)).astype(np.float32))
    infer = tf.function(lambda v: model(v, training=False))
    code = infer.get_concrete_function(tf.TensorSpec([None, 10, 9, 2])).code
    assert _epilogue(code) == [("AddV2", "Relu", "Mul", "AddV2")], code  # Keras adds its bias with AddV2
    np.testing.assert_array_equal(infer(x).numpy(), model(x, training=False).numpy())

    def loss(v):
        with tf.GradientTape() as tape:
            out = tf.reduce_sum(model(v, training=False) ** 2)
        return tape.gradient(out, model.trainable_variables)

    traced, eager = tf.function(loss)(x), loss(x)
    for t, e in zip(traced, eager):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-5, atol=1e-5)
