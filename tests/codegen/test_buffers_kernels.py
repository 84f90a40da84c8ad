"""codegen/buffers.py with kernels that take `out=` (`fills_out`: Conv2D, BiasAdd, Relu): a convolution's
bias, activation and batch normalization run in the convolution's own buffer, also when the batch size
is unknown (a bias of [C] broadcasts along [None, H, W, C] without changing it), and never in an array
another statement or the user still reads. Values are checked against NumPy references."""
import re

import numpy as np

import eagerflow as tf

RNG = np.random.default_rng(11)
X = RNG.standard_normal((5, 9, 8, 3)).astype(np.float32)
F = RNG.standard_normal((3, 3, 3, 4)).astype(np.float32)
B = RNG.standard_normal(4).astype(np.float32)
SCALE = RNG.standard_normal(4).astype(np.float32)
SHIFT = RNG.standard_normal(4).astype(np.float32)


def _numpy_conv(x, f):
    """float64 VALID convolution, stride 1: the sum of (shifted input) @ (filter tap)."""
    kh, kw = f.shape[:2]
    oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    y = np.zeros(x.shape[:1] + (oh, ow, f.shape[3]))
    for i in range(kh):
        for j in range(kw):
            y += x[:, i:i + oh, j:j + ow, :].astype(np.float64) @ f[i, j].astype(np.float64)
    return y


def _statement(code, kernel):
    return next(line for line in code.splitlines() if f"k_{kernel}(" in line)


def test_bias_relu_and_batch_norm_run_in_the_convolutions_buffer_at_an_unknown_batch_size():
    """The chain is fused into the convolution's statement (codegen/epilogue.py) when its operands can be
    computed first; here the bias is drawn after the convolution by a stateful op, which must not move,
    so the chain runs as separate statements, each in the convolution's own buffer."""
    f, scale, shift = (tf.constant(v) for v in (F, SCALE, SHIFT))

    def block(x):
        conv = tf.nn.conv2d(x, f, 1, "VALID")
        b = tf.random.stateless_uniform([4], seed=[1, 2]) + tf.random.uniform([4], maxval=0.0)  # stateful draw
        y = tf.nn.relu(tf.nn.bias_add(conv, b))
        return y * scale + shift

    g = tf.function(block)
    code = g.get_concrete_function(tf.TensorSpec([None, 9, 8, 3])).code
    assert "epilogue=" not in code, code
    conv = re.search(r"(\w+) = k_Conv2D\(", code).group(1)
    assert f"out={conv})" in _statement(code, "BiasAdd"), code
    bias = re.search(r"(\w+) = k_BiasAdd\(", code).group(1)
    assert f"out={bias})" in _statement(code, "Relu"), code
    relu = re.search(r"(\w+) = k_Relu\(", code).group(1)
    scaled = re.search(rf"(\w+) = k_Mul\({relu}, \w+, out={relu}\)", code)
    assert scaled is not None, code
    assert re.search(rf"k_AddV2\({scaled.group(1)}, \w+, out={scaled.group(1)}\)", code), code
    b = tf.random.stateless_uniform([4], seed=[1, 2]).numpy()
    expected = np.maximum(_numpy_conv(X, F) + b, 0) * SCALE + SHIFT
    for batch in (X, X[:1]):
        np.testing.assert_allclose(g(tf.constant(batch)).numpy(), expected[:len(batch)], rtol=1e-5, atol=1e-5)


def test_a_convolution_output_read_again_later_is_not_overwritten():
    f, b = tf.constant(F), tf.constant(B)

    def two_uses(x):
        y = tf.nn.conv2d(x, f, 1, "VALID")
        z = tf.nn.relu(tf.nn.bias_add(y, b))
        return z + tf.reduce_sum(y)

    g = tf.function(two_uses)
    code = g.get_concrete_function(tf.TensorSpec([None, 9, 8, 3])).code
    assert "out=" not in _statement(code, "BiasAdd"), code
    conv = _numpy_conv(X, F)
    np.testing.assert_allclose(g(tf.constant(X)).numpy(), np.maximum(conv + B, 0) + conv.sum(), rtol=1e-4)


def test_a_returned_convolution_keeps_its_values():
    f, b = tf.constant(F), tf.constant(B)
    g = tf.function(lambda x: (tf.nn.conv2d(x, f, 1, "VALID"),
                               tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, 1, "VALID"), b))))
    y, z = g(tf.constant(X))
    conv = _numpy_conv(X, F)
    np.testing.assert_allclose(y.numpy(), conv, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(z.numpy(), np.maximum(conv + B, 0), rtol=1e-5, atol=1e-5)


def test_an_operand_that_may_broadcast_up_an_unknown_dimension_gets_a_new_buffer():
    """[3, 1] against a buffer of [None, 1]: at run time the buffer may be [1, 1] and the sum [3, 1]."""
    g = tf.function(lambda a, c: tf.nn.relu(a) + c)
    code = g.get_concrete_function(tf.TensorSpec([None, 1]), tf.TensorSpec([3, 1])).code
    assert "out=" not in _statement(code, "AddV2"), code
    a = np.array([[-2.0]], np.float32)
    c = np.array([[1.0], [2.0], [3.0]], np.float32)
    np.testing.assert_array_equal(g(tf.constant(a), tf.constant(c)).numpy(), np.maximum(a, 0) + c)


def test_a_static_convolution_takes_a_spare_buffer_and_returns_fresh_arrays():
    """With every shape known the convolution's result comes from the pool of spare buffers kept
    between calls (no fresh allocation, no page faults); the arrays returned to the caller are new."""
    f, b = tf.constant(F), tf.constant(np.abs(B) + 1)
    big = RNG.standard_normal((64, 20, 20, 3)).astype(np.float32)
    g = tf.function(lambda x: tf.reduce_sum(tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, 1, "VALID"), b)),
                                            axis=[1, 2]))
    code = g.get_concrete_function(tf.TensorSpec(big.shape)).code
    assert re.search(r"k_Conv2D\([^\n]*out=spare", code), code
    first, second = g(tf.constant(big)).numpy(), g(tf.constant(big)).numpy()
    assert first is not second
    expected = np.maximum(_numpy_conv(big, F) + (np.abs(B) + 1), 0).sum(axis=(1, 2))
    np.testing.assert_allclose(first, expected, rtol=1e-4)
    np.testing.assert_array_equal(first, second)


def test_a_convolution_never_writes_into_its_own_dying_input():
    """A 1x1 filter [1, 1, 8, 8] broadcasts along an input [2, 8, 8, 8] without changing its shape, and
    the input dies at the convolution; still each result cell reads a whole window (here all channels
    of its pixel), so the result must not overwrite the input while it is being read."""
    f = tf.constant(RNG.standard_normal((1, 1, 8, 8)).astype(np.float32))
    x = RNG.standard_normal((2, 8, 8, 8)).astype(np.float32)
    g = tf.function(lambda v: tf.nn.conv2d(tf.exp(v), f, 1, "SAME") * 2.0)
    code = g.get_concrete_function(tf.TensorSpec(x.shape)).code
    exp = re.search(r"(\w+) = k_Exp\(", code).group(1)
    assert f"out={exp}" not in _statement(code, "Conv2D"), code
    np.testing.assert_allclose(g(tf.constant(x)).numpy(), 2 * (np.exp(x).astype(np.float64) @ f.numpy()[0, 0]),
                               rtol=1e-5)
