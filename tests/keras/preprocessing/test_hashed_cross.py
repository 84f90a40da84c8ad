"""The hashed cross of FeatureSpace's crosses (ops/strings/hashed_cross.py) against TensorFlow 2.21's
tf.sparse.cross_hashed and Keras 3.15.1's HashedCrossing on the same dense features (recorded values)."""
import numpy as np

import eagerflow as tf
from eagerflow._src.ops.strings.hashed_cross import hashed_cross

INTS_A = np.array([[1], [2], [3], [0], [-5]], np.int64)
INTS_B = np.array([[7], [7], [2], [0], [123456789]], np.int64)
WORDS = np.array([["x"], ["y"], ["z"], [""], ["hello"]], dtype=object)


def test_unbucketed_hashes_are_tensorflows():
    assert hashed_cross([INTS_A, INTS_B], 0).numpy().ravel().tolist() == [
        3664341731679759082, 1375251797817012800, 4881808579745388211, 7883058887674371304, 3332983344234527990]
    assert hashed_cross([WORDS, INTS_A], 0).numpy().ravel().tolist() == [
        4007690892585939727, 8605241000858273832, 5975912622251714002, 342200373683685600, 1643921758166575308]


def test_buckets_are_tensorflows_and_hashed_crossings():
    assert hashed_cross([INTS_A, INTS_B], 32).numpy().ravel().tolist() == [9, 31, 19, 8, 22]
    out = hashed_cross([INTS_A, INTS_B], 10)
    assert out.dtype == tf.int64 and tuple(out.shape) == (5, 1)
    assert out.numpy().ravel().tolist() == [9, 7, 1, 4, 0]
    assert hashed_cross([np.array([1, 2], np.int32), np.array([3, 4], np.int32)], 10).numpy().tolist() == [1, 7]


def test_runs_inside_a_tf_function():
    cross = tf.function(lambda a, b: hashed_cross([a, b], 32))
    assert cross(tf.constant(INTS_A), tf.constant(INTS_B)).numpy().ravel().tolist() == [9, 31, 19, 8, 22]
