"""tf.data.experimental.make_csv_dataset (data/make_csv_dataset.py, data/csv_inference.py) on files written
by the tests, against TensorFlow 2.21's recorded answers: structures, inferred types, batches and the
orders a shuffle seed gives."""
import collections
import gzip

import numpy as np
import pytest

import eagerflow as tf

make_csv_dataset = tf.data.experimental.make_csv_dataset


@pytest.fixture
def files(tmp_path):
    one = tmp_path / "one.csv"
    one.write_text("id,x,name,label\n" + "".join(f"{i},{i * 0.5},s{i},{i % 3}\n" for i in range(10)))
    two = tmp_path / "two.csv"
    two.write_text("id,x,name,label\n" + "".join(f"{i},{i * 0.5},t{i},{i % 2}\n" for i in range(10, 17)))
    return str(one), str(two)


def ids(dataset, take=None, key="id"):
    out = []
    for i, batch in enumerate(dataset.as_numpy_iterator()):
        if take is not None and i >= take:
            break
        features = batch[0] if isinstance(batch, tuple) else batch
        out.append(features[key].tolist())
    return out


def test_structure_and_values(files):
    one, _ = files
    ds = make_csv_dataset(one, 4, label_name="label", shuffle=False, num_epochs=1)
    features, label = ds.element_spec
    assert isinstance(features, collections.OrderedDict) and list(features) == ["id", "x", "name"]
    assert features["id"] == tf.TensorSpec([None], tf.int32) and features["x"] == tf.TensorSpec([None], tf.float32)
    assert features["name"] == tf.TensorSpec([None], tf.string) and label == tf.TensorSpec([None], tf.int32)
    batches = list(ds.as_numpy_iterator())
    assert [b[0]["id"].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batches[0][0]["x"].tolist() == [0.0, 0.5, 1.0, 1.5] and batches[0][0]["x"].dtype == np.float32
    assert batches[2][0]["name"].tolist() == [b"s8", b"s9"] and batches[0][1].tolist() == [0, 1, 2, 0]
    assert repr(ds).startswith("<_PrefetchDataset element_spec=(OrderedDict([('id', TensorSpec(shape=(None,)")
    assert int(ds.cardinality()) == -2
    endless = make_csv_dataset(one, 4, shuffle=False, select_columns=["id"])
    assert endless.element_spec == collections.OrderedDict(id=tf.TensorSpec([4], tf.int32))
    assert int(endless.cardinality()) == -1
    assert ids(endless, take=4) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 0, 1], [2, 3, 4, 5]]


def test_files_selection_and_interleave(files, tmp_path):
    one, two = files
    glob_ds = make_csv_dataset(str(tmp_path / "*.csv"), 5, label_name="label", shuffle=False, num_epochs=1,
                               select_columns=["id", "label"])
    batches = list(glob_ds.as_numpy_iterator())
    assert [b[0]["id"].tolist() for b in batches] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14],
                                                       [15, 16]]
    assert [b[1].tolist() for b in batches] == [[0, 1, 2, 0, 1], [2, 0, 1, 2, 0], [0, 1, 0, 1, 0], [1, 0]]
    parallel = make_csv_dataset([one, two], 5, label_name="label", shuffle=False, num_epochs=1,
                                num_parallel_reads=2, select_columns=["id", "label"])
    assert ids(parallel) == [[0, 10, 1, 11, 2], [12, 3, 13, 4, 14], [5, 15, 6, 16, 7], [8, 9]]


def test_shuffle_seed_gives_tensorflows_batches(files):
    one, two = files
    tf.random.set_seed(None)
    seeded = make_csv_dataset([one, two], 5, label_name="label", shuffle_seed=42, num_epochs=2,
                              select_columns=["id", "label"])
    assert ids(seeded) == [[6, 9, 10, 4, 11], [15, 12, 2, 0, 5], [1, 16, 14, 7, 3], [8, 13, 7, 14, 0],
                           [15, 11, 9, 2, 13], [16, 10, 4, 12, 8], [3, 1, 5, 6]]
    small = make_csv_dataset([one, two], 4, label_name="label", shuffle_seed=7, shuffle_buffer_size=3,
                             num_epochs=1, select_columns=[0, 3])
    assert ids(small) == [[1, 2, 0, 3], [6, 4, 8, 5], [9, 10, 7, 12], [14, 15, 16, 11], [13]]


def test_given_names_and_defaults(files, tmp_path):
    one, _ = files
    ds = make_csv_dataset(one, 10, column_defaults=[0, 0.0, "", 0], shuffle=False, num_epochs=1)
    (batch,) = list(ds.as_numpy_iterator())
    assert batch["id"].tolist() == list(range(10)) and batch["name"][3] == b"s3"
    typed = make_csv_dataset(one, 10, column_defaults=[tf.int64, tf.float64, tf.string, tf.int32], shuffle=False,
                             num_epochs=1)
    assert [s.dtype for s in typed.element_spec.values()] == [tf.int64, tf.float64, tf.string, tf.int32]
    plain = tmp_path / "nh.csv"
    plain.write_text("1,2\n3,4\n")
    (batch,) = list(make_csv_dataset(str(plain), 2, column_names=["a", "b"], header=False, shuffle=False,
                                     num_epochs=1).as_numpy_iterator())
    assert batch["a"].tolist() == [1, 3] and batch["b"].tolist() == [2, 4]
    tsv = tmp_path / "t.tsv"
    tsv.write_text('a\tb\n1\t"x y"\n')
    (batch,) = list(make_csv_dataset(str(tsv), 1, field_delim="\t", shuffle=False, num_epochs=1).as_numpy_iterator())
    assert batch["b"].tolist() == [b"x y"]


def test_type_inference_as_tensorflow(tmp_path):
    path = tmp_path / "inf.csv"
    path.write_text("c1,c2,c3,c4,c5,c6,c7\n1,1,1,1,1,,x\n2,3000000000,2.5,1e39,NA,,1\n3,4,nan,5,6,,2\n")
    ds = make_csv_dataset(str(path), 3, shuffle=False, num_epochs=1, na_value="NA")
    assert [s.dtype for s in ds.element_spec.values()] == [tf.int32, tf.int64, tf.string, tf.float64, tf.int32,
                                                           tf.string, tf.string]
    (batch,) = list(ds.as_numpy_iterator())
    assert batch["c2"].tolist() == [1, 3000000000, 4] and batch["c3"].tolist() == [b"1", b"2.5", b"nan"]
    assert batch["c4"].tolist() == [1.0, 1e39, 5.0] and batch["c5"].tolist() == [1, 0, 6]
    assert batch["c6"].tolist() == [b"", b"", b""] and batch["c7"].tolist() == [b"x", b"1", b"2"]
    one_row = make_csv_dataset(str(path), 3, shuffle=False, num_epochs=1, na_value="NA", num_rows_for_inference=1)
    assert [s.dtype for s in one_row.element_spec.values()] == [tf.int32] * 5 + [tf.string] * 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Field 1 in record is not a valid int32: 3000000000$"):
        list(one_row)
    more = tmp_path / "inf2.csv"
    more.write_text("a,b,c,d,e\n inf,1_0, 7 ,0x10,1e400\n")
    assert [s.dtype for s in make_csv_dataset(str(more), 1, num_epochs=1).element_spec.values()] == \
        [tf.string, tf.int32, tf.int32, tf.string, tf.string]
    bad = tmp_path / "inf3.csv"
    bad.write_text("a,b\n1,2\n3\n")
    with pytest.raises(ValueError, match="^Problem inferring types: CSV row 3 has 1 number of fields. Expected: 2.$"):
        make_csv_dataset(str(bad), 1)


def test_gzip_ignore_errors_and_malformed(tmp_path):
    gz = tmp_path / "g.csv.gz"
    gz.write_bytes(gzip.compress(b"a,b\n1,x\n2,y\n"))
    (batch,) = list(make_csv_dataset(str(gz), 2, compression_type="GZIP", shuffle=False,
                                     num_epochs=1).as_numpy_iterator())
    assert batch["a"].tolist() == [1, 2] and batch["b"].tolist() == [b"x", b"y"]
    zl = make_csv_dataset(str(gz), 2, compression_type="ZLIB", column_names=["a", "b"], column_defaults=[0, ""])
    assert zl.element_spec["a"] == tf.TensorSpec([2], tf.int32)
    broken = tmp_path / "ig.csv"
    broken.write_text("a,b\n1,2\n3\nx,4\n5,6\n")
    (batch,) = list(make_csv_dataset(str(broken), 5, column_defaults=[0, 0], ignore_errors=True, shuffle=False,
                                     num_epochs=1).as_numpy_iterator())
    assert batch["a"].tolist() == [1, 5] and batch["b"].tolist() == [2, 6]
    it = iter(make_csv_dataset(str(broken), 1, column_defaults=[0, 0], shuffle=False, num_epochs=1))
    assert int(next(it)["a"][0]) == 1  # the batch before the bad record comes out first
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Expect 2 fields but have 1 in record$"):
        next(it)


def test_bad_arguments_as_tensorflow(files, tmp_path):
    one, _ = files
    (tmp_path / "dup.csv").write_text("a,a\n1,2\n")
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "other.csv").write_text("a,b,c,d\n1,2,3,4\n")
    (tmp_path / "nh.csv").write_text("1,2\n")
    cases = [
        (lambda: make_csv_dataset(str(tmp_path / "nh.csv"), 2, header=False),
         "Expected `column_names` or `header` arguments. Neither is provided."),
        (lambda: make_csv_dataset(str(tmp_path / "dup.csv"), 2),
         "Either `column_names` argument or CSV header row contains duplicate column names: {'a'}."),
        (lambda: make_csv_dataset(one, 2, label_name="zzz"),
         "`label_name` provided must be one of the columns: ['id', 'x', 'name', 'label']. Received: zzz."),
        (lambda: make_csv_dataset(one, 2, select_columns=["zzz"]),
         "Column zzz specified in `select_columns` must be of one of the columns: "
         "dict_keys(['id', 'x', 'name', 'label'])."),
        (lambda: make_csv_dataset(one, 2, select_columns=[9]),
         "Column index 9 specified in `select_columns` should be > 0  and <= 4, which is the number of columns."),
        (lambda: make_csv_dataset(one, 2, select_columns=["id", "id"]),
         "The `select_columns` argument contains duplicate columns: set()."),
        (lambda: make_csv_dataset(one, 2, select_columns=["id"], column_defaults=[0, 0]),
         "If specified, `column_defaults` and `select_columns` must have the same length: `column_defaults` has "
         "length 2, `select_columns` has length 1."),
        (lambda: make_csv_dataset(str(tmp_path / "nomatch*.csv"), 2),
         f"No files match `file_pattern` {tmp_path}/nomatch*.csv."),
        (lambda: make_csv_dataset([], 2), "Argument `file_pattern` should not be empty."),
        (lambda: make_csv_dataset(str(tmp_path / "empty.csv"), 2),
         f"Failed when reading the header line of {tmp_path}/empty.csv. Is it an empty file?"),
        (lambda: make_csv_dataset([one, str(tmp_path / "other.csv")], 2),
         "All input CSV files should have the same column names in the header row. File "
         f"{tmp_path}/other.csv has different column names."),
        (lambda: make_csv_dataset(one, 2, compression_type="ZLIB"),
         "`compression_type` ZLIB is not supported for probing columns."),
        (lambda: make_csv_dataset(one, 2, compression_type="BZ"),
         "Received unknown `compression_type` BZ. Expected: GZIP, ZLIB or  (empty string)."),
    ]
    for make, message in cases:
        with pytest.raises(ValueError) as info:
            make()
        assert str(info.value) == message
