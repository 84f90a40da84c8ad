"""tf.data.experimental's SqlDataset, dense_to_sparse_batch / Dataset.sparse_batch, the tables filled from a
dataset, parse_example_dataset, make_batched_features_dataset and to_variant / from_variant (data/sql_dataset.py,
sparse_batch.py, dataset_tables.py, example_datasets.py) against TensorFlow 2.21's recorded answers."""
import sqlite3

import numpy as np
import pytest

import eagerflow as tf

E = tf.data.experimental
Dataset = tf.data.Dataset


def _sparse(st):
    return [st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()]


@pytest.fixture
def database(tmp_path):
    path = str(tmp_path / "t.db")
    connection = sqlite3.connect(path)
    connection.execute("create table t (name text, age integer, h real, ok integer)")
    connection.executemany("insert into t values (?,?,?,?)", [("ann", 30, 1.5, 1), ("bob", 25, 1.8, 0)])
    connection.commit()
    connection.close()
    return path


def test_sql_dataset_rows_as_tensorflow(database):
    ds = E.SqlDataset("sqlite", database, "select name, age, h, ok from t order by age",
                      (tf.string, tf.int32, tf.float64, tf.bool))
    assert ds.element_spec == (tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int32),
                               tf.TensorSpec([], tf.float64), tf.TensorSpec([], tf.bool))
    rows = [tuple(v.numpy().item() if hasattr(v.numpy(), "item") else v.numpy() for v in row) for row in ds]
    assert rows == [(b"bob", 25, 1.8, False), (b"ann", 30, 1.5, True)]  # TF 2.21
    assert int(ds.cardinality()) == -2
    assert rows == [tuple(v.numpy().item() if hasattr(v.numpy(), "item") else v.numpy() for v in row) for row in ds]
    single = E.SqlDataset("sqlite", database, "select age from t", tf.int64)
    assert single.element_spec == tf.TensorSpec([], tf.int64) and [int(v) for v in single] == [30, 25]
    text_as_int = E.SqlDataset("sqlite", database, "select name from t", (tf.int32,))
    assert [int(v[0]) for v in text_as_int] == [0, 0]  # TF 2.21: SQLite reads text without digits as 0

    @tf.function
    def total(d):
        s = tf.constant(0, tf.int64)
        for age in d:
            s += age
        return s
    assert int(total(single)) == 55


def test_sql_dataset_errors_as_tensorflow(database):
    with pytest.raises(tf.errors.InvalidArgumentError, match="The database type, mysql, is not supported by "
                                                             "SqlDataset. The set of supported databases is: "
                                                             r"\{'sqlite'\}."):
        E.SqlDataset("mysql", database, "select name from t", (tf.string,))
    with pytest.raises(tf.errors.UnknownError, match="Prepare\\(\\) failed: \\[1\\] no such column: nope: select "
                                                     "nope from t"):
        list(E.SqlDataset("sqlite", database, "select nope from t", (tf.string,)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"The number of columns in query \(2\) must match the "
                                                             r"number of elements in output_types \(1\)."):
        list(E.SqlDataset("sqlite", database, "select name, age from t", (tf.string,)))


def test_dense_to_sparse_batch_as_tensorflow():
    ds = Dataset.range(1, 5).map(lambda x: tf.fill(tf.reshape(x, [1]), x))
    fixed = ds.apply(E.dense_to_sparse_batch(3, [4]))
    assert fixed.element_spec == tf.SparseTensorSpec([None, 4], tf.int64)
    assert [_sparse(b) for b in fixed] == [  # TF 2.21
        [[[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2]], [1, 2, 2, 3, 3, 3], [3, 4]],
        [[[0, 0], [0, 1], [0, 2], [0, 3]], [4, 4, 4, 4], [1, 4]]]
    assert int(fixed.cardinality()) == 2
    longest = ds.sparse_batch(3, [None])
    assert longest.element_spec == tf.SparseTensorSpec([None, None], tf.int64)
    assert [_sparse(b)[2] for b in longest] == [[3, 3], [1, 4]]  # TF 2.21: the longest of each batch
    zeros_kept = Dataset.from_tensor_slices(tf.constant([[1., 0.], [0., 2.]])).sparse_batch(2, [2])
    assert [_sparse(b)[:2] for b in zeros_kept] == [[[[0, 0], [0, 1], [1, 0], [1, 1]], [1.0, 0.0, 0.0, 2.0]]]
    with pytest.raises(tf.errors.DataLossError, match=r"Input element had shape \(\[3\]\) that is larger than the row "
                                                      r"shape \(\[2\]\)."):
        list(ds.apply(E.dense_to_sparse_batch(2, [2])))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input element had shape \(\[2\]\) that is incompatible "
                                                             r"with the row shape \(\[2,3\]\)."):
        list(Dataset.from_tensor_slices(np.arange(6).reshape(3, 2)).apply(E.dense_to_sparse_batch(2, [2, 3])))


def test_tables_from_a_dataset_as_tensorflow():
    keys = Dataset.from_tensor_slices(["a", "b", "c"])
    with_buckets = E.index_table_from_dataset(keys, num_oov_buckets=1)
    assert with_buckets.lookup(tf.constant(["b", "c", "z"])).numpy().tolist() == [1, 2, 3]  # TF 2.21
    assert int(with_buckets.size()) == 4
    three = E.index_table_from_dataset(keys, num_oov_buckets=3)  # TF 2.21: Fingerprint64 buckets after the vocabulary
    assert three.lookup(tf.constant(["b", "zebra", "x", "hello", "q"])).numpy().tolist() == [1, 5, 5, 4, 5]
    plain = E.index_table_from_dataset(keys)
    assert plain.lookup(tf.constant(["b", "z"])).numpy().tolist() == [1, -1]
    first_two = E.index_table_from_dataset(keys, vocab_size=2, default_value=-7)
    assert first_two.lookup(tf.constant(["a", "b", "c"])).numpy().tolist() == [0, 1, -7]
    pairs = Dataset.zip((Dataset.from_tensor_slices(["x", "y"]), Dataset.from_tensor_slices(np.array([10, 20]))))
    assert E.table_from_dataset(pairs, default_value=-5).lookup(tf.constant(["y", "q"])).numpy().tolist() == [20, -5]
    table = tf.lookup.StaticHashTable(E.DatasetInitializer(pairs), -1)
    assert table.lookup(tf.constant(["x", "q"])).numpy().tolist() == [10, -1]


def _examples():
    def example(i):
        return tf.train.Example(features=tf.train.Features(feature={
            "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
            "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"q%d" % i]))})).SerializeToString()
    return [example(i) for i in range(5)]


def test_parse_example_dataset_as_tensorflow():
    features = {"a": tf.io.FixedLenFeature([], tf.int64), "s": tf.io.VarLenFeature(tf.string)}
    parsed = Dataset.from_tensor_slices(_examples()).batch(2).apply(E.parse_example_dataset(features))
    assert parsed.element_spec == {"s": tf.SparseTensorSpec([None, None], tf.string),
                                   "a": tf.TensorSpec([None], tf.int64)}
    got = [(b["a"].numpy().tolist(), _sparse(b["s"])) for b in parsed]
    assert got == [([0, 1], [[[0, 0], [1, 0]], [b"q0", b"q1"], [2, 1]]),
                   ([2, 3], [[[0, 0], [1, 0]], [b"q2", b"q3"], [2, 1]]), ([4], [[[0, 0]], [b"q4"], [1, 1]])]  # TF 2.21
    with pytest.raises(TypeError, match=r"Input dataset should be a dataset of vectors of strings. Instead it is "
                                        r"`TensorSpec\(shape=\(\), dtype=tf.string, name=None\)`."):
        Dataset.from_tensor_slices(_examples()).apply(E.parse_example_dataset(features))


def test_make_batched_features_dataset_as_tensorflow(tmp_path):
    path = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for record in _examples():
            writer.write(record)
    features = {"a": tf.io.FixedLenFeature([], tf.int64), "s": tf.io.FixedLenFeature([], tf.string)}
    ds = E.make_batched_features_dataset(path, 2, features, label_key="a", num_epochs=1, shuffle=False)
    assert ds.element_spec == ({"s": tf.TensorSpec([None], tf.string)}, tf.TensorSpec([None], tf.int64))
    assert [(f["s"].numpy().tolist(), y.numpy().tolist()) for f, y in ds] == \
        [([b"q0", b"q1"], [0, 1]), ([b"q2", b"q3"], [2, 3]), ([b"q4"], [4])]  # TF 2.21
    dropped = E.make_batched_features_dataset(path, 2, {"a": features["a"]}, num_epochs=1, shuffle=False,
                                              drop_final_batch=True)
    assert dropped.element_spec == {"a": tf.TensorSpec([2], tf.int64)}
    assert [b["a"].numpy().tolist() for b in dropped] == [[0, 1], [2, 3]]
    twice = E.make_batched_features_dataset(path, 5, {"a": features["a"]}, num_epochs=2, shuffle=False)
    assert [b["a"].numpy().tolist() for b in twice] == [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]
    with pytest.raises(ValueError, match="must be one of the `features` keys"):
        E.make_batched_features_dataset(path, 2, features, label_key="b")


def test_to_variant_and_back():
    ds = Dataset.range(3)
    variant = E.to_variant(ds)
    assert variant.dtype == tf.variant and variant.shape == ()
    assert [int(v) for v in E.from_variant(variant, tf.TensorSpec([], tf.int64))] == [0, 1, 2]  # TF 2.21
    with pytest.raises(TypeError):
        E.from_variant(variant, tf.TensorSpec([], tf.int32))


def test_rejection_resample_reaches_the_target_distribution():
    skewed = Dataset.from_tensor_slices(np.array([0] * 900 + [1] * 100, np.int64)).shuffle(1000, seed=3)
    known = skewed.rejection_resample(lambda x: x, [0.5, 0.5], [0.9, 0.1], seed=1)
    # TF 2.21's element spec: (class, element)
    assert known.element_spec == (tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.int64))
    classes = np.array([int(c) for c, x in known])
    assert all(int(c) == int(x) for c, x in known)
    counts = np.bincount(classes, minlength=2)
    # every class-1 element kept (the rare class), class 0 kept 1 time in 9: about 100 each
    assert counts[1] == 100 and 60 <= counts[0] <= 140
    estimated = skewed.apply(E.rejection_resample(lambda x: tf.cast(x, tf.int32), [0.5, 0.5], seed=1))
    assert estimated.element_spec[0] == tf.TensorSpec([], tf.int32)
    counts = np.bincount([int(c) for c, _ in estimated], minlength=2)
    assert abs(counts[0] / counts.sum() - 0.5) < 0.15  # TF 2.21 kept 149 and 119 of this input
    ordered = Dataset.from_tensor_slices(np.array([0, 1] * 50, np.int64)).rejection_resample(
        lambda x: x, [0.2, 0.8], [0.5, 0.5], seed=5)
    assert [int(c) for c, _ in ordered] == [int(c) for c, _ in ordered]  # a seed repeats its draws every pass
    assert np.bincount([int(c) for c, _ in ordered], minlength=2)[1] == 50
    with pytest.raises(ValueError, match="int32 or int64 scalar"):
        skewed.rejection_resample(lambda x: tf.cast(x, tf.float32), [0.5, 0.5])
