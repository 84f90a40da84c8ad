"""tf.RaggedTensor.from_tensor (ops/ragged/from_tensor.py) against TensorFlow 2.21's recorded answers,
eagerly and traced."""
import numpy as np
import pytest

import eagerflow as tf

X = [[1, 2, 0, 0], [3, 0, 0, 0], [0, 0, 0, 0]]


@pytest.mark.parametrize("traced", [False, True])
def test_rows_cut_by_lengths_or_padding(traced):
    def run(fn, *args):
        return tf.function(fn)(*args) if traced else fn(*args)
    x = tf.constant(X)
    assert run(lambda t: tf.RaggedTensor.from_tensor(t), x).to_list() == X
    assert run(lambda t: tf.RaggedTensor.from_tensor(t, padding=0), x).to_list() == [[1, 2], [3], []]
    assert run(lambda t: tf.RaggedTensor.from_tensor(t, lengths=[1, 3, 0]), x).to_list() == [[1], [3, 0, 0], []]
    y = tf.constant([[[1, 1], [0, 0]], [[0, 0], [2, 0]]])
    assert run(lambda t: tf.RaggedTensor.from_tensor(t, padding=[0, 0]), y).to_list() == [[[1, 1]], [[0, 0], [2, 0]]]


def test_static_shapes_and_dtypes_as_tensorflow():
    whole = tf.RaggedTensor.from_tensor(tf.zeros([2, 3, 4]))
    assert whole.shape.as_list() == [2, 3, 4] and whole.ragged_rank == 1  # TensorFlow: (2, 3, 4), the row length kept
    cut = tf.RaggedTensor.from_tensor(tf.zeros([2, 3, 4]), lengths=[1, 2])
    assert cut.shape.as_list() == [2, None, 4] and cut.flat_values.shape.as_list() == [3, 4]
    assert tf.RaggedTensor.from_tensor(tf.constant(X), padding=0).row_splits.dtype == tf.int64
    np.testing.assert_array_equal(cut.row_lengths().numpy(), [1, 2])


def test_errors_as_tensorflow():
    with pytest.raises(ValueError, match="Specify argument `lengths` or `padding`, but not both."):
        tf.RaggedTensor.from_tensor(tf.constant(X), padding=0, lengths=[1, 2, 3])
    with pytest.raises(ValueError, match="The rank of a RaggedTensor must be greater than 1, i.e., a list of scalars "
                                         "won't have ragged dimensions. Received argument `tensor` with rank 1."):
        tf.RaggedTensor.from_tensor(tf.zeros([3]))
