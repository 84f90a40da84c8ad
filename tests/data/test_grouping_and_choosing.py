"""group_by_window, bucket_by_sequence_length, rebatch, choose_from_datasets, sample_from_datasets
and assert_cardinality against TensorFlow 2.21 (elements, specs, error classes and words written in)."""
import numpy as np
import pytest

import eagerflow as tf

D = tf.data.Dataset


def _elements(ds):
    return [tf.nest.map_structure(lambda t: np.asarray(t.numpy()).tolist(), e) for e in ds]


def test_group_by_window_flushes_full_windows_then_the_rest_by_key():
    ds = D.range(10).group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3)
    assert _elements(ds) == [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
    assert repr(ds.element_spec) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"
    assert int(ds.cardinality()) == -2
    keyed = D.range(10).group_by_window(lambda x: 3 - x % 3, lambda k, w: w.batch(5).map(lambda b: (k, b)),
                                        window_size=5)
    assert _elements(keyed) == [(1, [2, 5, 8]), (2, [1, 4, 7]), (3, [0, 3, 6, 9])]
    sized = D.range(10).group_by_window(lambda x: x % 2, lambda k, w: w.batch(4), window_size_func=lambda k: k + 2)
    assert _elements(sized) == [[0, 2], [1, 3, 5], [4, 6], [8], [7, 9]]
    tuples = D.range(6).map(lambda x: (x, tf.fill([x % 2 + 1], x))).group_by_window(
        lambda a, b: a % 3, lambda k, w: w.padded_batch(2), window_size=2)
    assert _elements(tuples) == [([0, 3], [[0, 0], [3, 3]]), ([1, 4], [[1, 1], [4, 0]]), ([2, 5], [[2, 0], [5, 5]])]


def test_group_by_window_inside_a_function():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for b in ds:
            s += tf.reduce_sum(b)
        return s
    assert int(total(D.range(10).group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3))) == 45


def test_group_by_window_errors():
    for kwargs in ({}, {"window_size": 1, "window_size_func": lambda k: k}):
        with pytest.raises(ValueError, match="Either the `window_size` argument or the `window_size_func` argument "
                                             "must be specified."):
            D.range(3).group_by_window(lambda x: x, lambda k, w: w, **kwargs)
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int64 for Tensor with dtype int32"):
        D.range(4).group_by_window(lambda x: tf.cast(x % 2, tf.int32), lambda k, w: w.batch(2), window_size=2)


def _lengths(n, length=lambda x: x % 3 + 1):
    return D.range(n).map(lambda x: tf.fill([length(x)], x))


def test_bucket_by_sequence_length_as_tensorflow():
    size = lambda x: tf.shape(x)[0]  # noqa: E731
    assert _elements(_lengths(6).bucket_by_sequence_length(size, [2, 3], [2, 2, 2])) == [
        [[0], [3]], [[1, 1], [4, 4]], [[2, 2, 2], [5, 5, 5]]]
    grow = _lengths(4, lambda x: x + 1)
    assert _elements(grow.bucket_by_sequence_length(size, [3, 5], [2, 2, 2], pad_to_bucket_boundary=True)) == [
        [[0, 0], [1, 1]], [[2, 2, 2, 0], [3, 3, 3, 3]]]
    assert _elements(grow.bucket_by_sequence_length(size, [3, 5], [2, 2, 2], padded_shapes=[6])) == [
        [[0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]], [[2, 2, 2, 0, 0, 0], [3, 3, 3, 3, 0, 0]]]
    pairs = D.range(5).map(lambda x: tf.fill([2], x))
    assert _elements(pairs.bucket_by_sequence_length(size, [3], [2, 2], drop_remainder=True)) == [
        [[0, 0], [1, 1]], [[2, 2], [3, 3]]]
    assert _elements(D.range(4).map(lambda x: tf.fill([2], x)).bucket_by_sequence_length(
        size, [3], [3, 3], no_padding=True)) == [[[0, 0], [1, 1], [2, 2]], [[3, 3]]]
    assert _elements(_lengths(3, lambda x: x + 1).bucket_by_sequence_length(
        size, [10], [2, 2], padding_values=tf.constant(-1, tf.int64))) == [[[0, -1], [1, 1]], [[2, 2, 2]]]
    spec = grow.bucket_by_sequence_length(size, [3, 5], [2, 2, 2]).element_spec
    assert repr(spec) == "TensorSpec(shape=(None, None), dtype=tf.int64, name=None)"
    via_apply = grow.apply(tf.data.experimental.bucket_by_sequence_length(size, [3, 5], [2, 2, 2]))
    assert len(_elements(via_apply)) == 2


def test_bucket_errors():
    with pytest.raises(ValueError, match=r"`len\(bucket_batch_sizes\)` must equal `len\(bucket_boundaries\) \+ 1` but "
                                         r"`len\(bucket_batch_sizes\)=1` and `len\(bucket_boundaries\)=1`\."):
        D.range(3).bucket_by_sequence_length(lambda x: 1, [3], [2])
    too_long = _lengths(5, lambda x: x + 1).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 2],
                                                                        pad_to_bucket_boundary=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"When pad_to_bucket_boundary=True, elements must have "
                                                             r"length < max\(bucket_boundaries\)\."):
        _elements(too_long)


def test_rebatch():
    assert _elements(D.range(6).batch(4).rebatch(2)) == [[0, 1], [2, 3], [4, 5]]
    assert _elements(D.range(7).batch(4).rebatch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert _elements(D.range(8).batch(4).rebatch([3, 1])) == [[0, 1, 2], [3], [4, 5, 6], [7]]
    assert repr(D.range(8).batch(4).rebatch(2).element_spec) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"
    assert repr(D.range(8).batch(4).rebatch(2, drop_remainder=True).element_spec) == \
        "TensorSpec(shape=(2,), dtype=tf.int64, name=None)"


def test_choose_from_datasets():
    letters = D.choose_from_datasets([D.from_tensors("a").repeat(), D.from_tensors("b").repeat()], D.range(2).repeat(2))
    assert _elements(letters) == [b"a", b"b", b"a", b"b"]
    picks = D.from_tensor_slices(tf.constant([0, 0, 0, 1], tf.int64))
    assert _elements(D.choose_from_datasets([D.range(2), D.range(10, 12)], picks)) == [0, 1]
    assert _elements(D.choose_from_datasets([D.range(2), D.range(10, 12)], picks, stop_on_empty_dataset=False)) == [
        0, 1, 10]
    mixed = D.choose_from_datasets([D.range(2), D.from_tensors(tf.constant([1, 2], tf.int64))], D.range(2))
    assert repr(mixed.element_spec) == "TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)"
    with pytest.raises(TypeError, match=r"Invalid `choice_dataset`\. Elements of `choice_dataset` must be scalar "
                                        r"`tf\.int64` tensors but are TensorSpec\(shape=\(\), dtype=tf\.int32"):
        D.choose_from_datasets([D.range(2)], D.range(2).map(lambda x: tf.cast(x, tf.int32)))
    with pytest.raises(TypeError, match=r"Invalid `datasets`\. `datasets` must have compatible element specs\."):
        D.choose_from_datasets([D.range(2), D.from_tensors("a")], D.range(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Selector index out of range: 3 >= 1"):
        _elements(D.choose_from_datasets([D.range(2)], D.from_tensor_slices(tf.constant([0, 3], tf.int64))))


def test_sample_from_datasets():
    assert _elements(D.sample_from_datasets([D.range(3), D.range(10, 13)], weights=[1.0, 0.0], seed=1)) == [0, 1, 2]
    both = D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1)
    assert sorted(_elements(both)) == [0, 1, 2, 10, 11, 12] and int(both.cardinality()) == -2
    assert _elements(both) == _elements(D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1))  # seeded
    stop = _elements(D.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1, stop_on_empty_dataset=True))
    assert 3 <= len(stop) < 6  # ends when the first input runs out
    with pytest.raises(ValueError, match=r"Invalid `weights`\. `weights` should have the same length as `datasets` "
                                         r"but got `len\(weights\)=1` vs\. `len\(datasets\)=2`\."):
        D.sample_from_datasets([D.range(3), D.range(10, 13)], weights=[1.0])


def test_assert_cardinality():
    checked = D.range(5).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(5))
    assert _elements(checked) == [0, 1, 2, 3, 4] and int(checked.cardinality()) == 5
    for n, words in [(3, "Input dataset was expected to contain 5 elements but contained only 3 elements."),
                     (7, "Input dataset was expected to contain 5 elements but contained at least 6 elements.")]:
        with pytest.raises(tf.errors.FailedPreconditionError, match=words):
            _elements(D.range(n).apply(tf.data.experimental.assert_cardinality(5)))
