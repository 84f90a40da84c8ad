"""x[key], tf.strided_slice, tf.slice, tf.gather, tf.gather_nd, tf.scatter_nd against NumPy indexing.

NumPy's basic indexing is the independent reference for `x[key]`: TensorFlow's StridedSlice reads
ints, slices (negative steps too), `...` and `None` the same way. Error classes and message words were
checked against TensorFlow 2.21.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerflow as tf
from eagerflow._src.ops.registry import OPS

SHAPE = (4, 5, 3)
X = np.arange(60, dtype=np.float32).reshape(SHAPE) * 0.5 - 7

KEYS = [
    1, -1, (0, 2), (-4, -5, -3), np.int64(2),
    slice(None), slice(1, 3), slice(None, None, -1), slice(3, 0, -2), slice(-2, None), slice(10, 20),
    slice(-10, 2), slice(None, -10, -1),
    (Ellipsis, 1), (1, Ellipsis), (Ellipsis, slice(None, None, -2)), (None,), (None, 1, None),
    (slice(1, None), None, Ellipsis, 0), (Ellipsis, None), (0, slice(4, 1, -1), None, -1),
    (slice(None), slice(None), slice(None)), (2, 3, 1),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_numpy(key):
    got = tf.constant(X)[key]
    want = X[key]
    assert got.shape.as_list() == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want)


def _component(draw):
    """One index position: an int valid on every dim of SHAPE, a slice (bounds may overshoot), or None."""
    kind = draw(st.sampled_from(["int", "slice", "none"]))
    if kind == "int":
        return draw(st.integers(-3, 2))
    if kind == "none":
        return None
    bound = st.one_of(st.none(), st.integers(-7, 7))
    step = draw(st.one_of(st.none(), st.integers(-3, 3).filter(lambda s: s != 0)))
    return slice(draw(bound), draw(bound), step)


@st.composite
def _keys(draw):
    """A random key over SHAPE: up to three dim-consuming parts, Nones anywhere, maybe one ellipsis."""
    comps = [_component(draw) for _ in range(draw(st.integers(0, 5)))]
    consuming = [i for i, c in enumerate(comps) if c is not None]
    for i in consuming[len(SHAPE):]:
        comps[i] = None
    if draw(st.booleans()):
        comps.insert(draw(st.integers(0, len(comps))), Ellipsis)
    return tuple(comps)


@settings(max_examples=150, deadline=None)
@given(_keys())
def test_getitem_random_keys_match_numpy(key):
    want = X[key]
    got = tf.constant(X)[key]
    assert got.shape.as_list() == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want)


def test_scalar_int_tensors_as_indices():
    x = tf.constant(X)
    np.testing.assert_array_equal(x[tf.constant(2)].numpy(), X[2])
    np.testing.assert_array_equal(x[tf.constant(-1, tf.int64), 1].numpy(), X[-1, 1])
    np.testing.assert_array_equal(x[tf.constant(1):tf.constant(3), ::tf.constant(-1)].numpy(), X[1:3, ::-1])


def test_newaxis_is_none_and_list_key_is_a_tuple():
    assert tf.newaxis is None
    x = tf.constant(X)
    assert x[:, tf.newaxis].shape.as_list() == [4, 1, 5, 3]
    np.testing.assert_array_equal(x[[1, 2]].numpy(), X[1, 2])


def test_getitem_on_variable():
    v = tf.Variable(X.astype(np.float64))
    np.testing.assert_array_equal(v[...].numpy(), X)
    np.testing.assert_array_equal(v[1, ..., ::-1].numpy(), X[1, ..., ::-1])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[1:3, 0] * 2.0)
    g = tape.gradient(y, v).numpy()
    want = np.zeros(SHAPE)
    want[1:3, 0] = 2.0
    np.testing.assert_array_equal(g, want)


def test_getitem_records_strided_slice():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[1]
    assert [r.opdef.name for r in tape._records] == ["StridedSlice"]
    assert y.shape.as_list() == [5, 3]


@pytest.mark.parametrize("key, words", [
    (5, "slice index 5 of dimension 0 out of bounds"),
    (-5, "slice index -1 of dimension 0 out of bounds"),
    ((1, 7), "slice index 7 of dimension 1 out of bounds"),
    (slice(None, None, 0), "strides[0] must be non-zero"),
    ((1, 2, 0, 0), "Index out of range using input dim 3; input has only 3 dims"),
    ((Ellipsis, Ellipsis), "Multiple ellipses in slice spec not allowed"),
])
def test_getitem_errors(key, words):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.constant(X)[key]
    assert words in str(info.value)
    assert "[Op:StridedSlice]" in str(info.value)


@pytest.mark.parametrize("key", [1.0, [1.5], tf.constant([1, 2]), tf.constant(1.0), "a"], ids=repr)
def test_getitem_bad_index_types(key):
    with pytest.raises(TypeError, match="Only integers, slices"):
        tf.constant(X)[key]


def test_boolean_mask_key():
    mask = X[:, 0, 0] > 0
    np.testing.assert_array_equal(tf.constant(X)[tf.constant(mask)].numpy(), X[mask])
    np.testing.assert_array_equal(tf.boolean_mask(X, mask).numpy(), X[mask])
    with pytest.raises(ValueError, match="mask cannot be scalar"):
        tf.constant(X)[tf.constant(True)]


def test_strided_slice_masks():
    x = tf.constant(X)
    # begin_mask on dim 0, end_mask on dim 1, shrink dim 2
    out = tf.strided_slice(x, [3, 1, 1], [0, 0, 2], [-1, 2, 1], begin_mask=1, end_mask=2, shrink_axis_mask=4)
    np.testing.assert_array_equal(out.numpy(), X[:0:-1, 1::2, 1])
    out = tf.strided_slice(x, [0, 1], [0, 2], [1, 1], ellipsis_mask=1)
    np.testing.assert_array_equal(out.numpy(), X[..., 1:2])
    out = tf.strided_slice(x, [0, 0], [0, 2], new_axis_mask=1)
    np.testing.assert_array_equal(out.numpy(), X[None, 0:2])
    # new_axis wins over shrink on the same position, as in TensorFlow
    assert tf.strided_slice(x, [0], [2], [1], new_axis_mask=1, shrink_axis_mask=1).shape.as_list() == [1, 4, 5, 3]


def test_strided_slice_shrink_needs_positive_stride():
    with pytest.raises(tf.errors.InvalidArgumentError, match="only stride 1 allowed on non-range indexing"):
        tf.strided_slice(tf.constant(X), [1], [2], [-1], shrink_axis_mask=1)


def test_strided_slice_shape_rule_with_unknown_dims():
    infer = OPS["StridedSlice"].infer

    class Sym(tf.Tensor):  # what a graph tensor offers a shape rule: shape and dtype, no value
        def __init__(self, shape, dtype):
            self._shape, self._dtype = tf.TensorShape(shape), dtype

        shape = property(lambda self: self._shape)

    x = Sym([None, 5, 3], tf.float32)
    b, e, s = (tf.constant([0, 1, 1]), tf.constant([0, 4, 2]), tf.constant([1, 2, 1]))
    (spec,) = infer([x, b, e, s], {"begin_mask": 1, "end_mask": 1, "shrink_axis_mask": 4})
    assert spec.shape.as_list() == [None, 2]
    dyn = Sym([3], tf.int32)
    (spec,) = infer([x, dyn, dyn, dyn], {"shrink_axis_mask": 1, "new_axis_mask": 4})
    assert spec.shape.as_list() == [None, 1, 3]


def test_strided_slice_grad_op_scatters_into_zeros():
    dy = tf.constant(np.ones((2, 3), np.float32))
    from eagerflow._src.ops.array.slicing import strided_slice_grad
    out = strided_slice_grad([4, 3], [1, 0], [3, 0], [1, 1], dy, end_mask=2).numpy()
    want = np.zeros((4, 3), np.float32)
    want[1:3] = 1
    np.testing.assert_array_equal(out, want)


# --- tf.slice -------------------------------------------------------------------------------------

def test_slice_matches_numpy():
    x = tf.constant(X)
    np.testing.assert_array_equal(tf.slice(x, [1, 0, 1], [2, -1, 2]).numpy(), X[1:3, :, 1:3])
    np.testing.assert_array_equal(tf.slice(x, [0, 0, 0], [0, 5, 3]).numpy(), X[0:0])


@pytest.mark.parametrize("begin, size, words", [
    ([1, 0, 0], [4, 1, 1], "Expected size[0] in [0, 3], but got 4"),
    ([-1, 0, 0], [1, 1, 1], "Expected begin[0] in [0, 4], but got -1"),
])
def test_slice_errors(begin, size, words):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.slice(tf.constant(X), begin, size)
    assert words in str(info.value)


# --- gather / gather_nd / scatter_nd ------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(axis=st.integers(-3, 2), idx_shape=st.lists(st.integers(0, 3), max_size=2), seed=st.integers(0, 99))
def test_gather_matches_numpy_take(axis, idx_shape, seed):
    n = SHAPE[axis]
    idx = np.random.default_rng(seed).integers(0, n, size=idx_shape).astype(np.int32)
    got = tf.gather(tf.constant(X), idx, axis=axis)
    np.testing.assert_array_equal(got.numpy(), np.take(X, idx, axis=axis))


def test_gather_batch_dims():
    idx = np.array([[0, 2], [1, 1], [4, 0], [3, 3]], np.int32)
    got = tf.gather(tf.constant(X), idx, axis=1, batch_dims=1).numpy()
    want = np.stack([X[b][idx[b]] for b in range(4)])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("indices, kwargs, cls, words", [
    ([0, 5], {}, tf.errors.InvalidArgumentError, "indices[1] = 5 is not in [0, 4)"),
    ([0, -1], {}, tf.errors.InvalidArgumentError, "indices[1] = -1 is not in [0, 4)"),
    ([0], {"axis": 3}, tf.errors.InvalidArgumentError, "Shape must be at least rank 4 but is rank 3"),
    ([0], {"axis": -4}, tf.errors.InvalidArgumentError, "Shape must be at least rank 4 but is rank 3"),
    ([0.0], {}, tf.errors.InvalidArgumentError,  # TF 2.21's eager words: "float", not "float32"
     "Value for attr 'Tindices' of float is not in the list of allowed values: int16, int32, int64"),
])
def test_gather_errors(indices, kwargs, cls, words):
    with pytest.raises(cls) as info:
        tf.gather(tf.constant(X), indices, **kwargs)
    assert words in str(info.value)


def test_gather_nd_matches_numpy():
    x = tf.constant(X)
    idx = np.array([[1, 2], [3, 0], [1, 2]], np.int32)
    np.testing.assert_array_equal(tf.gather_nd(x, idx).numpy(), X[idx[:, 0], idx[:, 1]])
    idx3 = np.array([[[0, 1, 2]], [[3, 4, 0]]], np.int64)
    np.testing.assert_array_equal(tf.gather_nd(x, idx3).numpy(), X[idx3[..., 0], idx3[..., 1], idx3[..., 2]])


def test_gather_nd_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[5, 0\] does not index into param"):
        tf.gather_nd(tf.ones([3, 4]), [[0, 1], [5, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="innermost dimension length must be <= params rank"):
        tf.gather_nd(tf.ones([3, 4]), [[0, 1, 2]])


def test_scatter_nd_sums_duplicates():
    out = tf.scatter_nd([[1], [3], [1]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [4, 2]).numpy()
    want = np.zeros((4, 2), np.float32)
    np.add.at(want, [1, 3, 1], np.array([[1, 2], [3, 4], [5, 6]], np.float32))
    np.testing.assert_array_equal(out, want)


def test_scatter_nd_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[5\] does not index into shape \[3\]"):
        tf.scatter_nd([[5]], [1.0], [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Dimensions \[0,1\) of indices\[shape=\[1,1\]\]"):
        tf.scatter_nd([[1]], [1.0, 2.0], [3])


def test_static_shape_of_slices_beside_a_run_time_index_as_tensorflow():
    shapes = {}

    @tf.function
    def f(x, t):
        shapes["mid"] = x[:, t, :].shape
        shapes["first"] = x[t].shape
        shapes["offset"] = x[1:, t].shape
        shapes["ellipsis"] = x[..., t].shape
        shapes["window"] = x[:, t:t + 2].shape
        shapes["stepped"] = x[::2, t].shape
        return x[:, t, :]
    out = f(tf.ones([4, 3, 2]), tf.constant(1))
    # TF 2.21 in a loop over tf.range: (4, 2) (3, 2) (None, 2) (4, 3) (4, None, 2); x[::2, t]: (2, 2)
    assert {k: tuple(v.as_list()) for k, v in shapes.items()} == {
        "mid": (4, 2), "first": (3, 2), "offset": (None, 2), "ellipsis": (4, 3), "window": (4, None, 2),
        "stepped": (2, 2)}
    assert out.shape == (4, 2)


def test_boolean_mask_along_a_later_axis():
    x = tf.reshape(tf.range(24), [2, 3, 4])
    mask = tf.constant([[True, False, True, False], [False, False, True, True], [True, True, True, True]])
    # TF 2.21's answers
    assert tf.boolean_mask(x, mask, axis=1).numpy().tolist() == [[0, 2, 6, 7, 8, 9, 10, 11],
                                                                [12, 14, 18, 19, 20, 21, 22, 23]]
    two = tf.reshape(tf.range(6), [2, 3])
    assert tf.boolean_mask(two, tf.constant([True, False, True]), axis=1).numpy().tolist() == [[0, 2], [3, 5]]
    with pytest.raises(ValueError, match=r"^Shapes \(\) and \(4,\) are incompatible$"):  # TF takes -1 as written
        tf.boolean_mask(x, tf.constant([True, False, True, True]), axis=-1)

    @tf.function(input_signature=[tf.TensorSpec([None, 3, None], tf.int32), tf.TensorSpec([3], tf.bool)])
    def masked(a, m):
        return tf.boolean_mask(a, m, axis=1)

    out = masked(x, tf.constant([True, False, True]))
    assert out.numpy().tolist() == [[[0, 1, 2, 3], [8, 9, 10, 11]], [[12, 13, 14, 15], [20, 21, 22, 23]]]
    v = tf.Variable(tf.ones([2, 3]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.boolean_mask(v * 2.0, tf.constant([False, True, True]), axis=1))
    assert tape.gradient(y, v).numpy().tolist() == [[0.0, 2.0, 2.0], [0.0, 2.0, 2.0]]
