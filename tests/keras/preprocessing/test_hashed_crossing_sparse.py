"""HashedCrossing(sparse=True), as Keras 3.15.1 on TensorFlow 2.21 answers: one-hot output becomes a
SparseTensor (one entry per row, at the crossed bin), integer output stays dense."""
import numpy as np

import eagerflow as tf
from eagerflow.keras import layers

A = np.array([1, 2, 3, 4])
B = np.array(["A", "B", "C", "A"])


def test_one_hot_sparse_is_a_sparse_tensor_of_keras_bins():
    out = layers.HashedCrossing(num_bins=5, output_mode="one_hot", sparse=True)((A, B))
    assert isinstance(out, tf.SparseTensor)
    assert out.indices.numpy().tolist() == [[0, 2], [1, 3], [2, 3], [3, 0]]
    assert out.values.numpy().tolist() == [1.0, 1.0, 1.0, 1.0] and out.values.dtype == tf.float32
    assert out.dense_shape.numpy().tolist() == [4, 5]
    column = layers.HashedCrossing(num_bins=5, output_mode="one_hot", sparse=True)((A[:, None], B[:, None]))
    assert column.indices.numpy().tolist() == [[0, 2], [1, 3], [2, 3], [3, 0]]
    dense = layers.HashedCrossing(num_bins=5, output_mode="one_hot")((A, B)).numpy()
    np.testing.assert_array_equal(tf.sparse.to_dense(out).numpy(), dense)


def test_int_output_stays_dense_with_sparse_true():
    out = layers.HashedCrossing(num_bins=5, sparse=True)((A, B))
    assert not isinstance(out, tf.SparseTensor) and out.dtype == tf.int64
    assert out.numpy().tolist() == [2, 3, 3, 0]
    assert layers.HashedCrossing(num_bins=7, sparse=True)((A, B)).numpy().tolist() == [2, 1, 4, 4]
    assert layers.HashedCrossing(num_bins=5, sparse=True)((A[:, None], B[:, None])).numpy().tolist() == \
        [[2], [3], [3], [0]]


def test_sparse_config():
    config = layers.HashedCrossing(num_bins=5, sparse=True, name="cross").get_config()
    assert config == {"num_bins": 5, "output_mode": "int", "sparse": True, "name": "cross", "dtype": "int64"}
