"""tf.bfloat16: the DType (always there), its values (through ml_dtypes), printing, conversion and
errors, against TensorFlow 2.21's outputs written here. Without ml_dtypes the value tests skip; the
DType tests and the "needs the extra" error run in a subprocess that hides ml_dtypes, so that path is
tested in every environment."""
import re
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.core.errors import InvalidArgumentError

_HAS_ML_DTYPES = True
try:
    import ml_dtypes  # noqa: F401
except ImportError:
    _HAS_ML_DTYPES = False
needs_ml_dtypes = pytest.mark.skipif(not _HAS_ML_DTYPES, reason="bfloat16 values need ml_dtypes")


def test_dtype_exists_without_values():
    b = tf.bfloat16
    assert b is tf.dtypes.bfloat16 is tf.as_dtype("bfloat16")
    assert (b.name, b.size, repr(b), str(b)) == ("bfloat16", 2, "tf.bfloat16", "<dtype: 'bfloat16'>")
    assert b.is_floating and not (b.is_integer or b.is_complex or b.is_unsigned or b.is_bool or b.is_quantized)
    assert b.real_dtype is b and b.base_dtype is b and b.is_differentiable
    # TensorFlow: -3.38953e+38 and 3.38953e+38 ((2 - 2**-7) * 2**127)
    assert b.min == -3.3895313892515355e+38 and b.max == 3.3895313892515355e+38
    assert b == "bfloat16" and b != tf.float16 and b != tf.float32


_HIDDEN = """
import sys
sys.modules["ml_dtypes"] = None  # as if not installed
import eagerflow as tf
b = tf.bfloat16
print(b.name, b.size, b.is_floating, b.max)
for make in (lambda: tf.constant(1.5, tf.bfloat16), lambda: tf.cast(tf.constant([1.0]), tf.bfloat16),
             lambda: b.as_numpy_dtype):
    try:
        make()
        print("no error")
    except ImportError as err:
        print(type(err).__name__, err)
"""


def test_without_ml_dtypes_a_value_names_the_extra():
    out = subprocess.run([sys.executable, "-c", _HIDDEN], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == "bfloat16 2 True 3.3895313892515355e+38"
    assert len(lines) == 4
    for line in lines[1:]:
        assert line.startswith("ImportError") and "pip install 'eagerflow[bfloat16]'" in line and "ml_dtypes" in line


def test_import_does_not_import_ml_dtypes():
    code = "import sys, eagerflow as tf; tf.bfloat16.name; print('ml_dtypes' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@needs_ml_dtypes
def test_printing_as_tensorflow():
    b = tf.bfloat16
    assert repr(tf.constant(1.5, b)) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=1.5>"
    assert repr(tf.constant(3.14159, b)) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=3.140625>"
    assert repr(tf.constant(-2.0, b)) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=-2.0>"
    assert repr(tf.constant(1e30, b)) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=1.0002555517425873e+30>"
    assert repr(tf.constant(1e39, b)) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=inf>"
    assert str(tf.constant(0.1, b)) == "tf.Tensor(0.100098, shape=(), dtype=bfloat16)"
    assert str(tf.constant([1.0, 2.5, 3.14159], b)) == "tf.Tensor([1 2.5 3.14062], shape=(3,), dtype=bfloat16)"
    assert repr(tf.constant([[1.0, 2.5], [1e10, -3.3]], b)) == (
        "<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\n"
        "array([[1, 2.5],\n"
        "       [9.99922e+09, -3.29688]], dtype=bfloat16)>")
    assert repr(tf.Variable(3.14159, dtype=b)) == "<tf.Variable 'Variable:0' shape=() dtype=bfloat16, numpy=3.140625>"


@needs_ml_dtypes
def test_printing_does_not_depend_on_the_ml_dtypes_version():
    # NumPy's layout as it prints with ml_dtypes <= 0.6 (ml_dtypes 0.7 makes NumPy write `dtype(bfloat16)`,
    # and TensorFlow 2.21 then prints that too): the dtype's name is written by eagerflow
    b = tf.bfloat16
    assert repr(tf.constant(np.zeros((0, 3)), b)) == (
        "<tf.Tensor: shape=(0, 3), dtype=bfloat16, numpy=array([], shape=(0, 3), dtype=bfloat16)>")
    assert repr(tf.constant([], b)) == "<tf.Tensor: shape=(0,), dtype=bfloat16, numpy=array([], dtype=bfloat16)>"
    # the dtype goes on a line of its own only when it would pass NumPy's line width (75)
    # (NumPy 2.4 with ml_dtypes 0.6 prints these, the dtype first on a line of its own at 24 values)
    assert repr(tf.constant([1.5] * 23, b)).endswith("\n       1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5], "
                                                     "dtype=bfloat16)>")
    assert repr(tf.constant([1.5] * 24, b)).endswith("1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5],\n      dtype=bfloat16)>")
    assert repr(tf.constant([[1.0] * 40] * 2, b)).endswith("1, 1, 1, 1]],\n      dtype=bfloat16)>")
    assert "dtype(" not in repr(tf.Variable([[1.0, 2.0]], dtype=b))


@needs_ml_dtypes
def test_rounding_to_bfloat16_goes_through_float32_whatever_the_source():
    b = tf.bfloat16
    x = 1 + 2 ** -8 + 2 ** -30  # a double just past a bfloat16 tie: float32 first makes it the tie, then even
    # TensorFlow 2.21: 1.0 from a Python float, a float64 tensor cast, a complex128 cast
    assert float(tf.constant(x, b)) == 1.0 and tf.Variable([x], dtype=b).numpy().astype(float).tolist() == [1.0]
    assert tf.cast(tf.constant([x + 0j], tf.complex128), b).numpy().astype(float).tolist() == [1.0]
    # NumPy float64 values too (TensorFlow 2.21 with ml_dtypes 0.7 gives 1.0078125 there, with 0.6 1.0: we keep
    # the float32-first rule that its Cast kernel follows)
    assert tf.constant(np.array([x]), b).numpy().astype(float).tolist() == [1.0]
    assert tf.cast(tf.constant([2 ** 24 + 1, 2 ** 40 + 2 ** 32 + 1], tf.int64), b).numpy().astype(float).tolist() == [
        16777216.0, 1099511627776.0]
    # NaN keeps its sign as bfloat16's quiet NaN (TensorFlow: 0x7FC0 and 0xFFC0)
    nans = tf.cast(tf.constant([float("nan"), -float("nan")], tf.float32), b).numpy().view(np.uint16).tolist()
    assert nans == [32704, 65472]
    # and back: bfloat16 widens to float32 first (TensorFlow 2.21; ml_dtypes 0.7's own cast of 1e10 to int32 is 0)
    assert tf.cast(tf.constant([1e10, -1e10, 300.7, 65537.0], b), tf.int32).numpy().tolist() == [
        -2147483648, -2147483648, 300, 65536]
    assert tf.cast(tf.constant([1e10, 3e4], b), tf.int16).numpy().tolist() == [0, 29952]


def test_rounding_matches_a_reference_on_many_values():
    # round-to-nearest-even on float32's bits, checked against exact rational rounding in Python
    from fractions import Fraction
    from eagerflow._src.core.dtypes import round_to_bfloat16
    pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(0)
    values = np.concatenate([rng.standard_normal(300) * 10.0 ** rng.integers(-40, 39, 300),
                             [0.0, -0.0, 1.0 + 2 ** -8, 1.0 + 3 * 2 ** -8, 3.3895e38, 3.3896e38]]).astype(np.float32)
    got = round_to_bfloat16(values).astype(np.float64)
    for v, g in zip(values.astype(np.float64), got):
        if not np.isfinite(g):
            assert abs(v) >= 3.3895313892515355e+38
            continue
        # the two bfloat16 neighbours of v, and the nearest (ties to an even last mantissa bit)
        m, e = np.frexp(abs(v)) if v else (0.0, 0)
        step = Fraction(2) ** (max(int(e), -125) - 8) if v else Fraction(0)  # below 2**-126: subnormal steps
        if step:
            lo = (Fraction(abs(v)) // step) * step
            hi = lo + step
            d_lo, d_hi = Fraction(abs(v)) - lo, hi - Fraction(abs(v))
            nearest = lo if d_lo < d_hi or (d_lo == d_hi and (lo / step) % 2 == 0) else hi
            assert Fraction(abs(g)) == nearest, v


@needs_ml_dtypes
def test_values_and_numpy_interop():
    b = tf.bfloat16
    t = tf.constant(3.14159, b)
    assert type(t.numpy()).__name__ == "bfloat16" and float(t) == 3.140625
    assert tf.constant([1.0], b).numpy().dtype == b.as_numpy_dtype
    assert b.as_numpy_dtype(1.5) == 1.5
    assert tf.constant(np.array([1.0, 2.0], dtype=b.as_numpy_dtype)).dtype is b
    assert tf.as_dtype(np.dtype(b.as_numpy_dtype)) is b
    assert tf.constant(3, b).numpy() == 3
    assert tf.convert_to_tensor(np.array([1.5], np.float32), dtype=b).dtype is b
    assert (tf.constant([1.0], b) + np.float32(2.5)).numpy().tolist() == [3.5]
    assert (tf.constant([1.0, 2.0], b) + 1.5).numpy().tolist() == [2.5, 3.5]
    np.testing.assert_array_equal(tf.zeros([2], b).numpy().astype(float), [0, 0])


@needs_ml_dtypes
@pytest.mark.parametrize("value", [True, "a", 1 + 2j])
def test_refused_python_values(value):
    with pytest.raises(TypeError, match=re.escape(f"Cannot convert {value!r} to EagerTensor of dtype bfloat16")):
        tf.constant(value, tf.bfloat16)


@needs_ml_dtypes
def test_casts_as_tensorflow():
    b = tf.bfloat16
    d = tf.constant([1 + 2 ** -8 + 2 ** -30, 1.00390625, 1.01171875, 3.0e38], tf.float64)
    # TensorFlow rounds a double to float first: 1 + 2**-8 + 2**-30 becomes 1, not 1.0078125 (3e38: TF prints
    # 3.00406e+38)
    assert tf.cast(d, b).numpy().astype(float).tolist() == [1.0, 1.0, 1.015625, 3.00405527047391e+38]
    assert tf.cast(tf.constant([257, 1000001, -3]), b).numpy().astype(float).tolist() == [256, 999424, -3]
    assert tf.cast(tf.constant([2.7, -2.7, 1e10], b), tf.int32).numpy().tolist() == [2, -2, -2147483648]
    assert tf.cast(tf.constant([300.7], b), tf.uint8).numpy().tolist() == [44]
    assert tf.cast(tf.constant([0.0, 1.5], b), tf.bool).numpy().tolist() == [False, True]
    assert tf.cast(tf.constant([True, False]), b).numpy().astype(float).tolist() == [1, 0]
    assert tf.cast(tf.constant([1 + 2j]), b).numpy().astype(float).tolist() == [1]
    out = tf.cast(tf.constant([1e39, -1e39, float("nan")], tf.float64), b).numpy().astype(float)
    assert out[0] == np.inf and out[1] == -np.inf and np.isnan(out[2])
    for dtype in (tf.float16, tf.float32, tf.float64, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16,
                  tf.uint32, tf.uint64, tf.bool, tf.complex64, tf.complex128):
        there = tf.cast(tf.constant([1.5, 3.0], b), dtype)
        assert there.dtype is dtype
        back = tf.cast(there, b)
        assert back.dtype is b
        assert back.numpy().astype(float).tolist() == ([1.0, 1.0] if dtype is tf.bool else
                                                       [1.0, 3.0] if dtype.is_integer else [1.5, 3.0])


@needs_ml_dtypes
def test_sums_accumulate_in_float32_and_cumsum_in_bfloat16():
    b = tf.bfloat16
    v = tf.cast(tf.range(1, 301), b) * tf.constant(0.01, b)
    # TensorFlow 2.21: reduce_sum 452 (a float32 accumulator; bfloat16's would stop at 412), cumsum 412,
    # matmul 908, mean of 1000 x 0.1 0.100098
    assert float(tf.reduce_sum(v)) == 452.0
    assert float(tf.math.cumsum(v)[-1]) == 412.0
    assert float(tf.matmul(tf.reshape(v, [1, 300]), tf.reshape(v, [300, 1]))[0, 0]) == 908.0
    ones = tf.ones([1000], b) * tf.constant(0.1, b)
    assert float(tf.reduce_sum(ones)) == 100.0 and float(tf.reduce_mean(ones)) == 0.10009765625
    f = tf.function(lambda t: (tf.reduce_sum(t), tf.math.cumsum(t)[-1]))
    assert [float(r) for r in f(v)] == [452.0, 412.0]


@needs_ml_dtypes
def test_refusals_in_tensorflow_words():
    b = tf.bfloat16
    with pytest.raises(InvalidArgumentError, match=r"cannot compute AddV2 as input #1\(zero-based\) was expected "
                                                   r"to be a bfloat16 tensor but is a float tensor \[Op:AddV2\]"):
        tf.constant([1.0], b) + tf.constant([1.0])
    with pytest.raises(InvalidArgumentError, match="Value for attr 'T' of bfloat16 is not in the list of allowed "
                                                   "values: double, float, half, complex64, complex128"):
        tf.linalg.cholesky(tf.constant([[1.0]], b))
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float32 that does not match type "
                                        "bfloat16 of argument 'x'."):
        tf.function(lambda: tf.constant([1.0], b) + tf.constant([1.0]))()
    with pytest.raises(TypeError, match="Value passed to parameter 'input' has DataType bfloat16 not in list of "
                                        "allowed values: float64, float32, float16, complex64, complex128"):
        tf.function(lambda: tf.linalg.cholesky(tf.constant([[1.0]], b)))()


@needs_ml_dtypes
def test_variable_assign_and_gradient():
    b = tf.bfloat16
    w = tf.Variable(tf.constant([1.5, 2.0], b))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(w * w * tf.constant([3.0, 1.0], b))
    g = tape.gradient(y, w)
    assert g.dtype is b and g.numpy().astype(float).tolist() == [9.0, 4.0]
    w.assign(tf.constant([0.333, 7.1], b))
    assert w.dtype is b and w.numpy().astype(float).tolist() == [0.33203125, 7.09375]
    w.assign_add(tf.constant([1.0, 1.0], b))
    assert w.numpy().astype(float).tolist() == [1.328125, 8.125]

    @tf.function
    def step():
        w.assign_sub(tf.constant([0.5, 0.5], b))
        return w.read_value()

    assert step().numpy().astype(float).tolist() == [0.828125, 7.625]


# TensorFlow 2.21's refusals of bfloat16 by ops whose dtype lists leave it out: (call, eager message, graph message)
_REFUSED = {
    "nextafter": (lambda x: tf.math.nextafter(x, x), "Value for attr 'T' of bfloat16 is not in the list of allowed "
                  "values: double, float", "Value passed to parameter 'x1' has DataType bfloat16 not in list of "
                  "allowed values: float64, float32"),
    "det": (lambda x: tf.linalg.det(x), "Value for attr 'T' of bfloat16 is not in the list of allowed values: half, "
            "float, double, complex64, complex128", "Value passed to parameter 'input' has DataType bfloat16 not in "
            "list of allowed values: float16, float32, float64, complex64, complex128"),
    "inv": (lambda x: tf.linalg.inv(x), "Value for attr 'T' of bfloat16 is not in the list of allowed values: "
            "double, float, half, complex64, complex128", "Value passed to parameter 'input' has DataType bfloat16 "
            "not in list of allowed values: float64, float32, float16, complex64, complex128"),
    "svd": (lambda x: tf.linalg.svd(x), "Value for attr 'T' of bfloat16 is not in the list of allowed values: "
            "double, float, half, complex64, complex128", "Value passed to parameter 'input' has DataType bfloat16 "
            "not in list of allowed values: float64, float32, float16, complex64, complex128"),
}


@needs_ml_dtypes
@pytest.mark.parametrize("name", sorted(_REFUSED))
def test_ops_that_refuse_bfloat16(name):
    fn, eager_message, graph_message = _REFUSED[name]
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.bfloat16)
    with pytest.raises(InvalidArgumentError, match=re.escape(eager_message)):
        fn(x)
    with pytest.raises(TypeError, match=re.escape(graph_message)):
        tf.function(fn)(x)


# TensorFlow 2.21 registers no CPU bfloat16 kernel for these (NotFoundError, "Could not find device for node")
_NO_KERNEL = {"Lgamma": lambda x: tf.math.lgamma(x), "Digamma": lambda x: tf.math.digamma(x),
              "Igamma": lambda x: tf.math.igamma(x, x), "Igammac": lambda x: tf.math.igammac(x, x),
              "Erfinv": lambda x: tf.math.erfinv(x), "Ndtri": lambda x: tf.math.ndtri(x),
              "BesselI0e": lambda x: tf.math.bessel_i0e(x), "BesselI1e": lambda x: tf.math.bessel_i1e(x),
              "Rint": lambda x: tf.math.rint(x)}


@needs_ml_dtypes
@pytest.mark.parametrize("op", sorted(_NO_KERNEL))
def test_ops_without_a_bfloat16_kernel(op):
    from eagerflow._src.core.errors import NotFoundError
    x = tf.constant([0.5, 0.7], tf.bfloat16)
    message = f"Could not find device for node: {{{{node {op}}}}} = {op}[T=DT_BFLOAT16]"
    with pytest.raises(NotFoundError, match=re.escape(message)):
        _NO_KERNEL[op](x)
    with pytest.raises(NotFoundError, match=re.escape(message)):
        tf.function(_NO_KERNEL[op])(x)


@needs_ml_dtypes
def test_special_functions_with_bfloat16_kernels():
    x = tf.constant([0.5, 0.7], tf.bfloat16)
    # TensorFlow 2.21's values (softsign rounds 1 + |x| before dividing)
    expected = {"softsign": (tf.nn.softsign, [0.333984375, 0.41015625]),
                "erfc": (tf.math.erfc, [0.48046875, 0.322265625]), "expm1": (tf.math.expm1, [0.6484375, 1.015625]),
                "xlogy": (lambda t: tf.math.xlogy(t, t), [-0.345703125, -0.25])}
    for name, (fn, values) in expected.items():
        out = fn(x)
        assert out.dtype is tf.bfloat16, name
        assert out.numpy().astype(float).tolist() == values, name
