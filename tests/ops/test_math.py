"""Elementwise math, operators, dtype rules, matmul/tensordot, clip, cast, add_n: against NumPy.

The expected TensorFlow behaviours (dtype rules, error classes and messages, floor semantics) were
checked against TensorFlow 2.21 and are restated here as plain values.
"""
import operator
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerflow as tf

IAE = tf.errors.InvalidArgumentError

# Broadcasting shape pairs, including rank differences and size-1 axes on either side.
SHAPE_PAIRS = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 4)), ((), (2, 2)), ((4, 1, 3), (2, 1)), ((1,), (5,))]


def _rand(rng, shape, dtype, low=-5, high=5):
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(max(low, np.iinfo(dtype).min), high, size=shape).astype(dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


BINARY = [  # (eagerflow fn, numpy fn, dtypes)
    (tf.add, np.add, ["float32", "float64", "int32", "int64", "uint8", "float16"]),
    (tf.subtract, np.subtract, ["float32", "float64", "int32", "int64"]),
    (tf.multiply, np.multiply, ["float32", "float64", "int32", "int16", "complex64"]),
    (tf.maximum, np.maximum, ["float32", "float64", "int32", "uint16"]),
    (tf.minimum, np.minimum, ["float32", "float64", "int32", "int8"]),
    (tf.math.squared_difference, lambda a, b: np.square(a - b), ["float32", "float64", "int32"]),
    (tf.equal, np.equal, ["float32", "int32", "bool"]),
    (tf.not_equal, np.not_equal, ["float64", "int64", "bool"]),
    (tf.less, np.less, ["float32", "int32", "uint8"]),
    (tf.less_equal, np.less_equal, ["float32", "int32"]),
    (tf.greater, np.greater, ["float64", "int64"]),
    (tf.greater_equal, np.greater_equal, ["float32", "int16"]),
    (tf.logical_and, np.logical_and, ["bool"]),
    (tf.logical_or, np.logical_or, ["bool"]),
    (tf.math.logical_xor, np.logical_xor, ["bool"]),
]


@pytest.mark.parametrize("fn,ref,dtypes", BINARY, ids=lambda v: getattr(v, "__name__", None))
@pytest.mark.parametrize("shapes", SHAPE_PAIRS, ids=str)
def test_binary_forward_with_broadcasting(fn, ref, dtypes, shapes):
    rng = np.random.default_rng(0)
    for dtype in dtypes:
        a, b = _rand(rng, shapes[0], dtype), _rand(rng, shapes[1], dtype)
        out = fn(tf.constant(a), tf.constant(b))
        expected = ref(a, b)
        assert out.dtype.name == expected.dtype.name
        assert out.shape.as_list() == list(expected.shape)
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-3 if dtype == "float16" else 1e-6)


UNARY = [  # (fn, numpy ref, dtypes, domain low/high)
    (tf.negative, np.negative, ["float32", "int32", "int64", "float16"], -5, 5),
    (tf.abs, np.abs, ["float32", "float64", "int32", "int8"], -5, 5),
    (tf.sign, np.sign, ["float32", "int32"], -5, 5),
    (tf.exp, np.exp, ["float32", "float64", "complex128"], -3, 3),
    (tf.math.expm1, np.expm1, ["float32", "float64"], -3, 3),
    (tf.math.log, np.log, ["float32", "float64"], 0.1, 5),
    (tf.math.log1p, np.log1p, ["float32", "float64"], -0.5, 5),
    (tf.sqrt, np.sqrt, ["float32", "float64"], 0.1, 5),
    (tf.math.rsqrt, lambda x: 1 / np.sqrt(x), ["float32", "float64"], 0.1, 5),
    (tf.square, np.square, ["float32", "int32", "uint8"], 0, 10),
    (tf.math.reciprocal, np.reciprocal, ["float32", "float64"], 0.5, 5),
    (tf.sin, np.sin, ["float32", "float64"], -3, 3),
    (tf.cos, np.cos, ["float32", "float64"], -3, 3),
    (tf.math.tan, np.tan, ["float32", "float64"], -1, 1),
    (tf.tanh, np.tanh, ["float32", "float64", "float16"], -3, 3),
    (tf.sigmoid, lambda x: 1 / (1 + np.exp(-x)), ["float32", "float64"], -30, 30),
    (tf.round, np.round, ["float32", "float64", "int32"], -5, 5),
    (tf.floor, np.floor, ["float32", "float64"], -5, 5),
    (tf.math.ceil, np.ceil, ["float32", "float64"], -5, 5),
    (tf.math.is_nan, np.isnan, ["float32"], -5, 5),
    (tf.math.is_finite, np.isfinite, ["float64"], -5, 5),
    (tf.logical_not, np.logical_not, ["bool"], 0, 1),
]


@pytest.mark.parametrize("fn,ref,dtypes,low,high", UNARY, ids=lambda v: getattr(v, "__name__", None))
def test_unary_forward(fn, ref, dtypes, low, high):
    rng = np.random.default_rng(1)
    for dtype in dtypes:
        x = _rand(rng, (3, 4), dtype, low, high)
        out = fn(tf.constant(x))
        expected = ref(x)
        assert out.dtype.name == np.asarray(expected).dtype.name
        np.testing.assert_allclose(out.numpy(), expected, rtol=2e-3 if dtype == "float16" else 1e-6)


def test_erf_against_math_erf():
    import math
    x = np.linspace(-3, 3, 13)
    np.testing.assert_allclose(tf.math.erf(tf.constant(x)).numpy(), [math.erf(v) for v in x], rtol=1e-12)


def test_round_is_half_to_even_and_sigmoid_is_stable():
    np.testing.assert_array_equal(tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5])).numpy(), [0, 2, 2, -0, -2])
    out = tf.sigmoid(tf.constant([-1000.0, 1000.0])).numpy()
    np.testing.assert_array_equal(out, [0.0, 1.0])


def test_silent_inf_and_nan_like_tensorflow():
    # pytest replaces warning filters inside tests, so a fresh interpreter shows what users see.
    code = ("import eagerflow as tf; a = tf.constant([1.0, -1.0]); "
            "print((a / 0.0).numpy(), tf.math.log(a).numpy(), tf.cast(a / 0.0, tf.int32).numpy())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=pathlib.Path(__file__).parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    assert "inf" in done.stdout and "nan" in done.stdout
    assert "RuntimeWarning" not in done.stderr


# --- TensorFlow's dtype rules -------------------------------------------------------------------

def test_python_scalars_take_the_tensor_dtype():
    assert (tf.constant([1.0, 2.0], tf.float16) + 1.5).dtype == tf.float16
    assert (tf.constant([1.0], tf.float64) * 2).dtype == tf.float64
    assert (2 - tf.constant([1, 2], tf.int64)).dtype == tf.int64
    assert (tf.constant([1, 2], tf.uint8) + 1).dtype == tf.uint8
    np.testing.assert_array_equal((2 ** tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])


def test_int_plus_float_raises_tensorflow_message():
    msg = "cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor"
    with pytest.raises(IAE, match=r"cannot compute AddV2 as input #1\(zero-based\)") as err:
        tf.constant([1, 2]) + 1.5
    assert msg in err.value.message
    with pytest.raises(IAE) as err:
        tf.constant([1, 2]) + tf.constant([1.0, 2.0])
    assert msg in err.value.message
    with pytest.raises(IAE, match="expected to be a float tensor but is a int32 tensor"):
        tf.multiply(tf.constant([1.0]), tf.constant([1]))


@pytest.mark.parametrize("op", [operator.sub, operator.mul, operator.floordiv, operator.mod, operator.pow,
                                operator.lt, operator.eq], ids=lambda f: f.__name__)
def test_float_scalar_beside_int_tensor_is_a_type_error(op):
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        op(tf.constant([1, 2]), 1.5)
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        op(1.5, tf.constant([1, 2]))


def test_truediv_dtypes():
    out = tf.constant([1, 2]) / 2
    assert out.dtype == tf.float64
    np.testing.assert_array_equal(out.numpy(), [0.5, 1.0])
    assert (tf.constant([1, 2], tf.int16) / tf.constant([3, 3], tf.int16)).dtype == tf.float32
    assert (tf.constant([1], tf.uint8) / tf.constant([3], tf.uint8)).dtype == tf.float32
    assert (tf.constant([1], tf.int64) / tf.constant([3], tf.int64)).dtype == tf.float64
    assert tf.divide(tf.constant(5), 0).numpy() == np.inf
    with pytest.raises(TypeError, match=r"`x` and `y` must have the same dtype, got tf.int32 != tf.float32"):
        tf.constant([1, 2]) / 1.5
    with pytest.raises(TypeError, match="Invalid dtype tf.bool in __truediv__"):
        tf.constant([True]) / tf.constant([True])


def test_floordiv_and_mod_follow_floor_semantics():
    rng = np.random.default_rng(2)
    a = rng.integers(-20, 20, size=(4, 5)).astype(np.int32)
    b = rng.choice([-7, -3, -1, 1, 2, 5], size=(5,)).astype(np.int32)
    np.testing.assert_array_equal((tf.constant(a) // tf.constant(b)).numpy(), np.floor_divide(a, b))
    np.testing.assert_array_equal((tf.constant(a) % tf.constant(b)).numpy(), np.mod(a, b))
    np.testing.assert_array_equal((tf.constant([-7, 7]) // 2).numpy(), [-4, 3])
    np.testing.assert_array_equal((tf.constant([-7, 7]) % tf.constant([2, -2])).numpy(), [1, -1])
    np.testing.assert_array_equal((tf.constant([-7.5, 7.0]) // 2.0).numpy(), [-4.0, 3.0])
    np.testing.assert_array_equal((tf.constant([-7.5, 7.0]) % tf.constant([2.0, -2.0])).numpy(), [0.5, -1.0])


@pytest.mark.parametrize("op", [operator.floordiv, operator.mod], ids=lambda f: f.__name__)
def test_integer_division_by_zero(op):
    with pytest.raises(IAE, match="Integer division by zero"):
        op(tf.constant([1, 2]), tf.constant([1, 0]))


def test_integer_pow_rules():
    np.testing.assert_array_equal((tf.constant([2, 3]) ** 3).numpy(), [8, 27])
    with pytest.raises(IAE, match="Integers to negative integer powers are not allowed"):
        tf.constant(2) ** -1


@pytest.mark.parametrize("fn,value,dtype", [
    (tf.negative, [1], tf.uint8), (tf.abs, [1], tf.uint16), (tf.exp, [1], tf.int32), (tf.sqrt, [4], tf.int32),
    (tf.math.is_nan, [1], tf.int32), (tf.square, [True], tf.bool)], ids=lambda v: getattr(v, "__name__", None))
def test_unsupported_dtype_raises_attr_error(fn, value, dtype):
    with pytest.raises(IAE, match=f"Value for attr 'T' of {dtype.name} is not in the list of allowed values"):
        fn(tf.constant(value, dtype))


def test_bool_arithmetic_is_refused():
    with pytest.raises(IAE, match="Value for attr 'T' of bool"):
        tf.constant([True]) + tf.constant([False])
    with pytest.raises(IAE, match="Value for attr 'T' of float"):
        tf.constant([1.0]) & tf.constant([2.0])
    with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype bool"):
        tf.constant([True]) & 1


# --- operators --------------------------------------------------------------------------------

@given(st.lists(st.integers(-50, 50), min_size=1, max_size=6), st.integers(1, 9))
@settings(max_examples=40, deadline=None)
def test_int_operators_match_python(values, d):
    a = tf.constant(values)
    for op in (operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod,
               operator.and_, operator.or_, operator.xor):
        np.testing.assert_array_equal(op(a, d).numpy(), [op(v, d) for v in values])
        if 0 not in values or op not in (operator.floordiv, operator.mod):
            np.testing.assert_array_equal(op(d, a).numpy(), [op(d, v) for v in values])
    np.testing.assert_array_equal((-a).numpy(), [-v for v in values])
    np.testing.assert_array_equal(abs(a).numpy(), [abs(v) for v in values])
    np.testing.assert_array_equal((~a).numpy(), [~v for v in values])
    for op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne):
        np.testing.assert_array_equal(op(a, d).numpy(), [op(v, d) for v in values])


def test_float_operators_and_pow():
    rng = np.random.default_rng(3)
    x, y = rng.uniform(0.5, 2, (2, 3)), rng.uniform(0.5, 2, (3,))
    a, b = tf.constant(x), tf.constant(y)
    np.testing.assert_allclose((a / b).numpy(), x / y)
    np.testing.assert_allclose((a ** b).numpy(), x ** y)
    np.testing.assert_allclose((2.0 / a).numpy(), 2.0 / x)
    np.testing.assert_allclose((a @ tf.constant(x.T)).numpy(), x @ x.T)


def test_bool_operators():
    p, q = np.array([True, True, False, False]), np.array([True, False, True, False])
    a, b = tf.constant(p), tf.constant(q)
    np.testing.assert_array_equal((a & b).numpy(), p & q)
    np.testing.assert_array_equal((a | b).numpy(), p | q)
    np.testing.assert_array_equal((a ^ b).numpy(), p ^ q)
    np.testing.assert_array_equal((~a).numpy(), ~p)
    np.testing.assert_array_equal((a | True).numpy(), [True] * 4)


def test_equality_operators():
    a = tf.constant([1, 2])
    assert (a == None) is False  # noqa: E711 - the operator is what is tested
    assert (a != None) is True  # noqa: E711
    out = a == tf.constant([1, 2, 3])  # shapes that do not broadcast: a scalar bool tensor
    assert out.shape.rank == 0 and not bool(out.numpy())
    assert bool((a != [1, 2, 3]).numpy())
    np.testing.assert_array_equal((a == 2).numpy(), [False, True])
    with pytest.raises(IAE, match="cannot compute Equal"):
        a == tf.constant([1.0, 2.0])
    with pytest.raises(TypeError, match="Cannot convert"):
        a == "a"


# --- matmul, tensordot ------------------------------------------------------------------------

@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_matmul_transpose_flags(ta, tb):
    rng = np.random.default_rng(4)
    a = rng.normal(size=(3, 2) if ta else (2, 3))
    b = rng.normal(size=(4, 3) if tb else (3, 4))
    expected = (a.T if ta else a) @ (b.T if tb else b)
    np.testing.assert_allclose(tf.matmul(a, b, transpose_a=ta, transpose_b=tb).numpy(), expected)
    np.testing.assert_allclose(tf.linalg.matmul(tf.constant(a), tf.constant(b), adjoint_a=ta, adjoint_b=tb).numpy(),
                               expected)


@pytest.mark.parametrize("sa,sb", [((2, 3, 4), (2, 4, 5)), ((1, 3, 4), (6, 4, 2)), ((3, 4), (5, 4, 2)),
                                   ((2, 1, 3, 4), (5, 4, 2))], ids=str)
def test_batch_matmul_broadcasts_batch_dims(sa, sb):
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=sa).astype(np.float32), rng.normal(size=sb).astype(np.float32)
    out = tf.matmul(a, b)
    assert out.shape.as_list() == list(np.matmul(a, b).shape)
    np.testing.assert_allclose(out.numpy(), np.matmul(a, b), rtol=1e-5, atol=1e-5)
    adj = tf.matmul(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), adjoint_a=True, adjoint_b=True)
    np.testing.assert_allclose(adj.numpy(), np.matmul(a, b), rtol=1e-5, atol=1e-5)


def test_matmul_complex_adjoint_and_int():
    a = np.array([[1 + 2j, 3j], [2, 1 - 1j]])
    np.testing.assert_allclose(tf.matmul(a, a, transpose_b=True).numpy(), a @ a.T)
    ints = tf.matmul(tf.ones([2, 3], tf.int32), tf.ones([3, 2], tf.int32))
    assert ints.dtype == tf.int32 and ints.numpy().tolist() == [[3, 3], [3, 3]]


def test_matmul_errors():
    with pytest.raises(IAE, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
    with pytest.raises(IAE, match="must have compatible batch dimensions"):
        tf.matmul(tf.ones([2, 2, 3]), tf.ones([3, 3, 2]))
    with pytest.raises(IAE, match="has different ndims"):
        tf.matmul(tf.ones([3]), tf.ones([3, 2]))
    with pytest.raises(IAE, match="Value for attr 'T' of int8"):
        tf.matmul(tf.ones([2, 3], tf.int8), tf.ones([3, 2], tf.int8))
    with pytest.raises(IAE, match="cannot compute MatMul as input #1"):
        tf.matmul(tf.constant([[1, 2]]), [[1.5], [2.0]])


@pytest.mark.parametrize("sa,sb,axes", [((2, 3), (3, 4), 1), ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (4, 5), 0),
                                        ((2, 3, 4), (4, 2), [[0, 2], [1, 0]]), ((3, 4), (4, 3), [[1], [0]])], ids=str)
def test_tensordot_matches_numpy(sa, sb, axes):
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    np.testing.assert_allclose(tf.tensordot(a, b, axes).numpy(), np.tensordot(a, b, axes), rtol=1e-10)


def test_tensordot_errors():
    with pytest.raises(ValueError):
        tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), 3)
    with pytest.raises(IAE, match="Matrix size-incompatible"):
        tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), [[1], [1]])


# --- clip, cast, add_n --------------------------------------------------------------------------

def test_clip_by_value():
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, (4, 5))
    lo, hi = rng.uniform(-2, -1, (5,)), 1.5
    np.testing.assert_allclose(tf.clip_by_value(x, lo, hi).numpy(), np.clip(x, lo, hi))
    out = tf.clip_by_value(tf.constant([1, 5, 9]), 2, 7)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [2, 5, 7]
    with pytest.raises(TypeError, match="Cannot convert 7.5 to EagerTensor of dtype int32"):
        tf.clip_by_value(tf.constant([1, 5]), 2, 7.5)


def test_cast():
    np.testing.assert_array_equal(tf.cast(tf.constant([-1.7, -0.5, 0.5, 1.7]), tf.int32).numpy(), [-1, 0, 0, 1])
    assert tf.cast(tf.constant([1.7, -1.7], tf.float64), tf.int64).numpy().tolist() == [1, -1]
    assert tf.cast(tf.constant([1.5, 0.0, -2.5]), tf.bool).numpy().tolist() == [True, False, True]
    assert tf.cast(tf.constant([2, 0]), tf.bool).numpy().tolist() == [True, False]
    assert tf.cast(tf.constant([True, False]), tf.float32).numpy().tolist() == [1.0, 0.0]
    out = tf.cast(tf.constant([1 + 2j]), tf.float32)  # complex -> real keeps the real part
    assert out.dtype == tf.float32 and out.numpy().tolist() == [1.0]
    x = tf.constant([1.0])
    assert tf.cast(x, tf.float32) is x
    assert tf.cast(tf.constant([3.9]), tf.uint8).numpy().tolist() == [3]


def test_add_n():
    rng = np.random.default_rng(8)
    xs = [rng.normal(size=(2, 3)) for _ in range(4)]
    np.testing.assert_allclose(tf.add_n(xs).numpy(), sum(xs))
    np.testing.assert_array_equal(tf.add_n([tf.constant([1, 2]), [3, 4]]).numpy(), [4, 6])
    single = tf.constant([1.0])
    assert tf.add_n([single]) is single
    with pytest.raises(IAE, match=r"Input 0: \[2\] != input 1: \[1\]"):
        tf.add_n([tf.constant([1, 2]), tf.constant([1])])
    with pytest.raises(ValueError, match="at least one Tensor"):
        tf.add_n([])


def test_divide_no_nan_with_and_without_zero_divisors():
    """TensorFlow 2.21: divide_no_nan([nan, 1, inf], [0, 0, 2]) is [0, 0, inf] (0 wherever y == 0,
    whatever x is); with no zero divisor it is x / y, broadcast, in x's dtype."""
    got = tf.math.divide_no_nan(tf.constant([np.nan, 1.0, np.inf]), tf.constant([0.0, 0.0, 2.0]))
    np.testing.assert_array_equal(got.numpy(), [0.0, 0.0, np.inf])
    x = np.array([[1.0, -2.0, np.nan]], np.float32)
    y = np.array([[4.0], [-0.5]], np.float32)
    for fn in (tf.math.divide_no_nan, tf.function(tf.math.divide_no_nan)):
        out = fn(tf.constant(x), tf.constant(y))
        assert out.dtype == tf.float32 and out.shape == (2, 3)
        np.testing.assert_array_equal(out.numpy(), x / y)
    scalar = tf.math.divide_no_nan(tf.constant(3.0, tf.float64), tf.constant(4.0, tf.float64))
    assert scalar.dtype == tf.float64 and scalar.shape == () and scalar.numpy() == 0.75
