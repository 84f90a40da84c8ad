"""Differential rows (generated code == eager == reference interpreter) for the tf.ragged ops
(ops/ragged/factories.py, ops/strings/split.py), beside test_differential.py."""
import numpy as np

import eagerflow as tf

VALUES = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
SPLITS = np.array([0, 3, 3, 4], np.int64)


def _grad_to_tensor(v, s):
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.RaggedTensor.from_row_splits(v, s, validate=False).to_tensor(shape=[3, 2]) * 2.0)
    return tape.gradient(y, v)


def rows(Row):
    return [
        Row("RaggedTensorToTensor", lambda v, s: tf.RaggedTensor.from_row_splits(v, s, validate=False).to_tensor(
            default_value=-1.0), (VALUES, SPLITS)),
        Row("RaggedTensorToTensor", _grad_to_tensor, (VALUES, SPLITS), label="gradient"),
        Row("RaggedRange", lambda n: tf.ragged.range(n), (np.array([3, 0, 2], np.int32),)),
        Row("StringSplitV2", lambda s: tf.strings.split(s, sep=","),
            (np.array([b"a,b,,c", b"d"], dtype=object),)),
        Row("StringSplitV2", lambda s: tf.strings.split(s).to_tensor(default_value="-"),
            (np.array([[b"a b", b"c"], [b"d e f", b""]], dtype=object),), label="matrix"),
        Row("GatherV2", lambda v, s: tf.RaggedTensor.from_row_splits(v, s, validate=False)[::-1, 1:].to_tensor(),
            (VALUES, SPLITS), label="ragged getitem"),
        Row("StridedSlice", lambda v, s: tf.RaggedTensor.from_row_splits(v, s, validate=False)[-3],
            (VALUES, SPLITS), label="ragged row"),
        Row("GatherV2", lambda v: tf.RaggedTensor.from_uniform_row_length(v, 2)[:, -1], (VALUES,),
            label="uniform column"),
        Row("Prod", lambda v, s: tf.RaggedTensor.from_row_splits(tf.reshape(v, [4, 1]), s,
                                                                 validate=False).merge_dims(0, 2),
            (VALUES, SPLITS), label="ragged merge_dims"),
        Row("Pack", lambda v, s: tf.RaggedTensor.from_row_splits(v, s, validate=False).to_sparse().indices,
            (VALUES, SPLITS), label="ragged to_sparse"),
        Row("Assert", lambda i, v, d: tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor(i, v, d)).row_splits,
            (np.array([[0, 0], [0, 1], [2, 0]], np.int64), VALUES[:3], np.array([4, 3], np.int64)),
            label="ragged from_sparse"),
        Row("GatherV2", lambda v, s, m: tf.ragged.boolean_mask(tf.RaggedTensor.from_row_splits(v, s, validate=False),
                                                               m).flat_values,
            (VALUES, SPLITS, np.array([True, False, True])), label="ragged boolean_mask"),
        Row("UnsortedSegmentJoin", lambda s, i: tf.strings.unsorted_segment_join(s, i, 3, separator="-"),
            (np.array([b"a", b"b", b"c"], dtype=object), np.array([1, 0, 1], np.int32))),
        Row("UnsortedSegmentSum", lambda v, s: tf.reduce_sum(tf.RaggedTensor.from_row_splits(v, s, validate=False),
                                                             axis=1), (VALUES, SPLITS), label="ragged reduce_sum"),
        Row("GatherV2", lambda v, s: tf.concat([tf.RaggedTensor.from_row_splits(v, s, validate=False)] * 2,
                                               axis=1).flat_values, (VALUES, SPLITS), label="ragged concat"),
    ]
