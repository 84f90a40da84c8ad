"""Numerics as TensorFlow computes them (issue 8): output dtypes that do not depend on the NumPy
version's promotion rules, wide accumulation in means, and complex formulas for complex inputs.

Expected values were computed with TensorFlow 2.21 (CPU) and are written here; the one place we
deliberately differ from its CPU kernel (float16 means of more than 65,504 elements) is noted.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.core.errors import NotFoundError

# --- output dtypes: float32 in, float32 out, on NumPy 1.26 (value-based casting) and 2.x (NEP 50) ---

_UNARY = ["reciprocal", "rsqrt", "sigmoid", "exp", "log", "sqrt", "square", "tanh", "sin", "cos", "negative",
          "sign", "abs", "round", "floor", "ceil", "expm1", "log1p", "erf", "tan"]


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
@pytest.mark.parametrize("name", _UNARY)
def test_scalar_in_same_dtype_out(name, dtype):
    # NumPy 1.x promotes `1 / 0-d float32 array` to float64: a kernel written as `1 / x` gave a
    # float64 tensor from a float32 scalar under NumPy 1.26.
    x = tf.constant(1.5, dtype)
    y = getattr(tf.math, name)(x)
    assert y.dtype is dtype
    assert y.numpy().dtype == dtype.as_numpy_dtype


@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
@pytest.mark.parametrize("name", ["reciprocal", "rsqrt", "sigmoid", "sign", "sqrt", "exp"])
def test_complex_scalar_in_same_dtype_out(name, dtype):
    y = getattr(tf.math, name)(tf.constant(1.5 + 0.5j, dtype))
    assert y.dtype is dtype and y.numpy().dtype == dtype.as_numpy_dtype


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32])
def test_scalar_gradients_keep_the_dtype(dtype):
    x = tf.constant(1.5, dtype)
    for fn in (tf.math.reciprocal, tf.math.rsqrt):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        assert tape.gradient(y, x).dtype is dtype


@pytest.mark.parametrize("shape", [[], [200, 50]])
def test_dropout_runs_and_keeps_float32(shape):
    # On NumPy 1.26 dropout raised: 1 / (1 - rate) came back float64 and the multiply refused it.
    x = tf.ones(shape)
    y = tf.nn.dropout(x, rate=0.25, seed=3)
    assert y.dtype is tf.float32
    values = np.unique(y.numpy())
    assert set(values.tolist()) <= {0.0, np.float32(1 / 0.75)}


# --- reduce_mean ---------------------------------------------------------------------------------

def test_float16_mean_of_more_than_65504_elements():
    # The count 70000 is inf in float16: sum / count gave NaN (ones) or 0 (halves). Summed and
    # divided in float32 the mean is exact. (TF 2.21's CPU kernel still gives nan and 0.0 here;
    # its XLA path, tf.function(jit_compile=True), gives 1.0 as we do.)
    assert tf.reduce_mean(tf.ones([70000], tf.float16)).numpy() == np.float16(1.0)
    halves = tf.fill([70000], tf.constant(0.5, tf.float16))
    assert tf.reduce_mean(halves).numpy() == np.float16(0.5)
    out = tf.reduce_mean(tf.ones([70000, 2], tf.float16), axis=0)
    assert out.dtype is tf.float16
    np.testing.assert_array_equal(out.numpy(), [1.0, 1.0])
    traced = tf.function(lambda x: tf.reduce_mean(x))(tf.ones([70000], tf.float16))
    assert traced.numpy() == np.float16(1.0)


def test_float16_mean_gradient_of_many_elements():
    x = tf.ones([70000], tf.float16)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(x)
    g = tape.gradient(y, x)
    assert g.dtype is tf.float16
    np.testing.assert_array_equal(g.numpy()[:3], np.float16(1 / 70000))  # was 0: 1 / inf


def test_float16_mean_still_nan_when_empty():
    assert np.isnan(tf.reduce_mean(tf.zeros([0], tf.float16)).numpy())


@pytest.mark.parametrize("values, dtype, expected", [
    ([2 ** 53 + 1], tf.int64, 2 ** 53 + 1),              # a float division gave 2**53
    ([2 ** 53 + 1, 2 ** 53 + 3], tf.int64, 2 ** 53 + 2),
    ([2 ** 62, 2 ** 62], tf.int64, -(2 ** 62)),          # the int64 sum wraps, as in TensorFlow
    ([2 ** 63 - 1, 1], tf.int64, -(2 ** 62)),
    ([2 ** 64 - 1, 2 ** 64 - 1], tf.uint64, 2 ** 63 - 1),
    ([-1, -2], tf.int32, -1),                            # rounds toward zero
    ([-3, -4], tf.int64, -3),
    ([-1, -4], tf.int32, -2),
    ([-5, 0, 0], tf.int32, -1),
    ([5, 0, 0], tf.int32, 1),
    ([100, 100], tf.int8, 100),                          # no int8 wrap-around
    ([200, 200], tf.uint8, 200),
    ([2 ** 31 - 1, 2 ** 31 - 1], tf.int32, 2 ** 31 - 1),
])
def test_integer_mean_is_exact_integer_division(values, dtype, expected):
    x = tf.constant(values, dtype)
    for fn in (tf.reduce_mean, tf.function(lambda t: tf.reduce_mean(t))):
        out = fn(x)
        assert out.dtype is dtype
        assert int(out.numpy()) == expected


def test_integer_mean_over_an_axis_and_empty():
    np.testing.assert_array_equal(tf.reduce_mean(tf.constant([[-3, -4], [5, 6]]), axis=1).numpy(), [-3, 5])
    out = tf.reduce_mean(tf.zeros([0], tf.int32))
    assert out.dtype is tf.int32 and out.numpy() == 0


# --- complex inputs ------------------------------------------------------------------------------

C = np.array([1j, 1 + 1j], np.complex64)
A = np.array([[1 + 1j, 2j], [3, 4 - 1j]], np.complex64)


def _both(fn, *args):
    """The eager result and the traced one (they must agree)."""
    eager = fn(*[tf.constant(a) for a in args]).numpy()
    traced = tf.function(fn)(*[tf.constant(a) for a in args]).numpy()
    np.testing.assert_allclose(traced, eager, rtol=1e-6)
    return eager


def test_complex_sigmoid():
    # The real-only formula (|x|, x >= 0) gave 0.731 + 0j for sigmoid(1j).
    np.testing.assert_allclose(_both(tf.sigmoid, C), [0.5 + 0.27315122j, 0.78204155 + 0.20194823j], rtol=1e-6)
    np.testing.assert_allclose(_both(tf.nn.silu, C), [-0.27315122 + 0.5j, 0.5800933 + 0.9839898j], rtol=1e-6)


def test_complex_sign_and_squared_difference():
    np.testing.assert_allclose(_both(tf.sign, np.array([1j, 1 + 1j, 0], np.complex64)),
                               [1j, 0.70710677 + 0.70710677j, 0], rtol=1e-6)
    out = _both(tf.math.squared_difference, C, np.array([0j, 1j], np.complex64))
    np.testing.assert_allclose(out, [1 + 0j, 1 + 0j])  # |x - y|^2, not (x - y)^2 = -1


def test_complex_matmul_adjoint_conjugates():
    np.testing.assert_allclose(_both(lambda a, b: tf.matmul(a, b, adjoint_a=True), A, A),
                               [[11, 14 - 1j], [14 + 1j, 21]])
    np.testing.assert_allclose(_both(lambda a, b: tf.matmul(a, b, adjoint_b=True), A, A),
                               [[6, 1 + 11j], [1 - 11j, 26]])
    np.testing.assert_allclose(_both(lambda a, b: tf.matmul(a, b, transpose_a=True), A, A),
                               [[9 + 2j, 10 - 1j], [10 - 1j, 11 - 8j]])
    batch = np.stack([A, A])
    np.testing.assert_allclose(_both(lambda a, b: tf.matmul(a, b, adjoint_a=True), batch, batch),
                               [[[11, 14 - 1j], [14 + 1j, 21]]] * 2)


def test_transpose_conjugate_and_conj():
    np.testing.assert_allclose(_both(lambda a: tf.transpose(a, conjugate=True), A),
                               [[1 - 1j, 3], [-2j, 4 + 1j]])
    np.testing.assert_allclose(_both(tf.math.conj, C), [-1j, 1 - 1j])
    real = tf.constant([1.5, 2.0])
    assert tf.math.conj(real) is real  # TensorFlow returns a real tensor itself
    np.testing.assert_allclose(tf.transpose(tf.constant([[1.0, 2.0]]), conjugate=True).numpy(), [[1.0], [2.0]])


def test_complex_values_of_ops_that_take_complex():
    # TF 2.21 values for ops NumPy already computes right; kept so a rewrite cannot regress them.
    expected = {
        "tanh": [1.5574077j, 1.0839232 + 0.27175257j],
        "expm1": [-0.45969772 + 0.84147096j, 0.46869385 + 2.2873552j],
        "log1p": [0.34657356 + 0.7853982j, 0.804719 + 0.4636476j],
        "rsqrt": [0.70710677 - 0.70710677j, 0.77688706 - 0.32179713j],
        "reciprocal": [-1j, 0.5 - 0.5j],
        "square": [-1, 2j],
    }
    for name, want in expected.items():
        np.testing.assert_allclose(_both(getattr(tf.math, name), C), want, rtol=1e-6, atol=1e-7, err_msg=name)


def test_round_has_no_complex_kernel():
    # TensorFlow: NotFoundError "Could not find device for node: {{node Round}} = Round[T=DT_COMPLEX64]"
    c = tf.constant(C)
    with pytest.raises(NotFoundError, match=r"Could not find device for node: \{\{node Round\}\} = "
                                            r"Round\[T=DT_COMPLEX64\]"):
        tf.round(c)
    with pytest.raises(NotFoundError, match="Round"):
        tf.function(tf.round)(c)


def test_clip_by_value_refuses_complex_when_traced():
    # TensorFlow clips with Minimum, whose dtype list has no complex type (TF 2.21, traced: TypeError
    # "Value passed to parameter 'x' has DataType complex64 not in list of allowed values: bfloat16, ...").
    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType complex64 not in list of allowed "
                                        "values"):
        tf.function(lambda x: tf.clip_by_value(x, 0j, 1j))(tf.constant(C))


def test_matmul_refuses_transpose_and_adjoint_together():
    a = tf.ones([2, 2])
    with pytest.raises(ValueError) as info:
        tf.matmul(a, a, transpose_a=True, adjoint_a=True)
    assert str(info.value) == ("Only one of `transpose_a` and `adjoint_a` can be True. Received `transpose_a`=True, "
                               "`adjoint_a`=True.")


# --- ops that exist for complex numbers (TF 2.21 values) -----------------------------------------

Z = np.array([0.5 + 1j, -1.2 + 0.3j, 0j], np.complex64)


def test_abs_of_complex_is_its_real_magnitude():
    # Was refused ("Value for attr 'T' of complex64 ...").
    out = tf.abs(tf.constant(Z))
    assert out.dtype is tf.float32
    np.testing.assert_allclose(out.numpy(), [1.118034, 1.2369317, 0.0], rtol=1e-6)
    assert tf.math.abs(tf.constant(Z.astype(np.complex128))).dtype is tf.float64
    np.testing.assert_allclose(_both(tf.abs, Z), [1.118034, 1.2369317, 0.0], rtol=1e-6)


def test_real_and_imag():
    np.testing.assert_allclose(_both(tf.math.real, Z), [0.5, -1.2, 0.0])
    np.testing.assert_allclose(_both(tf.math.imag, Z), [1.0, 0.3, 0.0])
    assert tf.math.real(tf.constant(Z)).dtype is tf.float32
    real = tf.constant([1.5])
    assert tf.math.real(real) is real
    np.testing.assert_array_equal(tf.math.imag(real).numpy(), [0.0])
    np.testing.assert_array_equal(tf.math.imag(tf.constant([1])).numpy(), [0])
    with pytest.raises(TypeError, match="input must be a numeric tensor, but got tensor with dtype <dtype: 'string'>"):
        tf.math.real(tf.constant(["a"]))


def test_complex_variance_and_std_are_real():
    # Was NotImplementedError. TensorFlow: mean(|x - mean|^2).
    x = tf.constant(Z)
    var, std = tf.math.reduce_variance(x), tf.math.reduce_std(x)
    assert var.dtype is tf.float32 and std.dtype is tf.float32
    np.testing.assert_allclose(var.numpy(), 0.6844, atol=1e-4)
    np.testing.assert_allclose(std.numpy(), 0.8273, atol=1e-4)
    rows = tf.reshape(tf.concat([x, x * 2], 0), [2, 3])
    np.testing.assert_allclose(tf.math.reduce_variance(rows, axis=1).numpy(), [0.6844, 2.7378], atol=1e-4)


def _grad(f, z=Z):
    x = tf.constant(z)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(f(x))
    return tape.gradient(y, x).numpy()


@pytest.mark.parametrize("f, expected", [
    (tf.abs, [0.4472 + 0.8944j, -0.9701 + 0.2425j, 0]),
    (lambda z: tf.math.real(z) * tf.constant([1.0, 2.0, 3.0]), [1, 2, 3]),
    (lambda z: tf.math.imag(z) * tf.constant([1.0, 2.0, 3.0]), [1j, 2j, 3j]),
    (tf.math.reduce_variance, [0.4889 + 0.3778j, -0.6444 - 0.0889j, 0.1556 - 0.2889j]),
    (lambda z: tf.sign(z) * tf.constant(1 + 0.5j, tf.complex64), [0.8944 - 0.4472j, -0.0476 - 0.1902j, 0]),
    (lambda z: tf.square(tf.abs(z)), [1 + 2j, -2.4 + 0.6j, 0]),
])
def test_gradients_of_complex_to_real_ops(f, expected):
    np.testing.assert_allclose(_grad(f), expected, atol=1e-4)


# --- float16 accumulations ------------------------------------------------------------------------

def test_float16_sum_accumulates_in_float32():
    # NumPy's float16 sum rounds every partial sum to float16; summing in float32 and rounding once
    # gives the correctly rounded total (TF 2.21 also accumulates halves in float32).
    w = np.random.default_rng(0).uniform(-1, 1, (300, 400)).astype(np.float16)
    out = tf.reduce_sum(tf.constant(w), 0)
    assert out.dtype is tf.float16
    np.testing.assert_array_equal(out.numpy(), w.astype(np.float64).sum(0).astype(np.float16))
    assert tf.reduce_sum(tf.ones([3000], tf.float16)).numpy() == 3000  # TF: 3e+03


@pytest.mark.parametrize("fn, total", [(tf.nn.softmax, 1.0), (lambda x: tf.exp(tf.nn.log_softmax(x)), 1.0)])
def test_float16_softmax_over_many_elements(fn, total):
    # The float16 sum of 100,000 exps was inf, and every probability 0 (TF 2.21: they sum to 1.0).
    x = tf.constant(np.random.default_rng(1).uniform(0, 0.02, 100000).astype(np.float16))
    out = fn(x)
    assert out.dtype is tf.float16
    np.testing.assert_allclose(out.numpy().astype(np.float64).sum(), total, rtol=1e-2)
