"""Array ops (concat, split, squeeze, expand_dims, tile, pad, reverse, range, linspace, one_hot, sort,
argsort, top_k) against NumPy, plus TensorFlow's dtypes and error classes/words (checked against
TensorFlow 2.21)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow._src.ops.registry import OPS

RNG = np.random.default_rng(0)
IAE = tf.errors.InvalidArgumentError


class Sym(tf.Tensor):
    """What a graph tensor offers a shape rule: a (partial) shape and a dtype, no value."""

    def __init__(self, shape, dtype=tf.float32):
        self._shape, self._dtype = tf.TensorShape(shape), dtype

    @property
    def shape(self):
        return self._shape


def _raises(cls, words, fn, *args, **kwargs):
    with pytest.raises(cls) as info:
        fn(*args, **kwargs)
    assert words in str(info.value), str(info.value)


# --- concat ----------------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=3), n=st.integers(1, 3), data=st.data())
def test_concat_matches_numpy(shape, n, data):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    parts = []
    for _ in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        parts.append(RNG.normal(size=s).astype(np.float32))
    got = tf.concat([tf.constant(p) for p in parts], axis)
    np.testing.assert_array_equal(got.numpy(), np.concatenate(parts, axis))


def test_concat_mixes_lists_and_tensors():
    out = tf.concat([tf.constant([1, 2]), [3], np.array([4], np.int32)], 0)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), [1, 2, 3, 4])
    out = tf.concat([tf.constant([1]), [], tf.constant([2])], 0)  # an empty list takes any dtype
    assert out.dtype == tf.int32 and out.numpy().tolist() == [1, 2]


@pytest.mark.parametrize("values, axis, words", [
    ([np.ones((2, 3)), np.ones((2, 4))], 0,
     "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [2,3] vs. shape[1] = [2,4]"),
    ([np.ones((2, 3)), np.ones(3)], 0, "ConcatOp : Ranks of all input tensors should match"),
    ([np.ones((2, 3)), np.ones((2, 3))], 2, "Expected concatenating dimensions in the range [-2, 2), but got 2"),
])
def test_concat_errors(values, axis, words):
    _raises(IAE, words, tf.concat, [tf.constant(v, tf.float32) for v in values], axis)


def test_concat_dtype_mismatch():
    _raises(IAE, "cannot compute ConcatV2 as input #1(zero-based) was expected to be a float tensor",
            tf.concat, [tf.ones([2]), tf.ones([2], tf.int32)], 0)


def test_concat_shape_rule_with_unknown_dims():
    (spec,) = OPS["ConcatV2"].infer([Sym([None, 3]), Sym([2, None]), tf.constant(0)], {})
    assert spec.shape.as_list() == [None, 3]
    (spec,) = OPS["ConcatV2"].infer([Sym([4, 3]), Sym([2, 3]), tf.constant(0)], {})
    assert spec.shape.as_list() == [6, 3]


# --- split -----------------------------------------------------------------------------------------

def test_split_even_and_sizes():
    x = RNG.normal(size=(6, 4)).astype(np.float32)
    for got, want in zip(tf.split(x, 3), np.split(x, 3)):
        np.testing.assert_array_equal(got.numpy(), want)
    got = tf.split(x, [1, -1, 2], axis=1)
    assert [g.shape.as_list() for g in got] == [[6, 1], [6, 1], [6, 2]]
    np.testing.assert_array_equal(tf.concat(got, 1).numpy(), x)


@pytest.mark.parametrize("sizes, words", [
    (2, "Number of ways to split should evenly divide the split dimension, but got split_dim 0 (size = 5) "
        "and num_split 2"),
    ([2, 2], "Determined shape must either match input shape along split_dim exactly"),
    ([-1, -1], "There can only be one -1 in the input."),
])
def test_split_errors(sizes, words):
    _raises(IAE, words, tf.split, tf.ones([5]), sizes)


def test_split_records_the_tf_op_types():
    x = tf.ones([4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        tf.split(x, 2)
        tf.split(x, [1, 3])
    assert [r.opdef.name for r in tape._records] == ["Split", "SplitV"]


# --- squeeze / expand_dims -------------------------------------------------------------------------

def test_squeeze_and_expand_dims_match_numpy():
    x = np.zeros((1, 3, 1, 2))
    assert tf.squeeze(x).shape.as_list() == list(np.squeeze(x).shape)
    assert tf.squeeze(x, [-2]).shape.as_list() == [1, 3, 2]
    assert tf.squeeze(x, 0).shape.as_list() == [3, 1, 2]
    for axis in (-5, -1, 0, 2, 4):
        assert tf.expand_dims(x, axis).shape.as_list() == list(np.expand_dims(x, axis).shape)


def test_squeeze_expand_dims_errors():
    _raises(IAE, "Can not squeeze dim[1], expected a dimension of 1, got 3", tf.squeeze, tf.ones([1, 3]), [1])
    _raises(IAE, "Tried to squeeze dim index 2 for tensor with 2 dimensions.", tf.squeeze, tf.ones([1, 3]), [2])
    _raises(IAE, "Tried to expand dim index 3 for tensor with 2 dimensions.", tf.expand_dims, tf.ones([1, 3]), 3)


def test_squeeze_shape_rule_with_unknown_dims():
    (spec,) = OPS["Squeeze"].infer([Sym([None, 1, 3])], {"squeeze_dims": (1,)})
    assert spec.shape.as_list() == [None, 3]
    (spec,) = OPS["Squeeze"].infer([Sym([None, 1, 3])], {})
    assert spec.shape.rank is None  # an unknown dim may be 1


# --- tile ------------------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(x=hnp.arrays(np.int32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=3)), data=st.data())
def test_tile_matches_numpy(x, data):
    reps = data.draw(st.lists(st.integers(0, 3), min_size=x.ndim, max_size=x.ndim))
    np.testing.assert_array_equal(tf.tile(x, reps).numpy(), np.tile(x, reps))


def test_tile_errors():
    _raises(IAE, "Expected multiples argument to be a vector of length 2 but got length 1", tf.tile, tf.ones([1, 3]), [2])
    _raises(IAE, "Expected multiples[1] >= 0, but got -1", tf.tile, tf.ones([1, 3]), [2, -1])


# --- pad -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC", "reflect"])
def test_pad_matches_numpy(mode):
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    p = [[1, 2], [2, 0]]
    got = tf.pad(x, p, mode=mode).numpy()
    np_mode = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}[mode.upper()]
    np.testing.assert_array_equal(got, np.pad(x, p, mode=np_mode))


def test_pad_constant_values_and_op_choice():
    x = tf.constant([[1, 2]])
    np.testing.assert_array_equal(tf.pad(x, [[1, 0], [0, 1]], constant_values=7).numpy(), [[7, 7, 7], [1, 2, 7]])
    with tf.GradientTape() as tape:
        y = tf.ones([2])
        tape.watch(y)
        tf.pad(y, [[1, 1]])
        tf.pad(y, [[1, 1]], constant_values=2.0)
        tf.pad(y, [[1, 1]], "SYMMETRIC")
    assert [r.opdef.name for r in tape._records] == ["Pad", "PadV2", "MirrorPad"]
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.pad(x, [[1, 0], [0, 0]], constant_values=1.5)


@pytest.mark.parametrize("paddings, mode, cls, words", [
    ([[1, 1]], "CONSTANT", IAE, "The first dimension of paddings must be the rank of inputs[1,2] [2,3]"),
    ([[1, 1], [-1, 0]], "CONSTANT", IAE, "Paddings must be non-negative: -1 0"),
    ([[2, 0], [0, 0]], "REFLECT", IAE, "paddings must be less than the dimension size: 2, 0 not less than 2"),
    ([[3, 0], [0, 0]], "SYMMETRIC", IAE, "paddings must be no greater than the dimension size: 3, 0 greater than 2"),
    ([[1, 1], [0, 0]], "foo", ValueError, 'expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                                          "Received `mode` = FOO"),
])
def test_pad_errors(paddings, mode, cls, words):
    _raises(cls, words, tf.pad, tf.ones([2, 3]), paddings, mode)


# --- reverse ---------------------------------------------------------------------------------------

def test_reverse_matches_numpy_and_errors():
    x = RNG.normal(size=(2, 3, 4))
    np.testing.assert_array_equal(tf.reverse(x, [0, -1]).numpy(), x[::-1, :, ::-1])
    np.testing.assert_array_equal(tf.reverse(x, []).numpy(), x)
    _raises(IAE, "'axis'[0] = 3 is out of valid range [0, 2", tf.reverse, x, [3])
    _raises(IAE, "axis 2 specified more than once.", tf.reverse, x, [2, -1])


# --- range / linspace ------------------------------------------------------------------------------

@pytest.mark.parametrize("args, kwargs, dtype", [
    ((5,), {}, tf.int32), ((1, 5.0), {}, tf.float32), ((2, 11, 3), {}, tf.int32), ((5, 0, -2), {}, tf.int32),
    ((0.5, 2.0, 0.25), {}, tf.float32), ((5,), {"dtype": tf.float64}, tf.float64),
    ((np.int64(1), 5), {}, tf.int64), ((np.float64(1), 5), {}, tf.float64),
])
def test_range_values_and_dtypes(args, kwargs, dtype):
    got = tf.range(*[tf.constant(a) if isinstance(a, np.generic) else a for a in args], **kwargs)
    assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy(), np.arange(*args))


def test_range_of_int64_tensor_and_float_is_float32():
    assert tf.range(tf.constant(1, tf.int64), 5.0).dtype == tf.float32


@pytest.mark.parametrize("args, words", [
    ((0, 5, 0), "Requires delta != 0: 0"),
    ((5, 0, 1), "Requires start <= limit when delta > 0: 5/0"),
    ((0, 5, -1), "Requires start >= limit when delta < 0: 0/5"),
])
def test_range_errors(args, words):
    _raises(IAE, words, tf.range, *args)


def test_linspace():
    got = tf.linspace(0.0, 1.0, 5)
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), np.linspace(0, 1, 5))
    assert tf.linspace(0, 1, 5).dtype == tf.float64
    assert tf.linspace(2.0, 3.0, 1).numpy().tolist() == [2.0]
    assert tf.linspace(2.0, 3.0, 0).shape.as_list() == [0]
    np.testing.assert_allclose(tf.linspace([0.0, 1.0], [1.0, 3.0], 3).numpy(),
                               np.linspace([0.0, 1.0], [1.0, 3.0], 3))
    np.testing.assert_allclose(tf.linspace([0.0, 1.0], [1.0, 3.0], 3, axis=1).numpy(),
                               np.linspace([0.0, 1.0], [1.0, 3.0], 3, axis=1))


# --- one_hot ---------------------------------------------------------------------------------------

def test_one_hot_matches_numpy():
    idx = np.array([[0, 2, -1], [5, 1, 1]])
    want = (idx[..., None] == np.arange(3)).astype(np.float32)
    got = tf.one_hot(idx, 3)
    assert got.dtype == tf.float32
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(tf.one_hot(idx, 3, axis=0).numpy(), np.moveaxis(want, -1, 0))
    np.testing.assert_array_equal(tf.one_hot(idx, 3, axis=1).numpy(), np.moveaxis(want, -1, 1))


def test_one_hot_values_and_dtype():
    got = tf.one_hot([0, 2], 3, on_value=5, off_value=-1)
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), [[5, -1, -1], [-1, -1, 5]])
    got = tf.one_hot([1], 2, on_value=5, dtype=tf.float64)
    assert got.dtype == tf.float64 and got.numpy().tolist() == [[0.0, 5.0]]
    with pytest.raises(TypeError, match="dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'>"):
        tf.one_hot([0, 2], 3, on_value=5, off_value=-1.0)
    _raises(IAE, "Expected axis to be -1 or between [0, 2).  But received: -2", tf.one_hot, [0, 2], 3, axis=-2)


# --- sort / argsort / top_k ------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(x=hnp.arrays(st.sampled_from([np.int32, np.float64, np.uint8]),
                    hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
                    elements=st.integers(0, 5)), data=st.data())
def test_sort_and_argsort_match_numpy_stable(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    np.testing.assert_array_equal(tf.sort(x, axis=axis).numpy(), np.sort(x, axis=axis))
    got = tf.argsort(x, axis=axis)
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), np.argsort(x, axis=axis, kind="stable"))
    # descending and stable: equal values keep their original order
    want = np.argsort(-x.astype(np.int64), axis=axis, kind="stable")
    np.testing.assert_array_equal(tf.argsort(x, axis=axis, direction="DESCENDING").numpy(), want)


def test_sort_extreme_ints_do_not_overflow():
    x = np.array([0, np.iinfo(np.int32).min, np.iinfo(np.int32).max, -1], np.int32)
    np.testing.assert_array_equal(tf.sort(x).numpy(), np.sort(x))


def test_sort_bad_direction():
    with pytest.raises(ValueError, match="Argument `direction` should be one of ASCENDING, DESCENDING. "
                                         "Received: direction=DESC"):
        tf.sort([3, 1, 2], direction="DESC")


def test_top_k():
    x = np.array([[3.0, 1.0, 3.0, 2.0], [0.0, -1.0, 5.0, 5.0]], np.float32)
    values, indices = tf.math.top_k(x, 3)
    assert indices.dtype == tf.int32
    np.testing.assert_array_equal(values.numpy(), [[3, 3, 2], [5, 5, 0]])
    np.testing.assert_array_equal(indices.numpy(), [[0, 2, 3], [2, 3, 0]])
    res = tf.math.top_k(x, k=1, index_type=tf.int64)
    assert res.indices.dtype == tf.int64 and res.values.shape.as_list() == [2, 1]


@pytest.mark.parametrize("x, k, words", [
    ([3.0, 1.0, 2.0], 4, "input must have at least k columns. Had 3, needed 4"),
    ([3.0, 1.0, 2.0], -1, "Need k >= 0, got -1"),
    (3.0, 1, "input must be >= 1-D, got shape []"),
])
def test_top_k_errors(x, k, words):
    _raises(IAE, words, tf.math.top_k, x, k)


def test_top_k_shape_rule_with_unknown_dims():
    values, indices = OPS["TopKV2"].infer([Sym([None, 7]), tf.constant(2)], {"sorted": True})
    assert values.shape.as_list() == [None, 2] and indices.dtype == tf.int32


# --- shape rules on partially known shapes, and tracing ----------------------------------------------

DYN = Sym([2], tf.int32)  # a shape-like input whose values are known only at run time


@pytest.mark.parametrize("op, inputs, attrs, want", [
    ("Tile", [Sym([None, 3]), tf.constant([2, 2])], {}, [None, 6]),
    ("Tile", [Sym([None, 3]), DYN], {}, [None, None]),
    ("Pad", [Sym([None, 3]), tf.constant([[1, 1], [0, 2]])], {}, [None, 5]),
    ("ExpandDims", [Sym([None, 3]), tf.constant(-1)], {}, [None, 3, 1]),
    ("ReverseV2", [Sym([None, 3]), tf.constant([0])], {}, [None, 3]),
    ("GatherV2", [Sym([None, 3]), Sym([4, None], tf.int32), tf.constant(1)], {}, [None, 4, None]),
    ("GatherNd", [Sym([None, 3, 5]), Sym([7, 2], tf.int32)], {}, [7, 5]),
    ("Slice", [Sym([None, 3]), tf.constant([0, 1]), tf.constant([-1, 2])], {}, [None, 2]),
    ("OneHot", [Sym([None], tf.int32), tf.constant(4), tf.constant(1.0), tf.constant(0.0)], {"axis": 0}, [4, None]),
    ("Range", [Sym([], tf.int32), tf.constant(5), tf.constant(1)], {}, [None]),
    ("ConcatV2", [Sym([None, 3]), Sym([None, 3]), Sym([], tf.int32)], {}, [None, None]),
])
def test_shape_rules_with_unknown_dims(op, inputs, attrs, want):
    specs = OPS[op].infer(inputs, attrs)
    assert specs[0].shape.as_list() == want


def test_split_shape_rule_with_unknown_split_dim():
    specs = OPS["SplitV"].infer([Sym([None, 6]), tf.constant([1, -1]), tf.constant(1)], {"num_split": 2})
    assert [s.shape.as_list() for s in specs] == [[None, 1], [None, 5]]
    specs = OPS["Split"].infer([tf.constant(0), Sym([None, 6])], {"num_split": 3})
    assert [s.shape.as_list() for s in specs] == [[None, 6]] * 3


def test_ops_trace_under_tf_function_with_unknown_batch():
    def body(x, i):
        return [x[1:, None, i], tf.concat([x, x], 0), tf.gather(x, [0, 2], axis=1),
                tf.pad(x, [[1, 1], [0, 0]], "REFLECT"), tf.math.top_k(x, 2).values, tf.split(x, [1, -1], axis=1)[1],
                tf.sort(x, axis=0), tf.tile(x, [1, 2]), tf.one_hot(i, 3), tf.range(i), x[::-1, i],
                tf.slice(x, [1, 0], [-1, 2]), tf.linspace(0.0, 1.0, i)]

    fn = tf.function(body, input_signature=[tf.TensorSpec([None, 4], tf.float64), tf.TensorSpec([], tf.int32)])
    x = tf.constant(RNG.normal(size=(3, 4)))
    for got, want in zip(fn(x, tf.constant(2)), body(x, tf.constant(2))):
        np.testing.assert_array_equal(got.numpy(), want.numpy())
