"""The select-free activation kernels and the vectorised float32 erf/erfc (ops/math/unary.py, ops/nn/basic.py,
ops/math/erf_float32.py).

sigmoid, elu, selu and leaky_relu are rewritten without np.where: they must equal the two-branch
formulas (written out here in plain NumPy) bit for bit, special values included. softplus, erf and
erfc are new approximations: they are held to ulp bounds against Python's math module (correctly
rounded to float32) and to TensorFlow 2.21's values (written in)."""
import math

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.math import unary as _math_ops
from eagerflow._src.ops.nn import basic as _nn
from eagerflow._src.ops.math.erf_float32 import erf_float32, erfc_float32

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 88.0, -88.0, 1e-3, -1e-3, 20.0, -20.0]


def _values(dtype, n=20000, scale=6.0):
    x = np.random.default_rng(3).standard_normal(n) * scale
    return np.concatenate([x, SPECIAL]).astype(dtype)


def _two_branch_sigmoid(x):
    one = x.dtype.type(1)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, one / (one + e), e / (one + e)).astype(x.dtype)


SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_select_free_kernels_equal_the_two_branch_formulas(dtype):
    x = _values(dtype)
    with np.errstate(all="ignore"):
        checks = [
            (_math_ops._sigmoid_kernel(x), _two_branch_sigmoid(x)),
            (_nn._elu_kernel(x), np.where(x > 0, x, np.expm1(np.minimum(x, 0)))),
            (_nn._selu_kernel(x), np.where(x > 0, SELU_SCALE * x, SELU_SCALE * SELU_ALPHA * np.expm1(np.minimum(x, 0)))),
        ]
        for alpha in (0.2, 0.0, 1.0, 1.5, -0.5):
            checks.append((_nn._leaky_relu_kernel(x, alpha), np.where(x > 0, x, x * np.asarray(alpha, x.dtype))))
    for got, want in checks:
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, want.astype(dtype))


@pytest.mark.parametrize("kernel", [_math_ops._sigmoid_kernel, _nn._elu_kernel, _nn._selu_kernel,
                                    _nn._softplus_kernel, lambda x: _nn._leaky_relu_kernel(x, 0.3),
                                    erf_float32, erfc_float32])
def test_rank_zero_inputs(kernel):
    for x in (np.array(-2.5, np.float32), np.array(3.0, np.float64)):
        if kernel in (erf_float32, erfc_float32):
            x = x.astype(np.float32)
        got = np.asarray(kernel(x))
        assert got.shape == () and got.dtype == x.dtype
        np.testing.assert_array_equal(got, np.asarray(kernel(x.reshape(1)))[0])


def _ulps(got, exact):
    """|got - exact| in units of float32's spacing at the correctly rounded exact value."""
    want = exact.astype(np.float32)
    return np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want)).astype(np.float64)


def test_softplus_within_four_ulp():
    x = _values(np.float32, scale=12.0)
    finite = np.isfinite(x)
    exact = np.array([max(v, 0.0) + math.log1p(math.exp(-abs(v))) for v in x[finite].astype(float)])
    got = _nn._softplus_kernel(x)
    assert _ulps(got[finite], exact).max() <= 4
    assert got[np.isposinf(x)][0] == np.inf and got[np.isneginf(x)][0] == 0 and np.isnan(got[np.isnan(x)][0])


def test_softplus_as_tensorflow():
    # TensorFlow 2.21, tf.nn.softplus on float64.
    x = np.array([-40, -20, -1, 0, 1, 20, 40], np.float64)
    want = [4.24835426e-18, 2.06115362e-09, 3.13261688e-01, 6.93147181e-01, 1.31326169e+00, 2.0e+01, 4.0e+01]
    np.testing.assert_allclose(tf.nn.softplus(x).numpy(), want, rtol=1e-8)
    f = tf.function(tf.nn.softplus)
    np.testing.assert_array_equal(f(x).numpy(), tf.nn.softplus(x).numpy())


def test_erf_float32_within_six_ulp_of_the_exact_value():
    x = np.concatenate([_values(np.float32, scale=2.0), np.linspace(-4.5, 4.5, 20001, dtype=np.float32)])
    finite = np.isfinite(x)
    exact = np.array([math.erf(v) for v in x[finite].astype(float)])
    got = erf_float32(x)
    nonzero = exact != 0
    assert _ulps(got[finite][nonzero], exact[nonzero]).max() <= 6
    np.testing.assert_array_equal(erf_float32(np.float32([np.inf, -np.inf, 0.0])), [1, -1, 0])
    assert np.signbit(erf_float32(np.float32([-0.0]))[0]) and np.isnan(erf_float32(np.float32([np.nan]))[0])


def test_erfc_float32_keeps_relative_accuracy_in_the_tail():
    x = np.concatenate([_values(np.float32, scale=4.0), np.linspace(-10, 10, 40001, dtype=np.float32)])
    finite = np.isfinite(x)
    exact = np.array([math.erfc(v) for v in x[finite].astype(float)])
    got = erfc_float32(x)[finite]
    normal = exact > np.finfo(np.float32).tiny
    ulps = _ulps(got[normal], exact[normal])
    assert ulps[np.abs(x[finite][normal]) <= 3].max() <= 11
    assert ulps.max() <= 80  # exp(-x^2)'s rounding of x^2 at |x| ~ 9
    np.testing.assert_array_equal(erfc_float32(np.float32([np.inf, -np.inf, 0.0])), [0, 2, 1])


def test_erf_erfc_and_gelu_as_tensorflow():
    # TensorFlow 2.21's values (float32 unless said).
    x = np.float32([-5, -3.5, -2, -1, -0.5, -1e-3, 0, 1e-6, 0.3, 0.9, 1.5, 2.5, 3.9, 4.5])
    erf = [-1.0, -9.9999940e-01, -9.9532235e-01, -8.4270084e-01, -5.2049989e-01, -1.1283788e-03, 0.0,
           1.1283792e-06, 3.2862678e-01, 7.9690820e-01, 9.6610510e-01, 9.9959296e-01, 1.0, 1.0]
    gelu = [-1.4332578e-06, -8.1420154e-04, -4.5500264e-02, -1.5865526e-01, -1.5426877e-01, -4.9960107e-04,
            0.0, 5.0000040e-07, 1.8537343e-01, 7.3434585e-01, 1.3997892e+00, 2.4844759e+00, 3.8998125e+00,
            4.4999847e+00]
    np.testing.assert_allclose(tf.math.erf(x).numpy(), erf, rtol=4e-7, atol=1e-12)
    # gelu through erfc, as TensorFlow computes it: x << 0 keeps its relative accuracy (1 + erf cancels).
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), gelu, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(tf.function(tf.nn.gelu)(x).numpy(), gelu, rtol=1e-6, atol=1e-12)
    xc = np.float32([-5, -3.5, -2, -1, -0.5, -1e-3, 0, 1e-6, 0.3, 0.9, 1.5, 2.5, 3.9, 4.5, 7])
    erfc = [2.0, 1.9999993, 1.9953222, 1.8427007, 1.5204999, 1.0011284, 1.0, 9.9999887e-01, 6.7137319e-01,
            2.0309180e-01, 3.3894856e-02, 4.0695202e-04, 3.4792222e-08, 1.9661604e-10, 4.1838257e-23]
    np.testing.assert_allclose(tf.math.erfc(xc).numpy(), erfc, rtol=2e-6)
    assert float(tf.math.erfc(tf.constant(0.5))) == pytest.approx(0.47950012, rel=1e-6)  # a scalar
    assert float(tf.function(tf.math.erf)(tf.constant(-1.0))) == pytest.approx(-0.8427008, rel=1e-6)
    half = tf.math.erf(np.float16([-2, -0.5, 0.25, 1, 3]))
    assert half.dtype == tf.float16
    np.testing.assert_array_equal(half.numpy(), np.float16([-0.995, -0.5205, 0.2764, 0.843, 1.0]))


def test_gelu_graph_has_tensorflows_ops():
    cf = tf.function(tf.nn.gelu).get_concrete_function(tf.TensorSpec([3], tf.float32))
    assert [op.type for op in cf.graph.get_operations() if op.type not in ("Placeholder", "Const", "Identity")] == \
        ["Mul", "Neg", "Mul", "Erfc", "Mul"]


def test_gelu_gradient_matches_the_analytic_derivative():
    x = tf.constant(np.linspace(-6, 6, 241, dtype=np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.gelu(x)
    grad = tape.gradient(y, x).numpy()
    xs = x.numpy().astype(np.float64)
    cdf = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in xs])
    exact = cdf + xs * np.exp(-xs * xs / 2) / math.sqrt(2 * math.pi)
    np.testing.assert_allclose(grad, exact, rtol=2e-6, atol=2e-7)
