"""RaggedTensor factories check their arguments inside tf.function as they do eagerly (TensorFlow 2.21
adds assertion ops there; its InvalidArgumentError words are written here)."""
import ast

import pytest

import eagerflow as tf

R = tf.RaggedTensor
I64 = tf.int64

CASES = [
    (R.from_row_splits, [0, 2, 2, 3],
     ["Arguments to _from_row_partition do not form a valid RaggedTensor", "Condition x == y did not hold",
      "[3]", "[4]"]),
    (R.from_row_splits, [1, 2, 2, 4],
     ["Arguments to from_row_splits do not form a valid RaggedTensor:zero", "Condition x == y did not hold",
      "[1]", "[0]"]),
    (R.from_row_splits, [0, 3, 2, 4],
     ["Arguments to from_row_splits do not form a valid RaggedTensor:monotonic.  ",
      "Condition x >= 0 did not hold element-wise:", "['3', '-1', '2']"]),
    (R.from_row_lengths, [2, 0, 1],
     ["Arguments to _from_row_partition do not form a valid RaggedTensor", "Condition x == y did not hold",
      "[3]", "[4]"]),
    (R.from_row_lengths, [2, -1, 3],
     ["Arguments to from_row_lengths do not form a valid RowPartition.  ",
      "Condition x >= 0 did not hold element-wise:", "['2', '-1', '3']"]),
    (R.from_value_rowids, [0, 2, 1, 2],
     ["Arguments to from_value_rowids do not form a valid RowPartition.  ",
      "Condition x >= 0 did not hold element-wise:", "['2', '-1', '1']"]),
    (R.from_value_rowids, [-1, 0, 1, 2],
     ["Arguments to from_value_rowids do not form a valid RowPartition.  ",
      "Condition x >= 0 did not hold element-wise:", "['-1']"]),
]


def _graph_words(words):
    """The eager words as a traced check prints them: "['3', '-1', '2']" is "[3 -1 2]" there."""
    return [("[" + " ".join(ast.literal_eval(w)) + "]") if w.startswith("['") else w for w in words]


@pytest.mark.parametrize("factory,partition,words", CASES)
def test_factories_check_eagerly_and_inside_tf_function(factory, partition, words):
    values, part = tf.constant([1, 2, 3, 4]), tf.constant(partition, I64)
    with pytest.raises(tf.errors.InvalidArgumentError) as eager:
        factory(values, part)
    traced = tf.function(lambda v, p: factory(v, p).flat_values)
    with pytest.raises(tf.errors.InvalidArgumentError) as graph:
        traced(values, part)
    for word in words:
        assert word in str(eager.value), str(eager.value)
    for word in _graph_words(words):  # TensorFlow's graph Assert summarizes values as its kernel does
        assert word in str(graph.value), str(graph.value)
    # the check runs at every call of the one trace: good partitions pass
    good = {R.from_row_splits: [0, 2, 2, 4], R.from_row_lengths: [2, 0, 2], R.from_value_rowids: [0, 0, 2, 2]}
    assert traced(values, tf.constant(good[factory], I64)).numpy().tolist() == [1, 2, 3, 4]
    assert traced.experimental_get_tracing_count() == 1


def test_validate_false_trusts_the_partition_inside_tf_function():
    f = tf.function(lambda v, s: R.from_row_splits(v, s, validate=False).row_splits)
    assert f(tf.constant([1, 2, 3, 4]), tf.constant([0, 2, 2, 3], I64)).numpy().tolist() == [0, 2, 2, 3]
