"""tf.nn.embedding_lookup, against TensorFlow 2.21's outputs on the same calls."""
import numpy as np
import pytest

import eagerflow as tf

T = tf.constant([[1., 2.], [3., 4.], [5., 6.]])


def test_lookup_values_as_tensorflow():
    assert tf.nn.embedding_lookup(T, [[2, 0], [1, 1]]).numpy().tolist() == [[[5, 6], [1, 2]], [[3, 4], [3, 4]]]
    # a list of params is a list of shards ("div": contiguous blocks), as TF 2 reads it
    assert tf.nn.embedding_lookup([[1., 2.], [3., 4.]], [1, 0, 1]).numpy().tolist() == [2, 1, 2]
    assert tf.nn.embedding_lookup([T[:2], T[2:]], [2, 0, 1]).numpy().tolist() == [[5, 6], [1, 2], [3, 4]]
    np.testing.assert_allclose(tf.nn.embedding_lookup(T, [2, 0], max_norm=2.0).numpy(),
                               [[1.2804, 1.5364], [0.8944, 1.7889]], atol=1e-4)  # TF 2.21
    with pytest.raises(ValueError, match="'div' sharding of 3 rows: shard sizes \\[2, 1\\], got \\[1, 2\\]"):
        tf.nn.embedding_lookup([T[:1], T[1:]], [0])  # TF reads such shards with the div formula anyway


def test_lookup_gradient_counts_each_row_used():
    v = tf.Variable(T)
    with tf.GradientTape() as g:
        y = tf.reduce_sum(tf.nn.embedding_lookup(v, [2, 2, 0]))
    # TF 2.21: IndexedSlices, dense [[1, 1], [0, 0], [2, 2]]
    assert tf.convert_to_tensor(g.gradient(y, v)).numpy().tolist() == [[1, 1], [0, 0], [2, 2]]
    traced = tf.function(lambda p, i: tf.nn.embedding_lookup(p, i))(T, tf.constant([1]))
    assert traced.numpy().tolist() == [[3, 4]]
