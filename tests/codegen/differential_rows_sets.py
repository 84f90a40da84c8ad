"""Differential rows for tf.bitcast, tf.bitwise shifts and tf.sets (ops/array/bitcast.py, ops/math/bitwise_shift.py,
ops/array/sets.py), beside
test_differential.py's table. `rows(Row)` builds them with that test's Row class."""
import numpy as np

import eagerflow as tf

A = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
B = np.array([[2, 9, 1], [4, 4, 7]], np.int32)
SP_INDICES = np.array([[0, 0], [1, 0], [1, 1]], np.int64)
SP_VALUES = np.array([2, 5, 4], np.int32)


def _sparse(values):
    return tf.sparse.SparseTensor(SP_INDICES, values, [2, 3])


def _parts(st):
    return st.indices, st.values, st.dense_shape


def rows(Row):
    S = tf.sets
    return [
        Row("Bitcast", lambda x: tf.bitcast(x, tf.uint8), (np.array([1.0, -2.5], np.float32),)),
        Row("Bitcast", lambda x: tf.bitcast(x, tf.float32), (np.array([[0, 0, 128, 63], [0, 0, 32, 193]], np.uint8),),
            label="narrow-to-wide"),
        Row("Bitcast", lambda x: tf.bitcast(x, tf.int32), (np.array([1.5, -0.0], np.float32),), label="same-size",
            dims="dynamic"),
        Row("Bitcast", lambda x: tf.bitcast(x, tf.float32), (np.array([0, 0, 128], np.uint8),),
            raises=tf.errors.InvalidArgumentError, label="bad-last-dimension", dims="dynamic"),  # (static: ValueError)
        Row("Complex", tf.complex, (np.array([[1.0], [2.0]], np.float32), np.array([3.0, -4.0], np.float32))),
        Row("Complex", tf.complex, (np.array([1.5, 2.0]), np.array([np.inf, -0.0])), label="float64", dims="dynamic"),
        Row("SpaceToBatchND", lambda x: tf.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 2]]),
            (np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3),)),
        Row("SpaceToBatchND", lambda x: tf.space_to_batch_nd(x, [3, 3], [[0, 0], [0, 0]]),
            (np.ones((1, 4, 4, 1), np.float32),), raises=tf.errors.InvalidArgumentError, label="indivisible",
            dims="dynamic"),
        Row("BatchToSpaceND", lambda x: tf.batch_to_space(x, [2], [[1, 0]]),
            (np.arange(4 * 3 * 2, dtype=np.float32).reshape(4, 3, 2),), dims="dynamic"),
        Row("EditDistance", lambda v: tf.edit_distance(tf.sparse.SparseTensor([[0, 0], [0, 1]], v[:2], [2, 2]),
                                                        tf.sparse.SparseTensor([[0, 0], [1, 0]], v[1:], [2, 1])),
            (np.array([1, 2, 3], np.int32),)),
        Row("LeftShift", tf.bitwise.left_shift, (A, np.array([[1, 40, 3], [0, 31, -2]], np.int32))),
        Row("RightShift", tf.bitwise.right_shift, (-A, np.array([[1, 40, 3], [0, 31, -2]], np.int32)), dims="dynamic"),
        Row("DenseToDenseSetOperation", lambda a, b: _parts(S.union(a, b)), (A, B)),
        Row("DenseToDenseSetOperation", lambda a, b: _parts(S.intersection(a, b)), (A, B), label="intersection",
            dims="dynamic"),
        Row("DenseToDenseSetOperation", lambda a, b: _parts(S.difference(a, b, aminusb=False)), (A, B),
            label="b-a"),
        Row("DenseToDenseSetOperation", lambda a, b: _parts(S.union(a, b)), (A, B.T.copy()),
            raises=tf.errors.InvalidArgumentError, label="mismatched"),
        Row("DenseToSparseSetOperation", lambda a, v: _parts(S.intersection(a, _sparse(v))), (A, SP_VALUES)),
        Row("DenseToSparseSetOperation", lambda a, v: _parts(S.difference(_sparse(v), a)), (A, SP_VALUES),
            label="flipped"),
        Row("SparseToSparseSetOperation", lambda v: _parts(S.union(_sparse(v), _sparse(v + 1))), (SP_VALUES,)),
        Row("SetSize", lambda v: S.size(_sparse(v)), (SP_VALUES,)),
    ]
