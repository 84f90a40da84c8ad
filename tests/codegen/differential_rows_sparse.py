"""Differential rows (generated code == eager == reference interpreter) for the tf.sparse ops
(ops/sparse_*.py), beside test_differential.py. `rows(Row)` builds them with that test's Row class.

A row's function receives dense tensors (the harness feeds TensorSpecs); it builds the SparseTensor
inside, so each sparse op's kernel runs on the three parts in generated code too."""
import numpy as np

import eagerflow as tf

S = tf.sparse.SparseTensor
IDX = np.array([[0, 1], [1, 0], [2, 3]], np.int64)
IDX_B = np.array([[0, 1], [1, 1], [2, 0]], np.int64)
UNORDERED = np.array([[2, 3], [0, 1], [1, 0]], np.int64)
VALS = np.array([1.0, 2.0, 3.0], np.float32)
VALS_B = np.array([10.0, -20.0, 30.0], np.float32)
SHAPE = np.array([3, 4], np.int64)
DENSE = np.arange(8, dtype=np.float32).reshape(4, 2)
DATA = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)


def _grad(f):
    """The gradient of sum(f(values, *rest)) w.r.t. values: puts f's backward ops in the graph."""
    def g(v, *rest):
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = tf.reduce_sum(f(v, *rest))
        return tape.gradient(y, v)
    return g


def _pair(op):
    return lambda i, v, j, w: op(S(i, v, SHAPE), S(j, w, SHAPE))


def rows(Row):
    sp = tf.sparse
    parts = (IDX, VALS, SHAPE)
    return [
        Row("SparseToDense", lambda i, v, s: sp.to_dense(S(i, v, s), default_value=-1.0), parts),
        Row("SparseToDense", lambda i, v, s: sp.to_dense(S(i, v, s)), (UNORDERED, VALS, SHAPE),
            raises=tf.errors.InvalidArgumentError, label="unordered"),
        Row("SparseReorder", lambda i, v, s: sp.reorder(S(i, v, s)), (UNORDERED, VALS, SHAPE)),
        Row("SparseAdd", _pair(sp.add), (IDX, VALS, IDX_B, VALS_B)),
        Row("SparseAdd", _pair(sp.add), (UNORDERED, VALS, IDX_B, VALS_B), label="unordered"),
        Row("SparseAddGrad", _grad(lambda v: sp.add(S(IDX, v, SHAPE), S(IDX_B, VALS_B, SHAPE)).values), (VALS,)),
        Row("SparseTensorDenseAdd", lambda v, d: sp.add(S(IDX, v, SHAPE), d), (VALS, np.ones((3, 4), np.float32))),
        Row("SparseSparseMaximum", _pair(sp.maximum), (IDX, VALS, IDX_B, VALS_B)),
        Row("SparseSparseMinimum", _pair(sp.minimum), (IDX, VALS, IDX_B, VALS_B)),
        Row("SparseTensorDenseMatMul", lambda v, d: sp.sparse_dense_matmul(S(IDX, v, SHAPE), d), (VALS, DENSE)),
        Row("SparseTensorDenseMatMul", lambda v, d: sp.sparse_dense_matmul(S([[0, 7]], v[:1], SHAPE), d),
            (VALS, DENSE), raises=tf.errors.InvalidArgumentError, label="out-of-bounds"),
        Row("SparseSoftmax", lambda i, v, s: sp.softmax(S(i, v, s)), (UNORDERED, VALS, SHAPE)),
        Row("SparseReduceSum", lambda i, v, s: sp.reduce_sum(S(i, v, s), axis=1), parts),
        Row("SparseReduceSumSparse", lambda i, v, s: sp.reduce_sum(S(i, v, s), axis=0, output_is_sparse=True), parts),
        Row("SparseReduceMax", lambda i, v, s: sp.reduce_max(S(i, -v, s), axis=0, keepdims=True),
            parts),
        Row("SparseReduceMaxSparse", lambda i, v, s: sp.reduce_max(S(i, v, s), axis=1, output_is_sparse=True), parts),
        Row("SparseConcat", lambda i, v, s: sp.concat(1, [S(i, v, s), S(i, v * 2.0, s)]), parts),
        Row("SparseReshape", lambda i, v, s: sp.reshape(S(i, v, s), [2, -1]), parts),
        Row("SparseReshape", lambda i, v, s: sp.reshape(S(i, v, s), [5, -1]), parts,
            raises=tf.errors.InvalidArgumentError, label="bad"),
        Row("SparseSlice", lambda i, v, s: sp.slice(S(i, v, s), [1, 0], [2, 4]), parts),
        Row("SparseSliceGrad", _grad(lambda v: sp.slice(S(IDX, v, SHAPE), [1, 0], [2, 4]).values), (VALS,)),
        Row("SparseSplit", lambda i, v, s: sp.split(sp_input=S(i, v, s), num_split=2, axis=1), parts),
        Row("SparseFillEmptyRows", lambda v: sp.fill_empty_rows(S([[0, 1], [2, 3]], v[:2], [4, 4]), -1.0), (VALS,)),
        Row("SparseFillEmptyRowsGrad",
            _grad(lambda v: sp.fill_empty_rows(S([[0, 1], [2, 3]], v[:2], [4, 4]), v[2])[0].values), (VALS,)),
        Row("SparseSegmentSum", lambda d: sp.segment_sum(d, [0, 2, 1], [0, 0, 1]), (DATA,)),
        Row("SparseSegmentSum", lambda d: sp.segment_sum(d, [0, 2, 1], [1, 0, 1]), (DATA,),
            raises=tf.errors.InvalidArgumentError, label="not-increasing"),
        Row("SparseSegmentMean", lambda d: sp.segment_mean(d, [0, 2, 1], [0, 0, 2]), (DATA,)),
        Row("SparseSegmentSqrtN", lambda d: sp.segment_sqrt_n(d, [0, 2, 1], [0, 0, 1]), (DATA,)),
        Row("SparseSegmentSumWithNumSegments", lambda d: sp.segment_sum(d, [0, 2], [0, 1], num_segments=4), (DATA,)),
        Row("SparseSegmentMeanWithNumSegments", lambda d: sp.segment_mean(d, [0, 2], [0, 0], num_segments=2),
            (DATA,)),
        Row("SparseDenseCwiseMul", lambda v, d: S(IDX, v, SHAPE) * d, (VALS, np.arange(1, 5, dtype=np.float32))),
        Row("SparseDenseCwiseDiv", lambda v, d: S(IDX, v, SHAPE) / d,
            (VALS, np.arange(1, 4, dtype=np.float32).reshape(3, 1))),
        Row("ListDiff", lambda x, i: tf.sparse.mask(tf.IndexedSlices(x, i), [12, 45]).values,
            (DATA, np.array([12, 26, 37], np.int32))),
        Row("SparseSegmentSqrtNWithNumSegments", lambda d: sp.segment_sqrt_n(d, [0, 2], [1, 1], num_segments=3),
            (DATA,)),
        Row("HashedCrossStep", lambda a, b: _hashed_cross([a, b], 7),
            (np.array([b"A", b"B", b"hello"], dtype=object), np.array([1, -5, 3], np.int64))),
    ]


def _hashed_cross(features, num_buckets):
    from eagerflow._src.ops.sparse.hashed_cross import hashed_cross
    return hashed_cross(features, num_buckets)
