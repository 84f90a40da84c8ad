"""rt.to_sparse(), tf.RaggedTensor.from_sparse, rt.merge_dims and tf.ragged.boolean_mask against
TensorFlow 2.21 (values, shapes and messages written here), eagerly and inside tf.function."""
import numpy as np
import pytest

import eagerflow as tf


def _rt():
    return tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])


def _r2():
    return tf.ragged.constant([[[1, 2], [3]], [[4]], [], [[5, 6, 7]]])


def _ri():
    return tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)


def _both(fn, *args):
    """fn eagerly and through tf.function (the same result expected of both)."""
    return fn(*args), tf.function(fn)(*args)


@pytest.mark.parametrize("make,indices,shape", [
    (_rt, [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]], [4, 3]),
    (_r2, [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [3, 0, 0], [3, 0, 1], [3, 0, 2]], [4, 2, 3]),
    (_ri, [[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]], [2, 2, 2]),
])
def test_to_sparse(make, indices, shape):
    for st in _both(lambda r: r.to_sparse(), make()):
        assert isinstance(st, tf.sparse.SparseTensor)
        assert st.indices.numpy().tolist() == indices and st.dense_shape.numpy().tolist() == shape
        assert st.values.numpy().tolist() == list(range(1, len(indices) + 1))
    assert make().to_sparse().shape.as_list() == shape


def test_from_sparse():
    st = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [4, 3])
    for rt in _both(tf.RaggedTensor.from_sparse, st):
        assert rt.to_list() == [[1, 2], [], [3], []]
    assert repr(tf.RaggedTensor.from_sparse(st)._type_spec) == \
        "RaggedTensorSpec(TensorShape([4, None]), tf.int32, 1, tf.int64)"
    # rows taken in the order given, as TensorFlow does
    unordered = tf.sparse.SparseTensor([[2, 0], [0, 0]], [1, 2], [4, 3])
    assert tf.RaggedTensor.from_sparse(unordered).to_list() == [[1], [], [2], []]
    assert _rt().to_sparse().values.numpy().tolist() == tf.RaggedTensor.from_sparse(_rt().to_sparse()).flat_values \
        .numpy().tolist()


def test_from_sparse_errors():
    with pytest.raises(ValueError, match=r"rank\(st_input\) must be 2."):
        tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor([[0, 0, 0]], [1], [1, 1, 1]))
    with pytest.raises(TypeError) as info:
        tf.RaggedTensor.from_sparse(tf.constant([1]))
    assert str(info.value) == "Argument `st_input` must be of type SparseTensor, but is of type EagerTensor."
    gap = tf.sparse.SparseTensor([[0, 1]], [1], [4, 3])
    message = ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
               "b'SparseTensor is not right-ragged'\nb'SparseTensor.indices ='\n0, 1")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.RaggedTensor.from_sparse(gap)
    assert message in str(info.value)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(lambda s: tf.RaggedTensor.from_sparse(s).flat_values)(gap)
    assert "SparseTensor is not right-ragged" in str(info.value)


@pytest.mark.parametrize("make,outer,inner,want", [
    (_rt, 0, 1, [1, 2, 3, 4, 5, 6]),
    (_r2, 0, 1, ("R", [[1, 2], [3], [4], [5, 6, 7]])),
    (_r2, 1, 2, ("R", [[1, 2, 3], [4], [], [5, 6, 7]])),
    (_r2, 0, -1, [1, 2, 3, 4, 5, 6, 7]),
    (_ri, 1, 2, ("R", [[1, 2], [3, 4, 5, 6]])),
    (_ri, 0, -1, [1, 2, 3, 4, 5, 6]),
    (_rt, 1, 1, ("R", [[1, 2, 3], [], [4, 5], [6]])),
])
def test_merge_dims(make, outer, inner, want):
    for got in _both(lambda r: r.merge_dims(outer, inner), make()):
        if isinstance(want, tuple):
            assert isinstance(got, tf.RaggedTensor) and got.to_list() == want[1]
        else:
            assert not isinstance(got, tf.RaggedTensor) and got.numpy().tolist() == want


def test_merge_dims_errors():
    with pytest.raises(ValueError) as info:
        _rt().merge_dims(1, 0)
    assert str(info.value) == "Expected outer_axis (1) to be less than or equal to inner_axis (0)."
    with pytest.raises(ValueError) as info:
        _rt().merge_dims(0, 3)
    assert str(info.value) == "inner_axis=3 out of bounds: expected -2<=inner_axis<2"


def test_boolean_mask():
    mask = tf.ragged.constant([[True, False, True], [], [False, True], [True]])
    for got in _both(tf.ragged.boolean_mask, _rt(), mask):
        assert got.to_list() == [[1, 3], [], [5], [6]]
    for got in _both(tf.ragged.boolean_mask, _rt(), tf.constant([True, False, True, False])):
        assert got.to_list() == [[1, 2, 3], [4, 5]]
    dense = tf.ragged.boolean_mask(tf.constant([[1, 2], [3, 4]]), tf.constant([[True, False], [False, True]]))
    assert isinstance(dense, tf.RaggedTensor) and dense.to_list() == [[1], [4]] and dense.shape.as_list() == [2, None]


def test_gradients_flow_through_the_values():
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        rt = tf.RaggedTensor.from_row_splits(values, [0, 3, 3, 5, 6])
        kept = tf.ragged.boolean_mask(rt, tf.constant([True, False, True, False]))
        loss = tf.reduce_sum(kept.merge_dims(0, 1) * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
    np.testing.assert_array_equal(tape.gradient(loss, values).numpy(), [1, 2, 3, 4, 5, 0])
