"""passes/strength.py: constant powers and power-of-two divisions become multiplications, squares
and square roots, with TensorFlow's graph results (TF 2.21's tf.function computes `x ** 3` bitwise
as `x * x * x` and `x ** 0.5` as `sqrt(x)`); everything else is left alone."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.passes.cse import eliminate_common_subexpressions
from eagerflow._src.passes.fold import fold_constants
from eagerflow._src.passes.prune import prune
from eagerflow._src.passes.simplify import forward_identities
from eagerflow._src.passes.strength import reduce_strength

from .helpers import live_types, run, trace

ALL = (forward_identities, fold_constants, reduce_strength, eliminate_common_subexpressions, prune)
RNG = np.random.default_rng(0)
X32 = (RNG.standard_normal(10_000) * 10).astype(np.float32)


def _program(fn, spec=tf.TensorSpec([None])):
    return run(trace(fn, spec), *ALL)


@pytest.mark.parametrize("power, expected", [
    (2, ["Square"]),
    (2.0, ["Square"]),
    (3, ["Square", "Mul"]),
    (4, ["Square", "Square"]),
    (0.5, ["Sqrt"]),
])
def test_small_constant_powers_become_squares_products_and_roots(power, expected):
    assert live_types(_program(lambda x: x ** power)) == expected


@pytest.mark.parametrize("fn", [
    lambda x: x ** 5,
    lambda x: x ** 1.5,
    lambda x: x ** -1,
    lambda x: x ** tf.constant([2.0, 2.0, 2.0]),  # one exponent per element: not a scalar
    lambda x: x ** tf.ones([1, 1]) * 2.0,  # broadcasting: the result has another shape than x
])
def test_other_powers_stay_pow(fn):
    assert "Pow" in live_types(_program(fn, tf.TensorSpec([3])))


def test_a_tensor_exponent_stays_pow():
    graph = trace(lambda x, y: x ** y, tf.TensorSpec([3]), tf.TensorSpec([]))
    assert live_types(run(graph, *ALL)) == ["Pow"]


def test_cube_is_tensorflows_graph_value_bitwise():
    f = tf.function(lambda x: x ** 3)
    got = f(tf.constant(X32)).numpy()
    np.testing.assert_array_equal(got, X32 * X32 * X32)  # what TF 2.21's tf.function returns
    # NumPy's power rounds once: the two-roundings product is within 2 ulp of it (the documented choice)
    ulps = np.abs(got.view(np.int32).astype(np.int64) - np.power(X32, 3).view(np.int32))
    assert ulps.max() <= 2


def test_square_and_fourth_power_values():
    np.testing.assert_array_equal(tf.function(lambda x: x ** 2)(tf.constant(X32)).numpy(), np.square(X32))
    got = tf.function(lambda x: x ** 4)(tf.constant(X32)).numpy()
    np.testing.assert_allclose(got, np.power(X32.astype(np.float64), 4), rtol=3 * 2.0 ** -23)


def test_integer_powers_are_exact_including_wraparound():
    x = np.array([-7, 0, 3, 1000, 46341, -2**31], np.int32)
    for power in (2, 3, 4):
        got = tf.function(lambda x: x ** power)(tf.constant(x)).numpy()
        np.testing.assert_array_equal(got, np.power(x, np.int32(power)))
        assert got.dtype == np.int32


def test_square_root_has_tensorflows_graph_edge_cases():
    x = np.array([-np.inf, -0.0, 0.0, 4.0, -2.0, np.inf, np.nan, 3.3], np.float32)
    with np.errstate(invalid="ignore"):
        got = tf.function(lambda x: x ** 0.5)(tf.constant(x)).numpy()
    # TF 2.21 tf.function: [nan, -0., 0., 2., nan, inf, nan, 1.8165902], -0.0 keeping its sign
    np.testing.assert_array_equal(got, np.array([np.nan, -0.0, 0.0, 2.0, np.nan, np.inf, np.nan, 1.8165902],
                                                np.float32))
    assert np.signbit(got[1]) and not np.signbit(got[2])


def test_complex_square_root_stays_pow():
    assert live_types(_program(lambda x: x ** 0.5, tf.TensorSpec([3], tf.complex64))) == ["Pow"]


@pytest.mark.parametrize("divisor", [2.0, 4.0, 0.25, -8.0, 2.0 ** -20])
def test_division_by_a_power_of_two_is_an_exact_multiplication(divisor):
    program = _program(lambda x: x / divisor)
    assert live_types(program) == ["Mul"]
    got = tf.function(lambda x: x / divisor)(tf.constant(X32)).numpy()
    np.testing.assert_array_equal(got, X32 / np.float32(divisor))


def test_subnormal_results_stay_exact():
    x = np.array([1e-38, 3e-39, -1.5e-45, 7.0, np.inf, -np.inf, np.nan], np.float32)
    with np.errstate(all="ignore"):
        got = tf.function(lambda x: x / 1024.0)(tf.constant(x)).numpy()
        np.testing.assert_array_equal(got, x / np.float32(1024.0))


@pytest.mark.parametrize("fn, dtype", [
    (lambda x: x / 3.0, tf.float32),  # 1/3 is not exact
    (lambda x: x / 0.0, tf.float32),
    (lambda x: x / 2.0 ** 127, tf.float16),  # its reciprocal underflows in float16: inf
    (lambda x: x / 2.0, tf.complex64),
    (lambda x: 2.0 / x, tf.float32),  # the constant is the numerator
])
def test_other_divisions_stay_division(fn, dtype):
    assert live_types(_program(fn, tf.TensorSpec([3], dtype))) == ["RealDiv"]


def test_half_precision_power_of_two_division():
    x = np.array([1.0, 3.0, 65504.0, 6e-5], np.float16)
    program = _program(lambda x: x / 8.0, tf.TensorSpec([4], tf.float16))
    assert live_types(program) == ["Mul"]
    got = tf.function(lambda x: x / 8.0)(tf.constant(x)).numpy()
    np.testing.assert_array_equal(got, x / np.float16(8.0))


def test_shared_squares_merge_and_dead_helpers_are_pruned_cleanly():
    """x**2 and x**4 both square x: CSE keeps one square, and pruning the merged helper keeps every
    substitution pointing at a computed tensor (graph/verify.py checks after each pass)."""
    program = _program(lambda x: x ** 3 + x ** 2 + x ** 4)
    assert live_types(program).count("Square") == 2  # x*x once, then (x*x)*(x*x)
    got = tf.function(lambda x: x ** 3 + x ** 2 + x ** 4)(tf.constant(X32[:50])).numpy()
    sq = X32[:50] * X32[:50]
    np.testing.assert_array_equal(got, X32[:50] * sq + sq + sq * sq)


def test_gradients_of_reduced_powers():
    x = tf.constant([1.5, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.function(lambda x: x ** 3 + x ** 0.5 + x / 4.0)(x)
    v = x.numpy().astype(np.float64)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 3 * v ** 2 + 0.5 / np.sqrt(v) + 0.25, rtol=1e-6)


def test_the_user_graph_keeps_its_pow():
    f = tf.function(lambda x: x ** 3)
    cf = f.get_concrete_function(tf.TensorSpec([3]))
    assert "Pow" in [op.type for op in cf.graph.get_operations()]
    assert "k_Pow" not in cf.code and "k_Square" in cf.code
