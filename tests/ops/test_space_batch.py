"""SpaceToBatchND / BatchToSpaceND against TensorFlow 2.21 (values, shapes, errors, gradient, graph ops written in)."""
import numpy as np
import pytest

import eagerflow as tf

X = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])


def test_values_as_tensorflow():
    y = tf.space_to_batch_nd(X, [2, 2], [[0, 0], [0, 0]])
    assert y.shape == (4, 2, 2, 1)
    assert y.numpy()[..., 0].tolist() == [[[0, 2], [8, 10]], [[1, 3], [9, 11]], [[4, 6], [12, 14]], [[5, 7], [13, 15]]]
    y2 = tf.space_to_batch(tf.reshape(tf.range(6, dtype=tf.float32), [2, 3, 1]), [2], [[1, 0]])
    assert y2.numpy()[..., 0].tolist() == [[0, 1], [0, 4], [0, 2], [3, 5]]
    z = tf.batch_to_space(y, [2, 2], [[0, 0], [0, 1]])
    assert z.numpy()[..., 0].tolist() == [[[0, 1, 2], [4, 5, 6], [8, 9, 10], [12, 13, 14]]]
    assert tf.nn.space_to_batch(X, [2, 2], [[0, 0], [0, 0]]).numpy().tolist() == y.numpy().tolist()


def test_errors_as_tensorflow():
    y = tf.space_to_batch_nd(X, [2, 2], [[0, 0], [0, 0]])
    cases = [(lambda: tf.space_to_batch_nd(X, [3, 3], [[0, 0], [0, 0]]), r"padded_shape\[0\]=4 is not divisible by "
                                                                       r"block_shape\[0\]=3"),
             (lambda: tf.batch_to_space(y, [3, 3], [[0, 0], [0, 0]]), r"Input batch dimension \(4\) is not divisible "
                                                                     r"by product of block sizes \(9\)"),
             (lambda: tf.space_to_batch_nd(X, [2, 2], [[0, -1], [0, 0]]), "Paddings must be non-negative"),
             (lambda: tf.space_to_batch_nd(X, [2], [[0, 0], [0, 0]]), r"paddings should have shape \[1, 2\] instead "
                                                                       r"of \[2,2\]")]
    for make, words in cases:
        with pytest.raises(tf.errors.InvalidArgumentError, match=words):
            make()


def test_gradient_and_graph():
    with tf.GradientTape() as tape:
        tape.watch(X)
        loss = tf.reduce_sum(tf.space_to_batch_nd(X, [2, 2], [[1, 1], [0, 2]]) ** 2)
    np.testing.assert_array_equal(tape.gradient(loss, X).numpy()[0, :, :, 0], 2 * X.numpy()[0, :, :, 0])
    round_trip = tf.function(lambda a: tf.batch_to_space(tf.space_to_batch_nd(a, [2, 2], [[0, 0], [0, 0]]), [2, 2],
                                                         [[0, 0], [0, 0]]))
    cf = round_trip.get_concrete_function(tf.TensorSpec([None, 4, 4, 1]))
    assert [op.type for op in cf.graph.get_operations()] == [
        "Placeholder", "Const", "Const", "SpaceToBatchND", "Const", "Const", "BatchToSpaceND", "Identity"]
    assert cf.output_shapes.as_list() == [None, 4, 4, 1]
    np.testing.assert_array_equal(round_trip(X).numpy(), X.numpy())


def test_required_space_to_batch_paddings_as_tensorflow():
    paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3])
    assert paddings.numpy().tolist() == [[0, 1], [0, 2]] and crops.numpy().tolist() == [[0, 1], [0, 2]]
    paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]])
    assert paddings.numpy().tolist() == [[1, 0], [0, 2]] and crops.numpy().tolist() == [[0, 0], [0, 0]]


def test_edit_distance_as_tensorflow():
    h = tf.sparse.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], [2, 1, 1])
    t = tf.sparse.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2], [1, 1, 0]], ["a", "b", "c", "a", "x"],
                               [2, 2, 3])
    np.testing.assert_allclose(tf.edit_distance(h, t).numpy(), [[np.inf, 1.0], [2 / 3, 1.0]], rtol=1e-6)
    assert tf.edit_distance(h, t, normalize=False).numpy().tolist() == [[1.0, 1.0], [2.0, 1.0]]
    empty = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [1, 1])
    one = tf.sparse.SparseTensor([[0, 0]], [1], [1, 1])
    assert tf.edit_distance(empty, empty).numpy().tolist() == [0.0]
    assert tf.edit_distance(one, empty).numpy().tolist() == [np.inf]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute EditDistance as input #4\(zero-based\) "
                                                             r"was expected to be a int32 tensor but is a string tensor"):
        tf.edit_distance(one, tf.sparse.SparseTensor([[0, 0]], ["a"], [1, 1]))
    with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor."):
        tf.edit_distance(tf.constant([1]), one)
    cf = tf.function(lambda a, b, c, d: tf.edit_distance(tf.sparse.SparseTensor(a, b, [2, 2]),
                                                         tf.sparse.SparseTensor(c, d, [2, 1]))).get_concrete_function(
        tf.TensorSpec([None, 2], tf.int64), tf.TensorSpec([None], tf.int32), tf.TensorSpec([None, 2], tf.int64),
        tf.TensorSpec([None], tf.int32))
    assert "EditDistance" in [op.type for op in cf.graph.get_operations()] and cf.output_shapes.as_list() == [2]
