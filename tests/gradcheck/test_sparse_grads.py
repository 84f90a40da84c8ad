"""Gradcheck rows for the tf.sparse ops (ops/sparse_*.py) against finite differences: the gradient
w.r.t. a SparseTensor's values (and a dense operand), eagerly and in a tf.function."""
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row

S = tf.sparse.SparseTensor
IDX = [[0, 1], [1, 0], [2, 3]]
UNORDERED = [[2, 3], [0, 1], [1, 0]]


def _to_dense(v):
    return tf.sparse.to_dense(S(IDX, v, [3, 4]), default_value=tf.constant(0.5, tf.float64)) * tf.sin(v[0])


def _to_dense_default(v, d):
    return tf.sparse.to_dense(S(IDX, v, [3, 4]), default_value=d[0] * d[0])


def _reorder(v):
    return tf.sparse.reorder(S(UNORDERED, v * v, [3, 4])).values


ROWS = [
    GradRow("SparseToDense", _to_dense, [(3,)]),
    GradRow("SparseToDense-default", _to_dense_default, [(3,), (1,)]),
    GradRow("SparseToDense-graph", tf.function(_to_dense), [(3,)]),
    GradRow("SparseReorder", _reorder, [(3,)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
