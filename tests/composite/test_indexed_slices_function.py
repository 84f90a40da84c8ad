"""tf.IndexedSlices as a tf.function argument and output (traced as an IndexedSlicesSpec), against
TensorFlow 2.21 (its specs, signatures and messages written here)."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf


def _slices(rows=1, width=2, dense=True):
    values = tf.reshape(tf.range(1.0, rows * width + 1.0), [rows, width])
    indices = tf.constant(list(range(1, rows + 1)), tf.int64)
    return tf.IndexedSlices(values, indices, tf.constant([3, width], tf.int64) if dense else None)


def test_spec_of_a_value_and_of_its_own():
    assert repr(_slices()._type_spec) == \
        "IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int64, tf.int64, TensorShape([1]))"
    assert repr(_slices(dense=False)._type_spec) == \
        "IndexedSlicesSpec(TensorShape([None, 2]), tf.float32, tf.int64, None, TensorShape([1]))"
    assert repr(tf.IndexedSlicesSpec()) == \
        "IndexedSlicesSpec(TensorShape(None), tf.float32, tf.int64, None, TensorShape([None]))"
    assert repr(tf.IndexedSlicesSpec([None, 2], tf.float32, tf.int64, tf.int64)) == \
        "IndexedSlicesSpec(TensorShape([None, 2]), tf.float32, tf.int64, tf.int64, TensorShape([None]))"
    assert tf.IndexedSlicesSpec([None, 2]) == tf.IndexedSlicesSpec([None, 2])


def test_argument_and_output_with_tensorflows_retracing():
    seen = []

    @tf.function
    def f(x):
        seen.append(x)
        return x

    out = f(_slices())
    assert isinstance(out, tf.IndexedSlices)
    assert out.values.numpy().tolist() == [[1.0, 2.0]] and out.indices.numpy().tolist() == [1]
    assert out.dense_shape.numpy().tolist() == [3, 2]
    f(_slices(rows=2))  # another number of rows: another trace, as in TensorFlow
    f(_slices(width=3))
    f(_slices(dense=False))
    f(_slices())  # seen before
    assert len(seen) == 4
    cf = f.get_concrete_function(_slices())
    assert cf.pretty_printed_signature() == (
        "Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int64, tf.int64, "
        "TensorShape([1]))\n"
        "Output Type:\n"
        "  IndexedSlicesSpec(TensorShape([None, 2]), tf.float32, tf.int64, tf.int64, TensorShape([1]))\n"
        "Captures:\n"
        "  None")
    assert [repr(t) for t in cf.inputs] == ["<tf.Tensor 'x:0' shape=(1, 2) dtype=float32>",
                                             "<tf.Tensor 'x_1:0' shape=(1,) dtype=int64>",
                                             "<tf.Tensor 'x_2:0' shape=(2,) dtype=int64>"]


def test_input_signature_and_its_error():
    g = tf.function(lambda x: x.values, input_signature=[tf.IndexedSlicesSpec([None, 2], tf.float32, tf.int64,
                                                                              tf.int64)])
    np.testing.assert_array_equal(g(_slices(rows=2)).numpy(), [[1, 2], [3, 4]])
    with pytest.raises(TypeError) as info:
        g(tf.constant([1.0]))
    assert "Binding inputs to tf.function failed due to `'EagerTensor' object has no attribute 'dense_shape'`" \
        in str(info.value)


def test_a_function_applies_the_slices_to_a_variable():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

    @tf.function
    def apply(update):
        v.scatter_sub(update)

    apply(tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1], tf.int64), tf.constant([3, 2], tf.int64)))
    assert v.numpy().tolist() == [[1.0, 2.0], [2.0, 2.0], [5.0, 6.0]]


def test_thousands_through_a_function_leave_nothing_alive():
    @tf.function
    def f(x):
        return tf.IndexedSlices(x.values * 2.0, x.indices, x.dense_shape)

    refs = []
    for i in range(1000):
        s = tf.IndexedSlices(tf.constant([[float(i), 1.0]]), tf.constant([0], tf.int64), tf.constant([2, 2], tf.int64))
        out = f(s)
        refs += [weakref.ref(s), weakref.ref(out)]
        del s, out
    gc.collect()
    assert sum(r() is not None for r in refs) == 0 and f.experimental_get_tracing_count() == 1
