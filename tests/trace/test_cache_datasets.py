"""Datasets as tf.function arguments (trace/datasets.py): keyed by pipeline, their tensors and
counts fed as inputs, so pipelines differing only in data or counts share a trace (TensorFlow 2.21:
`ds.batch(3)` and `ds.batch(4)` of `ds = Dataset.range(10)` share one trace; sums 45, 45)."""
import gc
import importlib
import weakref

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.data import dataset as dataset_module
from eagerflow._src.data import shuffle
from eagerflow._src.trace import datasets


@tf.function
def total(ds):
    s = tf.constant(0, tf.int64)
    for batch in ds:
        s += tf.reduce_sum(batch)
    return s


def test_batch_sizes_and_range_bounds_share_one_trace():
    f = tf.function(total.python_function)
    ds = tf.data.Dataset.range(10)
    assert f(ds.batch(3)).numpy() == 45
    assert f(ds.batch(4)).numpy() == 45
    assert f.experimental_get_tracing_count() == 1  # TensorFlow 2.21: 1
    # Range bounds key by value here (TensorFlow shares this trace too): see trace/datasets.py.
    assert f(tf.data.Dataset.range(5).batch(3)).numpy() == 10
    assert f(tf.data.Dataset.range(5).batch(2)).numpy() == 10
    assert f.experimental_get_tracing_count() == 2
    assert f(ds.batch(3, drop_remainder=True)).numpy() == 36  # a static choice: its own trace here
    assert f(ds.batch(2, drop_remainder=True)).numpy() == 45
    assert f(ds.take(4).skip(1).repeat(2)).numpy() == 2 * (1 + 2 + 3)


def test_slices_of_any_length_share_a_trace_and_map_runs_in_it():
    @tf.function
    def weighted(ds):
        s = tf.constant(0.0)
        for x, y in ds:
            s += tf.reduce_sum(x * y)
        return s

    def slices(n):
        return tf.data.Dataset.from_tensor_slices((np.ones((n, 2), np.float32), np.arange(n, dtype=np.float32)[:, None]))

    assert weighted(slices(6)).numpy() == 30.0
    assert weighted(slices(4)).numpy() == 12.0
    assert weighted.experimental_get_tracing_count() == 1
    double = lambda x, y: (x * 2.0, y)  # noqa: E731 - one function object: one trace
    assert weighted(slices(6).map(double).take(3)).numpy() == 12.0
    assert weighted(slices(5).map(double).take(2)).numpy() == 4.0
    assert weighted.experimental_get_tracing_count() == 2


def test_every_dataset_class_is_known_or_deliberately_keyed_by_identity():
    for module in ("generator", "padded_batch", "shuffle", "transforms", "transforms_streaming",
                   "transforms_structural", "transforms_grouping", "transforms_extra", "fixed_length", "save_load",
                   "csv_dataset", "make_csv_dataset", "ragged_batch", "sparse_batch", "sql_dataset",
                   "rejection_resample"):
        importlib.import_module(f"eagerflow._src.data.{module}")  # every Dataset class defined
    classes = {c.__name__ for c in _subclasses(dataset_module.Dataset)}
    by_identity = {
        "ShuffleDataset",  # its random state is drawn when it is built: not rebuilt
        # streams: their elements come from the user's Python (predicates, generators), run at call time
        "FilterDataset", "FlatMapDataset", "InterleaveDataset", "WindowDataset", "ScanDataset",
        "TakeWhileDataset", "UniqueDataset", "PaddedBatchDataset", "GeneratorDataset",
        "GroupByWindowDataset", "_ListDataset", "RebatchDataset", "ChooseFromDatasets", "SampleFromDatasets",
        "AssertCardinalityDataset",
        # streams read from files by Python when iterated (data/file_sources.py)
        "FileRecordsDataset", "TextLineDataset", "TFRecordDataset", "CsvDataset", "CsvBatchesDataset",
        # indexable, but not (yet) rebuilt on placeholders
        "ShardDataset", "ZipDataset", "ConcatenateDataset", "UnbatchDataset",
        # streams: a seed generator's passes, errors caught per element, per-key folds, files read by Python
        "RandomDataset", "IgnoreErrorsDataset", "GroupByReducerDataset", "FixedLengthRecordDataset",
        "SavedShardDataset", "LoadedDataset", "_DatasetsDataset",
        # streams: rows turned ragged or sparse in Python, a database query, random rejection (data/)
        "DenseToRaggedDataset", "SparseBatchDataset", "SqlDataset", "RejectionResampleDataset",
    }
    assert classes - by_identity == set(datasets._ARGUMENTS), "a Dataset class the trace key does not know"
    assert shuffle.ShuffleDataset.__name__ in classes


def test_shuffled_dataset_keys_by_identity_and_is_not_kept_alive():
    refs = []
    for i in range(50):
        ds = tf.data.Dataset.range(4).shuffle(4, seed=i)
        refs.append(weakref.ref(ds))
        assert total(ds).numpy() == 6
        del ds
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_iterators_share_a_trace_and_advance_like_tensorflows():
    @tf.function
    def take(it):
        return next(it)

    ds = tf.data.Dataset.range(10)
    it = iter(ds.batch(2))
    # TensorFlow 2.21: [0 1], then [0 1] for a new iterator, [0 1 2] for batch(3): one trace
    assert take(it).numpy().tolist() == [0, 1]
    assert take(it).numpy().tolist() == [2, 3]  # the iterator moved on (main: [0 1] again)
    assert take(iter(ds.batch(2))).numpy().tolist() == [0, 1]
    assert take(iter(ds.batch(3))).numpy().tolist() == [0, 1, 2]
    assert take.experimental_get_tracing_count() == 1
    assert next(it).numpy().tolist() == [4, 5]  # eager next continues where the function left it
    assert take(it).numpy().tolist() == [6, 7]  # and the function where eager next left it
    assert take.experimental_get_tracing_count() == 1


def test_iterator_argument_in_a_loop_a_branch_and_over_a_stream():
    """An iterator argument is fed to its trace (the trace keys it by element spec): a `for` over
    what is left, a next() in one branch of a tf.cond, and a stream's iterator all advance the
    iterator that was passed, when the function runs."""
    @tf.function
    def rest(it):
        s = tf.constant(0, tf.int64)
        for x in it:
            s += x
        return s

    @tf.function
    def maybe_next(it, take):
        if take:
            return next(it)
        return tf.constant(-1, tf.int64)

    a, b = iter(tf.data.Dataset.range(5)), iter(tf.data.Dataset.range(10, 13))
    assert next(a).numpy() == 0
    assert rest(a).numpy() == 1 + 2 + 3 + 4
    assert rest(b).numpy() == 10 + 11 + 12
    assert rest.experimental_get_tracing_count() == 1
    it = iter(tf.data.Dataset.range(6).filter(lambda x: x % 2 == 1))
    assert [maybe_next(it, tf.constant(t)).numpy() for t in (True, False, True, True)] == [1, -1, 3, 5]
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        maybe_next(it, tf.constant(True))
    assert maybe_next(it, tf.constant(False)).numpy() == -1
    assert maybe_next.experimental_get_tracing_count() == 1


def test_iterator_arguments_are_not_kept_alive_by_their_trace():
    @tf.function
    def take(it):
        return next(it)

    refs = []
    for i in range(300):
        it = iter(tf.data.Dataset.range(i, i + 3).filter(lambda x: x >= 0))
        refs.append(weakref.ref(it))
        assert take(it).numpy() == i
        del it
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert take.experimental_get_tracing_count() == 1


def test_two_filter_pipelines_of_one_spec_give_each_its_own_result():
    """A stream cannot be rebuilt on placeholders (its elements come from Python run at call
    time), so each stream pipeline keys by identity: a trace made for one filter is never run for
    another dataset (TensorFlow 2.21, which feeds the dataset itself, shares one trace: 20, 18, 70, 20)."""
    evens = tf.data.Dataset.range(10).filter(lambda x: x % 2 == 0)
    threes = tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0)
    late = tf.data.Dataset.range(20).filter(lambda x: x > 15)
    assert evens.element_spec == threes.element_spec == late.element_spec
    f = tf.function(total.python_function)
    assert [f(ds).numpy() for ds in (evens, threes, late, evens)] == [20, 18, 70, 20]
    assert f.experimental_get_tracing_count() == 3  # one per pipeline; `evens` again reuses its own
    # A stream anywhere below a step the trace could rebuild keys the whole pipeline by identity.
    assert [f(ds.batch(2)).numpy() for ds in (evens, threes)] == [20, 18]
    assert [f(ds.map(lambda x: x * 2)).numpy() for ds in (evens, threes)] == [40, 36]


def test_datasets_changed_after_construction_key_by_identity():
    """`counter` is a range made endless after construction and `with_options` sets options after:
    rebuilding either from its constructor arguments would give another dataset."""
    f = tf.function(total.python_function)
    assert f(tf.data.Dataset.counter(3).take(4)).numpy() == 3 + 4 + 5 + 6
    assert f(tf.data.Dataset.counter(0, 2).take(3)).numpy() == 0 + 2 + 4
    options = tf.data.Options()
    options.deterministic = False

    @tf.function
    def deterministic(ds):
        return ds.options().deterministic
    plain = tf.data.Dataset.range(3)
    assert deterministic(plain.with_options(options)).numpy() == False  # noqa: E712 - a NumPy bool
    assert deterministic(plain) is None  # not set: TensorFlow's default, None


def test_iterator_past_its_end_raises_out_of_range():
    @tf.function
    def pair(it):
        return next(it) + next(it)

    it = iter(tf.data.Dataset.range(5))
    assert pair(it).numpy() == 1
    assert pair(it).numpy() == 5
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        pair(it)
    # The failed call's first next() took element 4 (TensorFlow 2.21: next(it) then raises StopIteration).
    with pytest.raises(StopIteration):
        next(it)


def test_a_stream_built_inside_over_a_fed_dataset_argument_reads_each_calls_dataset():
    """A pipeline argument is rebuilt on placeholders and shared between datasets; a stream the
    function builds over it (its Python runs when the function runs) reads the dataset of each
    call (before: TypeError 'FilterDataset over tensors of the function being traced'). Values:
    NumPy arithmetic; TensorFlow 2.21 gives the same sums."""
    @tf.function
    def big_total(ds):
        s = tf.constant(0.0)
        for x in ds.filter(lambda v: v > 1.0):
            s += x
        return s

    @tf.function
    def the_big_one(ds):
        return ds.filter(lambda v: v > 2).get_single_element()

    def floats(*values):
        return tf.data.Dataset.from_tensor_slices(np.array(values, np.float32))

    assert big_total(floats(1.0, 2.0, 3.0)).numpy() == 5.0
    assert big_total(floats(5.0, 0.5, 3.0, 4.0)).numpy() == 12.0
    assert big_total.experimental_get_tracing_count() == 1
    ints = [np.array(v, np.int64) for v in ([1, 7], [0, 9], [3, 2])]
    assert [the_big_one(tf.data.Dataset.from_tensor_slices(v)).numpy() for v in ints] == [7, 9, 3]
    assert the_big_one.experimental_get_tracing_count() == 1
    refs = []
    for i in range(200):
        ds = floats(float(i), float(i))
        refs.append(weakref.ref(ds))
        assert big_total(ds).numpy() == (2.0 * i if i > 1 else 0.0)
        del ds
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
