"""tf.signal.frame and overlap_and_add (ops/signal/frames.py) against TensorFlow 2.21's values,
shapes and errors, eagerly and traced."""
import numpy as np
import pytest

import eagerflow as tf

S = np.arange(10, dtype=np.float32)
FRAMES = np.arange(12, dtype=np.float32).reshape(3, 4)


def _eq(got, want):
    got = np.asarray(got)
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


def test_frame_matches_tensorflow():
    _eq(tf.signal.frame(S, 4, 3), [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9]])
    _eq(tf.signal.frame(S, 4, 3, pad_end=True, pad_value=-1), [[0, 1, 2, 3], [3, 4, 5, 6], [6, 7, 8, 9],
                                                               [9, -1, -1, -1]])
    assert tf.signal.frame(S, 12, 3).shape == [0, 12]
    padded = np.zeros((4, 12), np.float32)
    for i, start in enumerate((0, 3, 6, 9)):
        padded[i, :10 - start] = S[start:]
    _eq(tf.signal.frame(S, 12, 3, pad_end=True), padded)
    s2 = np.arange(24, dtype=np.int32).reshape(2, 6, 2)
    framed = tf.signal.frame(s2, 3, 2, axis=1)
    assert framed.dtype == tf.int32
    _eq(framed, [[[[0, 1], [2, 3], [4, 5]], [[4, 5], [6, 7], [8, 9]]],
                 [[[12, 13], [14, 15], [16, 17]], [[16, 17], [18, 19], [20, 21]]]])
    assert tf.signal.frame(s2, 2, 1, axis=-3).shape == [1, 2, 6, 2]
    assert tf.signal.frame(s2, 3, 2, axis=0, pad_end=True).shape == [1, 3, 6, 2]


def test_frame_errors_match_tensorflow():
    with pytest.raises(ValueError, match=r"Shape \(\) must have rank at least 1"):
        tf.signal.frame(tf.constant(1.0), 2, 1)
    with pytest.raises(ValueError, match=r"Shape \(1,\) must have rank 0"):
        tf.signal.frame(S, [2], 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.signal.frame(S, 2, 0)


def test_traced_frame_has_tensorflows_static_shape_and_eager_values():
    cf = tf.function(lambda v: tf.signal.frame(v, 4, 3)).get_concrete_function(tf.TensorSpec([None, 10]))
    assert cf.structured_outputs.shape.as_list() == [None, 3, 4]
    cf = tf.function(lambda v: tf.signal.frame(v, 4, 3, pad_end=True)).get_concrete_function(
        tf.TensorSpec([2, None]))
    assert cf.structured_outputs.shape.as_list() == [2, None, 4]
    x = np.arange(22, dtype=np.float32).reshape(2, 11)
    _eq(cf(tf.constant(x)), tf.signal.frame(x, 4, 3, pad_end=True))
    dynamic = tf.function(lambda v, n, s: tf.signal.frame(v, n, s, pad_end=True, pad_value=-1)).get_concrete_function(
        tf.TensorSpec([None]), tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32))
    _eq(dynamic(tf.constant(S), tf.constant(4), tf.constant(3)), tf.signal.frame(S, 4, 3, pad_end=True, pad_value=-1))
    _eq(dynamic(tf.constant(S), tf.constant(12), tf.constant(5)), tf.signal.frame(S, 12, 5, pad_end=True,
                                                                                  pad_value=-1))


def test_overlap_and_add_matches_tensorflow():
    _eq(tf.signal.overlap_and_add(FRAMES, 2), [0, 1, 6, 8, 14, 16, 10, 11])
    _eq(tf.signal.overlap_and_add(FRAMES, 4), np.arange(12))
    _eq(tf.signal.overlap_and_add(FRAMES, 5), [0, 1, 2, 3, 0, 4, 5, 6, 7, 0, 8, 9, 10, 11])
    batch = [[0, 1, 2, 7, 5, 6, 15, 9, 10, 11], [12, 13, 14, 31, 17, 18, 39, 21, 22, 23]]
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    _eq(tf.signal.overlap_and_add(x, 3), batch)
    cf = tf.function(lambda v: tf.signal.overlap_and_add(v, 3)).get_concrete_function(
        tf.TensorSpec([None, None, None]))
    _eq(cf(tf.constant(x)), batch)
    step = tf.function(lambda v, s: tf.signal.overlap_and_add(v, s)).get_concrete_function(
        tf.TensorSpec([3, 4]), tf.TensorSpec([], tf.int32))
    _eq(step(tf.constant(FRAMES), tf.constant(2)), [0, 1, 6, 8, 14, 16, 10, 11])


def test_overlap_and_add_errors_match_tensorflow():
    with pytest.raises(ValueError, match=r"Shape \(4,\) must have rank at least 2"):
        tf.signal.overlap_and_add(np.arange(4.), 2)
    with pytest.raises(ValueError, match="frame_step must be an integer. Got <dtype: 'float32'>"):
        tf.signal.overlap_and_add(FRAMES, 2.0)


def _grad(f, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        loss = tf.reduce_sum(y * tf.cast(tf.reshape(tf.range(tf.size(y)) % 3 + 1, tf.shape(y)), y.dtype))
    return tape.gradient(loss, x).numpy()


def test_gradients_match_tensorflow():
    _eq(_grad(lambda v: tf.signal.frame(v, 4, 3, pad_end=True), S), [1, 2, 3, 3, 3, 1, 5, 1, 2, 4])
    _eq(_grad(lambda v: tf.signal.overlap_and_add(v, 3), FRAMES), [[1, 2, 3, 1]] * 3)
