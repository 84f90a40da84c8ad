"""Streams (filter, from_generator, interleave, ...) iterated inside tf.function, `reduce` in a
traced function, and iterators passed into a tf.function (each call advances them). Expected
values from TensorFlow 2.21 (and the same function run eagerly)."""
import threading

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data

Dataset = data.Dataset


def _total(ds):
    s = tf.constant(0, tf.int64)
    for x in ds:
        s += x
    return s


def _types(graph):
    out = []
    for op in graph.get_operations():
        out.append(op.type)
        for value in op.attrs.values():
            sub = getattr(value, "graph", None)
            if sub is not None and hasattr(sub, "get_operations"):
                out += _types(sub)
    return out


def test_for_over_streams_in_a_traced_function():
    total = tf.function(_total)
    cases = [
        (Dataset.range(10).filter(lambda x: x % 3 == 0), 18),
        (Dataset.from_generator(lambda: iter([1, 2, 3]), output_signature=tf.TensorSpec((), tf.int64)), 6),
        (Dataset.range(1, 4).interleave(lambda x: Dataset.from_tensors(x).repeat(x), cycle_length=2), 14),
        (Dataset.range(10).filter(lambda x: x > 6).map(lambda x: x * 2).batch(2).unbatch(), 2 * (7 + 8 + 9)),
        (Dataset.range(4).concatenate(Dataset.range(3)), 6 + 3),
    ]
    for ds, expected in cases:
        assert int(total(ds)) == expected == int(_total(ds))
        assert int(total(ds)) == expected  # a fresh pass per call
    graph = total.get_concrete_function(cases[0][0]).graph
    types = _types(graph)
    assert "IteratorOpenPass" in types and "IteratorHasNext" in types and "IteratorGetNext" in types
    assert sum(t in ("While", "StatelessWhile") for t in types) == 1  # one loop, not unrolled


def test_padded_batches_and_windows_in_a_traced_function():
    @tf.function
    def sums(ds):
        s = tf.constant(0, tf.int64)
        n = tf.constant(0)
        for b in ds:
            s += tf.reduce_sum(b)
            n += tf.size(b)
        return s, n

    padded = Dataset.range(1, 5).map(lambda x: tf.range(x)).padded_batch(2)
    s, n = sums(padded)
    assert (int(s), int(n)) == (1 + 3 + 6, 4 + 8)  # padding adds zeros: 2x2 and 2x4 batches
    windows = Dataset.range(7).window(3, 1, 1, True).flat_map(lambda w: w.batch(3))
    s, n = sums(windows)
    assert (int(s), int(n)) == (3 + 6 + 9 + 12 + 15, 15)


def test_reduce_in_a_traced_function():
    @tf.function
    def fold(ds):
        return ds.reduce(np.int64(0), lambda s, x: s + x)

    assert int(fold(Dataset.range(5))) == 10
    assert int(fold(Dataset.range(10).filter(lambda x: x % 3 == 0))) == 18
    assert int(fold(Dataset.range(0))) == 0
    assert "While" in _types(fold.get_concrete_function(Dataset.range(1000)).graph) or \
        "StatelessWhile" in _types(fold.get_concrete_function(Dataset.range(1000)).graph)

    @tf.function
    def grow(n):
        return Dataset.range(n).reduce(tf.constant([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0))
    assert grow(tf.constant(4, tf.int64)).numpy().tolist() == [0, 0, 1, 2, 3]  # a state whose shape grows


def test_iterator_passed_in_advances_on_every_call():
    @tf.function
    def take_next(it):
        return next(it)

    it = iter(Dataset.range(3))
    assert [int(take_next(it)) for _ in range(3)] == [0, 1, 2]
    assert take_next.experimental_get_tracing_count() == 1
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        take_next(it)

    @tf.function
    def get_next(it):
        return it.get_next() * 10

    it2 = iter(Dataset.range(10).filter(lambda x: x % 4 == 1))
    assert [int(get_next(it2)), int(get_next(it2))] == [10, 50]
    assert int(next(it2)) == 9  # the eager side sees where the function left it
    with pytest.raises(tf.errors.OutOfRangeError):
        get_next(it2)


def test_iterator_made_inside_the_function_restarts_each_call():
    @tf.function
    def first_two():
        it = iter(Dataset.range(5))
        return next(it) + next(it)
    assert [int(first_two()), int(first_two())] == [1, 1]


def test_stream_over_the_functions_own_tensors_is_refused_clearly():
    @tf.function
    def inner(x):
        s = tf.constant(0.0)
        for v in Dataset.from_tensor_slices(x).filter(lambda v: v > 0):
            s += v
        return s
    with pytest.raises(TypeError, match="build this dataset outside the tf.function"):
        inner(tf.constant([1.0, -1.0]))


def test_stream_loop_from_many_threads():
    ds = Dataset.range(200).filter(lambda x: x % 2 == 0)
    total = tf.function(_total)
    total(ds)
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(int(total(ds)))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == [sum(range(0, 200, 2))] * 30
    assert total.experimental_get_tracing_count() == 1


def test_iterator_made_inside_the_function_over_its_own_tensors():
    @tf.function
    def first_rows(x):
        it = iter(Dataset.from_tensor_slices(x).map(lambda r: r * 2.0))
        return next(it) + next(it)
    np.testing.assert_allclose(first_rows(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).numpy(), [8.0, 12.0])

    @tf.function
    def too_far():
        it = iter(Dataset.range(1))
        return next(it) + next(it)
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        too_far()


def test_one_iterator_shared_by_threads_hands_out_each_element_once():
    it = iter(Dataset.range(300).filter(lambda x: x >= 0))
    take_next = tf.function(lambda it: next(it))
    take_next(it)
    got, errors = [], []

    def work():
        try:
            for _ in range(50):
                got.append(int(take_next(it)))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and sorted(got) == list(range(1, 201))


def test_windows_as_loop_values_are_refused_clearly():
    @tf.function
    def loop(ds):
        n = tf.constant(0)
        for w in ds:
            n += 1
        return n
    with pytest.raises(TypeError, match=r"flat_map\(lambda w: w.batch\(size\)\)"):
        loop(Dataset.range(6).window(2))


def test_errors_inside_a_stream_are_the_same_eagerly_and_traced():
    bad = Dataset.from_generator(lambda: iter([[1, 2]]), output_signature=tf.TensorSpec((3,), tf.int64))
    words = "`generator` yielded an element of shape (2,) where an element of shape (3,) was expected."

    def sums(ds):
        s = tf.constant(0, tf.int64)
        for v in ds:
            s += tf.reduce_sum(v)
        return s
    for run in (tf.function(sums), sums):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            run(bad)
        assert words in str(info.value)


def test_traced_stream_loops_and_iterators_do_not_keep_datasets_alive():
    import gc
    import weakref
    refs = []
    for _ in range(300):
        ds = Dataset.range(5).filter(lambda x: x > 2)
        it = iter(ds)
        refs += [weakref.ref(ds), weakref.ref(it)]
        assert int(tf.function(_total)(ds)) == 7
        assert int(tf.function(lambda it: next(it))(it)) == 3
        del ds, it
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_a_kept_trace_does_not_keep_its_dataset_argument_alive():
    """A stream built while tracing over a dataset argument (`ds.filter(...)` inside the function)
    holds that argument weakly: the trace cache keys traces by the dataset, held weakly, so a
    trace that held it strongly would never die (the concrete functions are kept here on purpose)."""
    import gc
    import weakref

    def filtered_total(ds):
        s = tf.constant(0, tf.int64)
        for x in ds.filter(lambda v: v > 2).map(lambda v: v * 2):
            s += x
        return s
    kept, refs = [], []
    for _ in range(100):
        ds = Dataset.range(5)
        refs.append(weakref.ref(ds))
        fn = tf.function(filtered_total)
        assert int(fn(ds)) == 14
        kept.append(fn.get_concrete_function(ds))
        del ds, fn
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def _digits(ds):
    """Each element's values folded into one number (order-sensitive)."""
    s = tf.constant(0, tf.int64)
    for e in ds:
        for v in tf.nest.flatten(e, expand_composites=True):
            s = s * 10 + tf.reduce_sum(v)
    return s


def test_every_transformation_inside_tf_function_matches_eager():
    pipelines = [
        Dataset.zip(Dataset.range(3), Dataset.range(3, 6)).enumerate(start=1),
        Dataset.from_tensor_slices(np.arange(6).reshape(3, 2)).unbatch(),
        Dataset.range(5).scan(np.int64(0), lambda s, x: (s + x, s)),
        Dataset.range(9).take_while(lambda x: x < 5),
        Dataset.from_tensor_slices(np.array([1, 3, 1, 2, 3], np.int64)).unique(),
        Dataset.range(9).shard(4, 1),
        Dataset.range(6).window(2, 2).flat_map(lambda w: w.batch(2)),
        Dataset.range(1, 4).flat_map(lambda x: Dataset.range(x)),
        Dataset.range(4).shuffle(1).padded_batch(3),
    ]
    traced = tf.function(_digits)
    for ds in pipelines:
        assert int(traced(ds)) == int(_digits(ds)), ds


def test_for_over_an_iterator_inside_tf_function_takes_what_is_left():
    @tf.function
    def rest_sum(it):
        s = tf.constant(0, tf.int64)
        for v in it:
            s += v
        return s
    for ds, first, rest in ((Dataset.range(5), 0, 10), (Dataset.range(10).filter(lambda x: x % 2 == 0), 0, 20)):
        it = iter(ds)
        assert int(next(it)) == first and int(rest_sum(it)) == rest
        assert next(it, "end") == "end"

    def made_inside(ds):
        it = iter(ds)
        first = next(it)
        s = tf.constant(0, tf.int64)
        for v in it:
            s += v
        return first, s
    traced = tf.function(made_inside)
    for ds in (Dataset.range(5), Dataset.range(6).filter(lambda x: x > 0)):
        expected = [int(t) for t in made_inside(ds)]
        assert [int(t) for t in traced(ds)] == [int(t) for t in traced(ds)] == expected
