"""RaggedTensor.__getitem__ against TensorFlow 2.21 (its values, shapes, error classes and messages
written here), eagerly and inside tf.function."""
import numpy as np
import pytest

import eagerflow as tf

ROWS = [[1, 2, 3], [], [4, 5], [6]]


def _rt():
    return tf.ragged.constant(ROWS)


def _r2():
    return tf.ragged.constant([[[1, 2], [3]], [[4]], [], [[5, 6, 7]]])


def _ri():
    return tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)


# (make the tensor, key, expected value: a list for a Tensor, ("R", list, shape) for a RaggedTensor)
CASES = [
    (_rt, 0, [1, 2, 3]), (_rt, 1, []), (_rt, -1, [6]), (_rt, -4, [1, 2, 3]),
    (_rt, slice(1, 3), ("R", [[], [4, 5]], [2, None])),
    (_rt, slice(None, None, 2), ("R", [[1, 2, 3], [4, 5]], [2, None])),
    (_rt, slice(None, None, -1), ("R", [[6], [4, 5], [], [1, 2, 3]], [4, None])),
    (_rt, slice(5, None), ("R", [], [0, None])),
    (_rt, (slice(None), slice(1, None)), ("R", [[2, 3], [], [5], []], [4, None])),
    (_rt, (slice(None), slice(None, 2)), ("R", [[1, 2], [], [4, 5], [6]], [4, None])),
    (_rt, (slice(None), slice(-2, None)), ("R", [[2, 3], [], [4, 5], [6]], [4, None])),
    (_rt, (slice(None), slice(None, None, 2)), ("R", [[1, 3], [], [4], [6]], [4, None])),
    (_rt, (slice(None), slice(None, None, -1)), ("R", [[3, 2, 1], [], [5, 4], [6]], [4, None])),
    (_rt, (0, 1), 2), (_rt, [0, 1], 2),
    (_rt, (slice(1, None), slice(1, None)), ("R", [[], [5], []], [3, None])),
    (_rt, Ellipsis, ("R", ROWS, [4, None])), (_rt, slice(None), ("R", ROWS, [4, None])),
    (_rt, (Ellipsis, Ellipsis), ("R", ROWS, [4, None])),
    (_rt, (Ellipsis, slice(1, None)), ("R", [[2, 3], [], [5], []], [4, None])),
    (_ri, (Ellipsis, 0), ("R", [[1], [3, 5]], [2, None])),
    (_ri, (slice(None), slice(None), 1), ("R", [[2], [4, 6]], [2, None])),
    (_ri, 0, [[1, 2]]), (_ri, (1, 0), [3, 4]),
    (_r2, 0, ("R", [[1, 2], [3]], [2, None])), (_r2, -1, ("R", [[5, 6, 7]], [1, None])),
    (_r2, slice(1, None), ("R", [[[4]], [], [[5, 6, 7]]], [3, None, None])),
    (_r2, (slice(None), slice(1, None)), ("R", [[[3]], [], [], []], [4, None, None])),
    (_r2, (slice(None), slice(None), slice(None, 1)), ("R", [[[1], [3]], [[4]], [], [[5]]], [4, None, None])),
    (_r2, (0, 0), [1, 2]),
    (_rt, None, ("R", [ROWS], [1, 4, None])),
    (_rt, (slice(None), None), ("R", [[r] for r in ROWS], [4, 1, None])),
]


def _check(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tf.RaggedTensor)
        assert got.to_list() == want[1] and got.shape.as_list() == want[2]
    else:
        assert isinstance(got, tf.Tensor) and not isinstance(got, tf.RaggedTensor)
        np.testing.assert_array_equal(got.numpy(), np.array(want, np.int32))
        assert got.shape.as_list() == list(np.shape(want))


@pytest.mark.parametrize("make,key,want", CASES, ids=[f"{m.__name__}{k!r}" for m, k, _ in CASES])
def test_getitem_values_eager_and_traced(make, key, want):
    rt = make()
    _check(rt[key], want)
    _check(tf.function(lambda: rt[key])(), want)
    _check(tf.function(lambda x: x[key])(rt), want)


def test_getitem_with_a_scalar_tensor_or_numpy_integer():
    np.testing.assert_array_equal(_rt()[tf.constant(2)].numpy(), [4, 5])
    np.testing.assert_array_equal(_rt()[tf.constant(1, tf.int64)].numpy(), [])
    np.testing.assert_array_equal(_rt()[np.int64(2)].numpy(), [4, 5])


def test_iterating_rows_eagerly_and_in_a_trace():
    assert [row.numpy().tolist() for row in _rt()] == ROWS

    def total(x):
        out = tf.constant(0)
        for row in x:
            out += tf.reduce_sum(row)
        return out

    assert int(tf.function(total)(_rt())) == 21  # TensorFlow 2.21: 21 (the row count is static here)
    unknown = tf.function(total, input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    with pytest.raises(TypeError, match="Iterating over a symbolic `tf.RaggedTensor` with an unknown number of rows"):
        unknown(_rt())  # never an endless loop


def _raises(f, cls, message):
    with pytest.raises(cls) as info:
        f()
    assert message in str(info.value), str(info.value)


INNER = "Cannot index into an inner ragged dimension."
BAD_KEY = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 "
           "tensors are valid indices, got ")


@pytest.mark.parametrize("key,cls,message", [
    ((slice(None), -1), ValueError, INNER), ((slice(None), 0), ValueError, INNER),
    ((Ellipsis, 0), ValueError, INNER),
    ("a", TypeError, BAD_KEY + "'a'"), (1.5, TypeError, BAD_KEY + "1.5"),
    (tf.constant([0, 1]), TypeError,
     BAD_KEY + "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 1], dtype=int32)>"),
    ((slice(None), slice(None, None, 0)), tf.errors.InvalidArgumentError, "Requires delta != 0"),
])
def test_bad_keys_fail_alike_eagerly_and_traced(key, cls, message):
    rt = _rt()
    _raises(lambda: rt[key], cls, message)
    _raises(lambda: tf.function(lambda: rt[key])(), cls, message)
    _raises(lambda: tf.function(lambda x: x[key])(rt), cls, message)


def test_out_of_bounds_rows_as_tensorflow():
    rt = _rt()
    # eagerly: IndexError past the end (so `for row in rt` stops), the strided slice's error before the start
    _raises(lambda: rt[4], IndexError, "Row key 4 out of bounds")
    _raises(lambda: rt[-5], tf.errors.InvalidArgumentError, "slice index -1 of dimension 0 out of bounds.")
    _raises(lambda: rt[0, 5], tf.errors.InvalidArgumentError, "slice index 5 of dimension 0 out of bounds.")
    _raises(lambda: rt[1:3:0], tf.errors.InvalidArgumentError, "strides[0] must be non-zero")
    _raises(lambda: rt[0, 1, 2], tf.errors.InvalidArgumentError,
            "Index out of range using input dim 1; input has only 1 dims")
    # traced with the row count known: the shape check fails while tracing, as in TensorFlow (ValueError)
    _raises(lambda: tf.function(lambda x: x[4])(rt), ValueError, "slice index 4 of dimension 0 out of bounds.")
    _raises(lambda: tf.function(lambda x: x[-5])(rt), ValueError, "slice index -1 of dimension 0 out of bounds.")
    _raises(lambda: tf.function(lambda x: x[1:3:0])(rt), ValueError, "strides[0] must be non-zero")
    # a row's length is only known when it runs: the error comes from running the function
    _raises(lambda: tf.function(lambda x: x[0, 5])(rt), tf.errors.InvalidArgumentError,
            "slice index 5 of dimension 0 out of bounds.")


def test_getitem_gradient_flows_to_the_selected_values():
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    weights = tf.constant([[10.0, 20.0], [30.0, 40.0]])
    with tf.GradientTape() as tape:
        tape.watch(values)
        rt = tf.RaggedTensor.from_row_splits(values, [0, 3, 3, 5, 6])
        picked = rt[::2, 1:]  # rows 0 and 2 without their first value: [[2, 3], [5]]
        loss = tf.reduce_sum(picked.to_tensor() * weights)
    gradient = tape.gradient(loss, values)
    assert isinstance(gradient, tf.IndexedSlices)  # TensorFlow 2.21's type: the values are gathered
    np.testing.assert_array_equal(tf.convert_to_tensor(gradient).numpy(), [0, 10, 20, 0, 30, 0])
