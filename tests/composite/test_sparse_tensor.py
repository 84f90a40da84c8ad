"""tf.sparse.SparseTensor eagerly: parts, static shape, repr, validation, from_dense/to_dense.
Expected values, reprs and messages are TensorFlow 2.21's (run once, written here)."""
import numpy as np
import pytest

import eagerflow as tf

S = tf.sparse.SparseTensor


def _a():
    return S(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])


def test_parts_dtypes_and_static_shape():
    sp = _a()
    assert tf.SparseTensor is S
    assert sp.indices.dtype == tf.int64 and sp.dense_shape.dtype == tf.int64 and sp.dtype == tf.float32
    assert sp.shape == tf.TensorShape([3, 4]) and sp.get_shape().as_list() == [3, 4]
    np.testing.assert_array_equal(sp.indices.numpy(), [[0, 0], [1, 2]])
    np.testing.assert_array_equal(sp.values.numpy(), np.array([1, 2], np.float32))
    np.testing.assert_array_equal(sp.dense_shape.numpy(), [3, 4])
    assert S([[0]], [1], [3]).dtype == tf.int32


def test_repr_and_str_are_tensorflows():
    expected = ("SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), values=tf.Tensor("
                "[1. 2.], shape=(2,), dtype=float32), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")
    assert repr(_a()) == expected and str(_a()) == expected
    empty = S(indices=np.zeros((0, 2), np.int64), values=np.zeros(0, np.float32), dense_shape=[2, 2])
    assert repr(empty) == ("SparseTensor(indices=tf.Tensor([], shape=(0, 2), dtype=int64), values=tf.Tensor([], "
                           "shape=(0,), dtype=float32), dense_shape=tf.Tensor([2 2], shape=(2,), dtype=int64))")


def test_spec_repr_equality_and_eager_op_graph_errors():
    assert repr(_a()._type_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"
    assert repr(tf.SparseTensorSpec([None, 10], tf.float32)) == "SparseTensorSpec(TensorShape([None, 10]), tf.float32)"
    assert repr(tf.SparseTensorSpec(None, tf.int32)) == "SparseTensorSpec(TensorShape(None), tf.int32)"
    assert repr(tf.SparseTensorSpec()) == "SparseTensorSpec(TensorShape(None), tf.float32)"
    assert tf.SparseTensorSpec([None, 10]) == tf.SparseTensorSpec([None, 10], tf.float32)
    assert hash(tf.SparseTensorSpec([2])) == hash(tf.SparseTensorSpec([2]))
    assert tf.SparseTensorSpec([None, 4]).is_compatible_with(_a())
    with pytest.raises(AttributeError, match="Tensor.op is undefined when eager execution is enabled."):
        _a().op
    with pytest.raises(AttributeError, match="Tensor.graph is undefined when eager execution is enabled."):
        _a().graph


def test_with_values():
    sp = _a().with_values([5, 6])
    assert sp.dtype == tf.int32 and sp.shape == tf.TensorShape([3, 4])
    np.testing.assert_array_equal(sp.indices.numpy(), [[0, 0], [1, 2]])


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(indices=[[0, 0], [1, 2]], values=[1.0], dense_shape=[3, 4]), ValueError,
     "Dimensions 2 and 1 are not compatible"),
    (dict(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4, 5]), ValueError,
     "Dimensions 2 and 3 are not compatible"),
    (dict(indices=[0, 1], values=[1.0, 2.0], dense_shape=[3]), ValueError, r"Shape \(2,\) must have rank 2"),
    (dict(indices=[[0], [1]], values=[[1.0], [2.0]], dense_shape=[3]), ValueError, r"Shape \(2, 1\) must have rank 1"),
    (dict(indices=[[0.5], [1]], values=[1.0, 2.0], dense_shape=[3]), TypeError,
     r"Cannot convert \[\[0.5\], \[1\]\] to EagerTensor of dtype int64"),
])
def test_constructor_validation_as_tensorflow(kwargs, error, message):
    with pytest.raises(error, match=message):
        S(**kwargs)


def test_to_dense_default_value_and_dtype_of_a_python_default():
    np.testing.assert_array_equal(tf.sparse.to_dense(_a()).numpy(),
                                  np.array([[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]], np.float32))
    out = tf.sparse.to_dense(_a(), default_value=-1.0)
    np.testing.assert_array_equal(out.numpy(), np.array([[1, -1, -1, -1], [-1, -1, 2, -1], [-1, -1, -1, -1]],
                                                        np.float32))
    assert tf.sparse.to_dense(_a(), default_value=1).dtype == tf.float32  # TF: 1 becomes 1.0


@pytest.mark.parametrize("indices, message", [
    ([[1, 2], [0, 0]], "indices[1] = [0,0] is out of order. Many sparse ops require sorted indices.\n"
                       "    Use `tf.sparse.reorder` to create a correctly ordered copy."),
    ([[0, 0], [0, 0]], "indices[1] = [0,0] is repeated"),
    ([[0, 0], [5, 0]], "indices[1] = [5,0] is out of bounds: need 0 <= index < [3,4]"),
    ([[0, 0], [-1, 0]], "indices[1] = [-1,0] is out of bounds: need 0 <= index < [3,4]"),
])
def test_to_dense_validates_indices_as_tensorflow(indices, message):
    sp = S(indices, [1.0, 2.0], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.sparse.to_dense(sp)
    assert message in str(info.value)
    graph = tf.function(tf.sparse.to_dense)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        graph(sp)
    assert message in str(info.value)


def test_to_dense_without_validation():
    unordered = S([[1, 2], [0, 0]], [1.0, 2.0], [3, 4])
    np.testing.assert_array_equal(tf.sparse.to_dense(unordered, validate_indices=False).numpy(),
                                  np.array([[2, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]], np.float32))
    repeated = S([[0, 0], [0, 0]], [1.0, 2.0], [3, 4])
    assert tf.sparse.to_dense(repeated, validate_indices=False).numpy()[0, 0] == 2.0  # the last one wins
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Indices are not valid \(out of bounds\).  "
                                                             r"Shape: \[3,4\]"):
        tf.sparse.to_dense(S([[0, 0], [5, 0]], [1.0, 2.0], [3, 4]), validate_indices=False)
    with pytest.raises(TypeError, match="Input must be a SparseTensor."):
        tf.sparse.to_dense(tf.constant([1.0]))


def test_from_dense_numbers_and_strings():
    sp = tf.sparse.from_dense([[1, 0], [0, 3]])
    assert sp.dtype == tf.int32 and sp.shape == tf.TensorShape([2, 2])
    np.testing.assert_array_equal(sp.indices.numpy(), [[0, 0], [1, 1]])
    np.testing.assert_array_equal(sp.values.numpy(), [1, 3])
    np.testing.assert_array_equal(sp.dense_shape.numpy(), [2, 2])
    words = tf.sparse.from_dense(["a", "", "b"])
    np.testing.assert_array_equal(words.indices.numpy(), [[0], [2]])
    assert words.values.numpy().tolist() == [b"a", b"b"]


def test_reorder_and_retain():
    unordered = S([[2, 3], [0, 1], [1, 0]], [3.0, 1.0, 2.0], [3, 4])
    ordered = tf.sparse.reorder(unordered)
    np.testing.assert_array_equal(ordered.indices.numpy(), [[0, 1], [1, 0], [2, 3]])
    np.testing.assert_array_equal(ordered.values.numpy(), np.array([1, 2, 3], np.float32))
    kept = tf.sparse.retain(ordered, [True, False, True])
    np.testing.assert_array_equal(kept.indices.numpy(), [[0, 1], [2, 3]])
    np.testing.assert_array_equal(kept.values.numpy(), np.array([1, 3], np.float32))
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.sparse.retain(ordered, [True, False])


def test_nest_flattens_a_sparse_tensor_to_its_parts():
    parts = tf.nest.flatten(_a(), expand_composites=True)
    assert [p.dtype for p in parts] == [tf.int64, tf.float32, tf.int64]
    rebuilt = tf.nest.pack_sequence_as(_a(), parts, expand_composites=True)
    assert isinstance(rebuilt, S) and rebuilt.shape == tf.TensorShape([3, 4])


def test_gradients_through_to_dense_and_reorder():
    indices, shape = [[2, 3], [0, 1], [1, 0]], [3, 4]
    with tf.GradientTape() as tape:
        v = tf.constant([1.0, 2.0, 3.0])
        tape.watch(v)
        dense = tf.sparse.to_dense(S(indices, v, shape), validate_indices=False) * tf.constant([[1.0, 2, 3, 4]])
        moved = tf.sparse.reorder(S(indices, v, shape)).values * tf.constant([1.0, 10, 100])
    # d/dv of sum(dense): the column weight at each index; of sum(moved): the weight where each value moved.
    np.testing.assert_array_equal(tape.gradient([dense, moved], v).numpy(), np.array([4 + 100, 2 + 1, 1 + 10],
                                                                                      np.float32))
