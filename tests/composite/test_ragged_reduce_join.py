"""tf.reduce_* over RaggedTensors, tf.concat / tf.stack of RaggedTensors, tf.strings.reduce_join of a
RaggedTensor and tf.strings.unsorted_segment_join, against TensorFlow 2.21 (values and messages
written here), eagerly and inside tf.function."""
import numpy as np
import pytest

import eagerflow as tf

INT32_MIN = -2147483648


def _rt():
    return tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])


def _ri():
    return tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)


def _both(fn, *args):
    return fn(*args), tf.function(fn)(*args)


def _value(x):
    return ("R", x.to_list()) if isinstance(x, tf.RaggedTensor) else x.numpy().tolist()


@pytest.mark.parametrize("reduce,make,kwargs,want", [
    (tf.reduce_sum, _rt, {"axis": 1}, [6, 0, 9, 6]),
    (tf.reduce_sum, _rt, {"axis": 0}, [11, 7, 3]),
    (tf.reduce_sum, _rt, {}, 21),
    (tf.reduce_sum, _rt, {"keepdims": True}, [[21]]),
    (tf.reduce_sum, _rt, {"axis": 1, "keepdims": True}, [[6], [0], [9], [6]]),
    (tf.reduce_max, _rt, {"axis": 1}, [3, INT32_MIN, 5, 6]),
    (tf.reduce_min, _rt, {"axis": 0}, [1, 2, 3]),
    (tf.reduce_prod, _rt, {"axis": 1}, [6, 1, 20, 6]),
    (tf.reduce_sum, _ri, {"axis": 2}, ("R", [[3], [7, 11]])),
    (tf.reduce_sum, _ri, {"axis": -1}, ("R", [[3], [7, 11]])),
    (tf.reduce_sum, _ri, {"axis": 1}, [[1, 2], [8, 10]]),
    (tf.reduce_sum, _ri, {"axis": [1, 2]}, [3, 18]),
    (tf.reduce_sum, lambda: tf.ragged.constant([[[1, 2], [3]], [[4]]]), {"axis": 2}, ("R", [[3, 3], [4]])),
    (tf.reduce_any, lambda: tf.ragged.constant([[True, False], []]), {"axis": 1}, [True, False]),
    (tf.reduce_all, lambda: tf.ragged.constant([[True, False], []]), {"axis": 1}, [False, True]),
])
def test_reductions(reduce, make, kwargs, want):
    for got in _both(lambda r: reduce(r, **kwargs), make()):
        assert _value(got) == want


def test_mean_of_an_empty_row_is_nan():
    for got in _both(lambda r: tf.reduce_mean(r, axis=1), tf.ragged.constant([[1.0, 2.0, 3.0], [], [4.0, 5.0]])):
        np.testing.assert_array_equal(got.numpy(), [2.0, np.nan, 4.5])


def test_reduce_sum_gradient_reaches_the_values():
    values = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        sums = tf.reduce_sum(tf.RaggedTensor.from_row_splits(values, [0, 3, 3, 4]), axis=1)
        loss = tf.reduce_sum(sums * tf.constant([1.0, 10.0, 100.0]))
    np.testing.assert_array_equal(tape.gradient(loss, values).numpy(), [1, 1, 1, 100])


@pytest.mark.parametrize("join,axis,want", [
    (tf.concat, 0, [[1, 2, 3], [], [4, 5], [6], [1, 2, 3], []]),
    (tf.concat, 1, [[1, 2, 3, 1, 2, 3], [], [4, 5, 4, 5], [6, 6]]),
    (tf.stack, 0, [[[1, 2, 3], [], [4, 5], [6]], [[1, 2, 3], [], [4, 5], [6]]]),
    (tf.stack, 1, [[[1, 2, 3], [1, 2, 3]], [[], []], [[4, 5], [4, 5]], [[6], [6]]]),
])
def test_concat_and_stack(join, axis, want):
    second = (lambda r: r[:2]) if join is tf.concat and axis == 0 else (lambda r: r)
    for got in _both(lambda r: join([r, second(r)], axis=axis), _rt()):
        assert isinstance(got, tf.RaggedTensor) and got.to_list() == want
    assert join([_rt(), _rt()], axis=0).shape.as_list()[1:] == [None] * (1 if join is tf.concat else 2)


def test_concat_with_a_dense_tensor_and_errors():
    mixed = tf.concat([_rt(), tf.constant([[1], [2], [3], [4]])], axis=1)
    assert mixed.to_list() == [[1, 2, 3, 1], [2], [4, 5, 3], [6, 4]]
    with pytest.raises(ValueError) as info:
        tf.concat([tf.ragged.constant([[1]]), tf.ragged.constant([[[1]]])], axis=0)
    assert str(info.value) == "Shape (1, None, None) must have rank 2"
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.concat([tf.ragged.constant([[1]]), tf.ragged.constant([[1], [2]])], axis=1)
    assert ("Input tensors at index 0 (=x) and 1 (=y) have incompatible shapes.\nCondition x == y did not hold.\n"
            "First 1 elements of x:\n[1]\nFirst 1 elements of y:\n[2]") in str(info.value)


def test_reduce_join_of_ragged_rows():
    words = tf.ragged.constant([["a", "b"], [], ["c"]])
    for got in _both(lambda w: tf.strings.reduce_join(w, axis=1, separator="-"), words):
        assert got.numpy().tolist() == [b"a-b", b"", b"c"]
    assert tf.strings.reduce_join(words, axis=0, separator="-").numpy().tolist() == [b"a-c", b"b"]
    assert tf.strings.reduce_join(words, separator="-").numpy() == b"a-b-c"
    assert tf.strings.reduce_join(words, axis=1, keepdims=True).numpy().tolist() == [[b"ab"], [b""], [b"c"]]


def test_unsorted_segment_join():
    got = tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 3, separator="-")
    assert got.numpy().tolist() == [b"b", b"a-c", b""]
    got = tf.strings.unsorted_segment_join([["a", "b"], ["c", "d"]], [1, 1], 2)
    assert got.numpy().tolist() == [[b"", b""], [b"ac", b"bd"]] and got.shape.as_list() == [2, 2]
    for ids in ([0, 5], [0, -1]):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="segment_ids are not allowed to exceed num_segments or to have negative values."):
            tf.strings.unsorted_segment_join(["a", "b"], ids, 2)


def _a():
    return tf.ragged.constant([[[1], [2, 3]], [[4]]])


@pytest.mark.parametrize("reduce,make,axis,want", [
    (tf.reduce_sum, _a, 1, [[3, 3], [4]]),
    (tf.reduce_sum, _a, 0, [[5], [2, 3]]),
    (tf.reduce_sum, lambda: tf.ragged.constant([[[1], []], [[4]]]), 1, [[1], [4]]),
    (tf.reduce_max, lambda: tf.ragged.constant([[[1.0], [2.0, 3.0]], [], [[4.0]]]), 1, [[2.0, 3.0], [], [4.0]]),
    (tf.reduce_mean, lambda: tf.ragged.constant([[[1.0], [2.0, 3.0]], [[4.0]]]), 0, [[2.5], [2.0, 3.0]]),
])
def test_reductions_of_ragged_rank_2_over_ragged_axes(reduce, make, axis, want):
    for got in _both(lambda r: reduce(r, axis=axis), make()):
        assert isinstance(got, tf.RaggedTensor) and got.to_list() == want
    words = tf.ragged.constant([[["a"], ["b", "c"]], [["d"]]])
    assert tf.strings.reduce_join(words, axis=1, separator="+").to_list() == [[b"a+b", b"c"], [b"d"]]


def test_concat_and_stack_inside_rows():
    b = tf.ragged.constant([[[5, 6], []], [[7]]])
    for axis in (2, -1):
        for got in _both(lambda x, y: tf.concat([x, y], axis=axis), _a(), b):
            assert got.to_list() == [[[1, 5, 6], [2, 3]], [[4, 7]]] and got.shape.as_list() == [2, None, None]
    dense_inner = tf.concat([_ri(), _ri()], axis=2)
    assert dense_inner.to_list() == [[[1, 2, 1, 2]], [[3, 4, 3, 4], [5, 6, 5, 6]]]
    assert dense_inner.shape.as_list() == [2, None, 4]
    for got in _both(lambda x, y: tf.stack([x, y], axis=2), _a(), b):
        assert got.to_list() == [[[[1], [5, 6]], [[2, 3], []]], [[[4], [7]]]]
        assert got.shape.as_list() == [2, None, None, None]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.concat([_a(), tf.ragged.constant([[[5, 6]], [[7]]])], axis=2)
    assert ("Inputs must have identical ragged splits\nCondition x == y did not hold.\nIndices of first 2 different "
            "values:\n[[1]\n [2]]\nCorresponding x values:\n[2 3]\nCorresponding y values:\n[1 2]\nFirst 3 elements "
            "of x:\n[0 2 3]\nFirst 3 elements of y:\n[0 1 2]") in str(info.value)
