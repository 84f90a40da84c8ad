"""Differential rows (generated code == eager == reference interpreter) for the tf.sparse ops
(ops/sparse_*.py), beside test_differential.py. `rows(Row)` builds them with that test's Row class.

A row's function receives dense tensors (the harness feeds TensorSpecs); it builds the SparseTensor
inside, so each sparse op's kernel runs on the three parts in generated code too."""
import numpy as np

import eagerflow as tf

S = tf.sparse.SparseTensor
IDX = np.array([[0, 1], [1, 0], [2, 3]], np.int64)
UNORDERED = np.array([[2, 3], [0, 1], [1, 0]], np.int64)
VALS = np.array([1.0, 2.0, 3.0], np.float32)
SHAPE = np.array([3, 4], np.int64)


def rows(Row):
    sp = tf.sparse
    return [
        Row("SparseToDense", lambda i, v, s: sp.to_dense(S(i, v, s), default_value=-1.0), (IDX, VALS, SHAPE)),
        Row("SparseToDense", lambda i, v, s: sp.to_dense(S(i, v, s)), (UNORDERED, VALS, SHAPE),
            raises=tf.errors.InvalidArgumentError, label="unordered"),
        Row("SparseReorder", lambda i, v, s: sp.reorder(S(i, v, s)), (UNORDERED, VALS, SHAPE)),
    ]
