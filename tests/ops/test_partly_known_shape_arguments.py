"""Shape arguments that mix Python ints and integer tensors, and shape tensors known only in part
while tracing. Expected values and static shapes recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import eagerflow as tf


def test_python_ints_beside_an_int64_scalar_pack_as_int64():
    n = tf.constant(3, tf.int64)
    for packed, want in [(tf.stack([2, n]), [2, 3]), (tf.stack([n, 2]), [3, 2])]:
        assert packed.dtype == tf.int64 and packed.numpy().tolist() == want
    assert tf.reshape(tf.range(6), [2, n]).shape == (2, 3)
    assert tf.reshape(tf.range(6), [2, n]).dtype == tf.int32
    assert tf.zeros([2, n]).numpy().tolist() == [[0.0] * 3] * 2
    assert tf.fill([2, n], 1.0).numpy().tolist() == [[1.0] * 3] * 2
    assert tf.ones([n, 2]).shape == (3, 2)


def test_int32_and_int64_tensors_still_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor but is a int64 tensor"):
        tf.stack([tf.constant(2), tf.constant(3, tf.int64)])


def _traced_shapes(build, spec):
    seen = []

    @tf.function
    def f(x):
        seen.extend(tuple(t.shape.as_list()) for t in build(x))
        return x

    f.get_concrete_function(tf.TensorSpec(spec))
    return seen


def _reshapes(x):
    return [tf.reshape(x, [tf.shape(x)[0], 4, -1]), tf.reshape(x, [-1, 4, tf.shape(x)[1] // 4]),
            tf.reshape(x, tf.stack([tf.shape(x)[0], 2, -1])), tf.reshape(x, [tf.shape(x)[0], -1]),
            tf.reshape(x, [tf.shape(x)[0], tf.shape(x)[1], 1]),
            tf.reshape(x, [tf.shape(x, out_type=tf.int64)[0], 4, -1]),
            tf.reshape(x, tf.concat([tf.shape(x)[:1], [2, 4]], 0)),
            tf.reshape(x, [tf.shape(x, out_type=tf.int64)[1], -1])]


@pytest.mark.parametrize("spec, want", [
    ([None, 8], [(None, 4, None), (None, 4, 2), (None, 2, None), (None, None), (None, 8, 1), (None, 4, None),
                 (None, 2, 4), (8, None)]),
    ([None, None], [(None, 4, None), (None, 4, None), (None, 2, None), (None, None), (None, None, 1),
                    (None, 4, None), (None, 2, 4), (None, None)]),
])
def test_reshape_keeps_the_static_sizes_of_a_partly_known_shape(spec, want):
    assert _traced_shapes(_reshapes, spec) == want


def test_fill_zeros_ones_keep_static_sizes():
    got = _traced_shapes(lambda x: [tf.zeros([tf.shape(x)[0], 4]), tf.fill([tf.shape(x)[1], tf.shape(x)[0]], 1.0),
                                    tf.ones(tf.shape(x))], [None, 8])
    assert got == [(None, 4), (8, None), (None, 8)]


def test_get_static_value_of_a_slice_of_a_partly_known_shape_stays_none():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.get_static_value(tf.shape(x)[1]))
        return x

    f.get_concrete_function(tf.TensorSpec([None, 8]))
    assert seen == [None]


def test_reshape_with_partly_known_shape_runs():
    f = tf.function(lambda x: tf.reshape(x, [tf.shape(x)[0], 4, -1]))
    out = f(tf.constant(np.arange(16.0).reshape(2, 8)))
    assert out.shape == (2, 4, 2) and out.numpy()[1, 3].tolist() == [14.0, 15.0]
