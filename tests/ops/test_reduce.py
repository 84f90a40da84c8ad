"""Reductions, argmax/argmin, cumsum and the composed reductions, against NumPy.

TensorFlow-specific behaviours (checked against TensorFlow 2.21): integer mean truncates toward zero
without overflowing, empty max/min give the identity, repeated or out-of-range axes raise.
"""
import numpy as np
import pytest

import eagerflow as tf

IAE = tf.errors.InvalidArgumentError
AXES = [None, 0, 1, -1, -3, [0, 2], [2, -3], []]

REDUCERS = [
    (tf.reduce_sum, np.sum, ["float32", "float64", "int32", "int64"]),
    (tf.reduce_mean, np.mean, ["float32", "float64"]),
    (tf.reduce_max, np.max, ["float32", "int32", "uint8"]),
    (tf.reduce_min, np.min, ["float64", "int16"]),
    (tf.reduce_prod, np.prod, ["float64", "int32"]),
    (tf.reduce_any, np.any, ["bool"]),
    (tf.reduce_all, np.all, ["bool"]),
    (tf.math.reduce_logsumexp, lambda x, axis, keepdims: np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims)),
     ["float32", "float64"]),
    (tf.math.reduce_variance, np.var, ["float32", "float64"]),
    (tf.math.reduce_std, np.std, ["float64"]),
    (tf.math.count_nonzero, np.count_nonzero, ["float32", "int32", "bool"]),
]


def _data(rng, dtype, shape=(2, 3, 4)):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0 if dtype == "uint8" else -3, 4, shape).astype(dtype)
    return rng.uniform(-2, 2, shape).astype(dtype)


@pytest.mark.parametrize("fn,ref,dtypes", REDUCERS, ids=lambda v: getattr(v, "__name__", None))
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_matches_numpy(fn, ref, dtypes, axis, keepdims):
    rng = np.random.default_rng(0)
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    for dtype in dtypes:
        x = _data(rng, dtype)
        out = fn(tf.constant(x), axis=axis, keepdims=keepdims)
        expected = ref(x, axis=np_axis, keepdims=keepdims)
        assert out.shape.as_list() == list(np.shape(expected))
        if fn is tf.math.count_nonzero:
            assert out.dtype == tf.int64
        else:
            assert out.dtype.name == dtype
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5 if "32" in dtype else 1e-10, atol=1e-6)


def test_integer_mean_truncates_toward_zero_without_overflow():
    assert tf.reduce_mean(tf.constant([-3, -4, 1])).numpy() == -2
    np.testing.assert_array_equal(tf.reduce_mean(tf.constant([[1, 2], [2, 2], [-1, -2]]), 1).numpy(), [1, 2, -1])
    assert tf.reduce_mean(tf.constant([200, 200], tf.uint8)).numpy() == 200
    assert tf.reduce_sum(tf.constant([200, 200], tf.uint8)).numpy() == 144  # sums wrap, as in TensorFlow


def test_empty_reductions_give_identities():
    assert tf.reduce_max(tf.zeros([0])).numpy() == -np.inf
    assert tf.reduce_min(tf.zeros([0], tf.int32)).numpy() == np.iinfo(np.int32).max
    assert tf.reduce_prod(tf.zeros([0])).numpy() == 1.0
    assert np.isnan(tf.reduce_mean(tf.zeros([0])).numpy())
    assert tf.reduce_all(tf.zeros([0], tf.bool)).numpy()


@pytest.mark.parametrize("axis,word", [(2, "(2 for input with 2 dimension(s)"), (-3, "(-3 for input with 2"),
                                       ([1, -1], "Axes contains duplicate dimension: 1")])
def test_bad_axis(axis, word):
    with pytest.raises(IAE, match="Invalid reduction") as err:
        tf.reduce_sum(tf.ones([2, 3]), axis)
    assert word in err.value.message and "[Op:Sum]" in err.value.message
    with pytest.raises(IAE, match="Invalid reduction dimension"):
        tf.reduce_mean(tf.constant(3.0), 0)


def test_reduction_dtype_errors():
    with pytest.raises(IAE, match="Value for attr 'T' of bool"):
        tf.reduce_sum(tf.constant([True]))
    with pytest.raises(IAE, match="Value for attr 'Tidx' of float32"):
        tf.reduce_sum(tf.ones([2]), tf.constant([0.0]))
    with pytest.raises(IAE, match="Value for attr 'T' of int32"):
        tf.math.reduce_logsumexp(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Input must be either real or complex"):
        tf.math.reduce_variance(tf.constant([1, 2]))


def test_logsumexp_is_stable():
    out = tf.math.reduce_logsumexp(tf.constant([1000.0, 1000.0]))
    np.testing.assert_allclose(out.numpy(), 1000.0 + np.log(2.0))
    assert tf.math.reduce_logsumexp(tf.constant([-np.inf, -np.inf])).numpy() == -np.inf
    assert tf.math.reduce_logsumexp(tf.constant([np.inf, 1.0])).numpy() == np.inf


def test_count_nonzero_options():
    x = tf.constant([[0.0, 1.0, np.nan], [0.0, -0.0, 2.0]])
    assert tf.math.count_nonzero(x).numpy() == 3
    out = tf.math.count_nonzero(x, 1, keepdims=True, dtype=tf.int32)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[2], [1]]


# --- argmax / argmin -------------------------------------------------------------------------

@pytest.mark.parametrize("fn,ref", [(tf.argmax, np.argmax), (tf.math.argmin, np.argmin)])
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8", "bool"])
def test_arg_extremes(fn, ref, dtype):
    rng = np.random.default_rng(1)
    x = _data(rng, dtype, (3, 4, 5))
    for axis in (None, 0, 1, 2, -1, -3):
        out = fn(tf.constant(x), axis=axis)
        assert out.dtype == tf.int64
        np.testing.assert_array_equal(out.numpy(), ref(x, axis=0 if axis is None else axis))
    out = fn(x, 1, output_type=tf.int32)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), ref(x, axis=1))
    np.testing.assert_array_equal(fn(x, tf.constant(2, tf.int64)).numpy(), ref(x, axis=2))


def test_argmax_ties_pick_first_and_errors():
    assert tf.argmax(tf.constant([1.0, 5.0, 5.0])).numpy() == 1
    assert tf.argmin(tf.constant([[3, 1, 1]]), 1).numpy().tolist() == [1]
    with pytest.raises(IAE, match=r"Expected dimension in the range \[-2, 2\), but got 2"):
        tf.argmax(tf.ones([2, 3]), 2)
    with pytest.raises(IAE, match=r"Reduction axis 0 is empty in shape \[0,3\]"):
        tf.argmax(tf.zeros([0, 3]))
    with pytest.raises(TypeError, match="axis must be int or Tensor with integer datatype"):
        tf.argmax(tf.ones([2, 3]), 1.0)
    with pytest.raises(TypeError):
        tf.argmin(tf.ones([2]), output_type=tf.int16)


def test_argmax_is_not_differentiable():
    x = tf.constant([1.0, 3.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.argmax(x), tf.float32)
    assert tape.gradient(y, x) is None


# --- cumsum ------------------------------------------------------------------------------------

def _np_cumsum(x, axis, exclusive, reverse):
    if reverse:
        x = np.flip(x, axis)
    out = np.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:
        out = out - x
    return np.flip(out, axis) if reverse else out


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("dtype", ["float64", "int32", "int8"])
def test_cumsum(exclusive, reverse, dtype):
    rng = np.random.default_rng(2)
    x = _data(rng, dtype, (3, 4))
    for axis in (0, 1, -1):
        out = tf.math.cumsum(tf.constant(x), axis, exclusive=exclusive, reverse=reverse)
        assert out.dtype.name == dtype
        np.testing.assert_allclose(out.numpy(), _np_cumsum(x, axis, exclusive, reverse))


def test_cumsum_defaults_and_errors():
    np.testing.assert_array_equal(tf.cumsum(tf.constant([[1, 2], [3, 4]])).numpy(), [[1, 2], [4, 6]])
    np.testing.assert_array_equal(tf.cumsum([1, 2, 3], exclusive=True).numpy(), [0, 1, 3])
    with pytest.raises(IAE, match=r"ScanOp: Expected scan axis in the range \[-2, 2\), but got 2"):
        tf.cumsum(tf.ones([2, 3]), 2)
    with pytest.raises(IAE, match="Value for attr 'T' of bool"):
        tf.cumsum(tf.constant([True]))
