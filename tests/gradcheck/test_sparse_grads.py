"""Gradcheck rows for the tf.sparse ops (ops/sparse_*.py) against finite differences: the gradient
w.r.t. a SparseTensor's values (and a dense operand), eagerly and in a tf.function."""
import pytest

import eagerflow as tf
from tests.gradcheck.harness import GradRow, check_row

S = tf.sparse.SparseTensor
IDX = [[0, 1], [1, 0], [2, 3]]
IDX_B = [[0, 1], [1, 1], [2, 0]]
UNORDERED = [[2, 3], [0, 1], [1, 0]]


def _to_dense(v):
    return tf.sparse.to_dense(S(IDX, v, [3, 4]), default_value=tf.constant(0.5, tf.float64)) * tf.sin(v[0])


def _to_dense_default(v, d):
    return tf.sparse.to_dense(S(IDX, v, [3, 4]), default_value=d[0] * d[0])


def _reorder(v):
    return tf.sparse.reorder(S(UNORDERED, v * v, [3, 4])).values


def _matmul(v, b):
    return tf.sparse.sparse_dense_matmul(S(IDX, v, [3, 4]), b)


def _matmul_adjoint(v, b):
    return tf.sparse.sparse_dense_matmul(S(IDX, v, [3, 4]), b, adjoint_a=True, adjoint_b=True)


def _dense_matmul_sparse(v, b):
    return tf.sparse.sparse_dense_matmul(b, S(IDX, v, [3, 4]))


def _reduce_sum(v):
    return tf.concat([tf.sparse.reduce_sum(S(IDX, v * v, [3, 4]), axis=1),
                      tf.sparse.reduce_sum(S(IDX, v, [3, 4]), axis=0, keepdims=True)[0]], 0)


def _add(v, w):
    return tf.sparse.add(S(IDX, v * v, [3, 4]), S(IDX_B, w, [3, 4])).values


def _add_dense(v, d):
    return tf.sparse.add(S(IDX, v, [3, 4]), d * d)


def _maximum(v, w):
    return tf.sparse.maximum(S(IDX, v, [3, 4]), S(IDX_B, w, [3, 4])).values


def _minimum(v, w):
    return tf.sparse.minimum(S(IDX, v, [3, 4]), S(IDX_B, w, [3, 4])).values


def _softmax(v):
    return tf.sparse.softmax(S([[0, 0, 1], [0, 0, 3], [1, 1, 0], [1, 1, 2]], v, [2, 2, 4])).values


def _slice(v):
    return tf.sparse.slice(S(IDX, v * v, [3, 4]), [1, 0], [2, 4]).values


def _fill(v, d):
    return tf.sparse.fill_empty_rows(S([[0, 1], [2, 3]], v, [4, 4]), d[0])[0].values


def _segment(reduce):
    return lambda d: reduce(d * d, [0, 2, 1, 2], [0, 0, 1, 3])


def _times(v, d):
    return (S(IDX, v, [3, 4]) * (d * d)).values


def _over(v, d):
    return (S(IDX, v, [3, 4]) / (d + 3.0)).values


ROWS = [
    GradRow("SparseToDense", _to_dense, [(3,)]),
    GradRow("SparseToDense-default", _to_dense_default, [(3,), (1,)]),
    GradRow("SparseToDense-graph", tf.function(_to_dense), [(3,)]),
    GradRow("SparseReorder", _reorder, [(3,)]),
    GradRow("SparseTensorDenseMatMul", _matmul, [(3,), (4, 2)]),
    GradRow("SparseTensorDenseMatMul-adjoint", _matmul_adjoint, [(3,), (2, 3)]),
    GradRow("SparseTensorDenseMatMul-dense-sparse", _dense_matmul_sparse, [(3,), (2, 3)]),
    GradRow("SparseTensorDenseMatMul-graph", tf.function(_matmul), [(3,), (4, 2)]),
    GradRow("SparseReduceSum", _reduce_sum, [(3,)]),
    GradRow("SparseAdd", _add, [(3,), (3,)]),
    GradRow("SparseTensorDenseAdd", _add_dense, [(3,), (3, 4)]),
    GradRow("SparseSparseMaximum", _maximum, [(3,), (3,)]),
    GradRow("SparseSparseMinimum", _minimum, [(3,), (3,)]),
    GradRow("SparseDenseCwiseMul", _times, [(3,), (4,)]),
    GradRow("SparseDenseCwiseDiv", _over, [(3,), (3, 1)]),
    GradRow("SparseSoftmax", _softmax, [(4,)]),
    GradRow("SparseSoftmax-graph", tf.function(_softmax), [(4,)]),
    GradRow("SparseSlice", _slice, [(3,)]),
    GradRow("SparseFillEmptyRows", _fill, [(2,), (1,)]),
    GradRow("SparseSegmentSum", _segment(tf.sparse.segment_sum), [(3, 2)]),
    GradRow("SparseSegmentMean", _segment(tf.sparse.segment_mean), [(3, 2)]),
    GradRow("SparseSegmentSqrtN", _segment(tf.sparse.segment_sqrt_n), [(3, 2)]),
    GradRow("SparseSegmentSumWithNumSegments",
            lambda d: tf.sparse.segment_sum(d * d, [0, 2], [0, 2], num_segments=4), [(3, 2)]),
    GradRow("SparseSegmentMeanWithNumSegments",
            lambda d: tf.sparse.segment_mean(d * d, [0, 2, 0], [0, 0, 2], num_segments=4), [(3, 2)]),
    GradRow("SparseSegmentSqrtNWithNumSegments",
            lambda d: tf.sparse.segment_sqrt_n(d * d, [0, 2, 0], [0, 0, 2], num_segments=4), [(3, 2)]),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_grad(row):
    check_row(row)
