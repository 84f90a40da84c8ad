"""tf.data.experimental.CsvDataset (data/csv_dataset.py, data/csv_parse.py) on files written by the tests,
against TensorFlow 2.21's recorded answers for the same files."""
import gzip
import zlib

import numpy as np
import pytest

import eagerflow as tf

CsvDataset = tf.data.experimental.CsvDataset


@pytest.fixture
def write(tmp_path):
    def write(text, name="f.csv"):
        path = tmp_path / name
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        return str(path)
    return write


def rows(dataset):
    return [tuple(v.item() if isinstance(v, np.generic) else v for v in row) for row in dataset.as_numpy_iterator()]


def error_of(dataset):
    with pytest.raises(tf.errors.OpError) as info:
        list(dataset)
    return type(info.value).__name__, info.value.message


def test_types_defaults_and_spec(write):
    path = write('a,b,c\n1,2.5,x\n3,,y\n5,6,"q,z"\n')
    ds = CsvDataset(path, [tf.int32, [7.5], tf.string], header=True)
    assert ds.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.string))
    assert rows(ds) == [(1, 2.5, b"x"), (3, 7.5, b"y"), (5, 6.0, b"q,z")]
    first = next(iter(ds))
    assert first[0].dtype == tf.int32 and first[1].dtype == tf.float32 and first[2].dtype == tf.string
    assert repr(CsvDataset(path, [tf.int32] * 3)).startswith("<CsvDatasetV2 element_spec=(TensorSpec(shape=(), "
                                                                "dtype=tf.int32")
    assert int(ds.cardinality()) == -2
    wide = CsvDataset(write("1\t2\n", "t.tsv"), [tf.int64, tf.float64], field_delim="\t")
    assert rows(wide) == [(1, 2.0)] and wide.element_spec[1].dtype == tf.float64
    given = CsvDataset(write("1,\n", "g.csv"), [tf.constant([1]), tf.constant([2.5], tf.float64)])
    assert rows(given) == [(1, 2.5)]


def test_record_rules_as_tensorflow(write):
    # a record ends at \n, \r or \r\n; an empty line is one empty field; the last line needs no terminator
    assert rows(CsvDataset(write("\n\n1\n\n"), [[5]])) == [(5,), (5,), (1,), (5,)]
    assert rows(CsvDataset(write("a\r\r\nb\n"), [[b"E"]])) == [(b"a",), (b"E",), (b"b",)]
    assert rows(CsvDataset(write("a,1\r\nb,2\r\n"), [tf.string, tf.int32])) == [(b"a", 1), (b"b", 2)]
    assert rows(CsvDataset(write("1,2\n3,4"), [tf.int32, tf.int32])) == [(1, 2), (3, 4)]
    assert rows(CsvDataset(write("1,\n"), [tf.int32, [7]])) == [(1, 7)]
    blanks = write(",5\n1,\n1,2\n,3\n4,,\n", "blanks.csv")  # empty fields first, last and in the middle
    assert rows(CsvDataset(blanks, [[9], [8]]).ignore_errors()) == [(9, 5), (1, 8), (1, 2), (9, 3)]
    assert rows(CsvDataset(blanks, [[9], [8], [7]]).ignore_errors()) == [(4, 8, 7)]
    assert rows(CsvDataset(write(""), [tf.int32])) == []
    assert rows(CsvDataset(write("a\n"), [tf.int32], header=True)) == []
    # quotes: delimiters and newlines inside, "" for one quote; an empty quoted field takes the default
    assert rows(CsvDataset(write('"a\nb",1\nc,2\n'), [tf.string, tf.int32])) == [(b"a\nb", 1), (b"c", 2)]
    assert rows(CsvDataset(write('"a""b",1\n'), [tf.string, tf.int32])) == [(b'a"b', 1)]
    assert rows(CsvDataset(write('"",1\n'), [[b"D"], tf.int32])) == [(b"D", 1)]
    assert rows(CsvDataset(write('"h\n1",h2\n1,2\n'), [tf.int32, tf.int32], header=True)) == [(1, 2)]
    assert rows(CsvDataset(write('"a",1\nb"c,2\n'), [tf.string, tf.int32], use_quote_delim=False)) == \
        [(b'"a"', 1), (b'b"c', 2)]
    # na_value, quoted or not, is an empty field
    assert rows(CsvDataset(write('"NA",NA\n'), [[b"d"], [b"e"]], na_value="NA")) == [(b"d", b"e")]
    assert rows(CsvDataset(write("\u00e9,1\n"), [tf.string, tf.int32])) == [(b"\xc3\xa9", 1)]


def test_numbers_as_strtol_and_strtod(write):
    assert rows(CsvDataset(write(" 1, 2.5 \n"), [tf.int32, tf.float32])) == [(1, 2.5)]
    got = rows(CsvDataset(write("inf,1e3\nnan,-0x1p3\n"), [tf.float32, tf.float64]))
    assert got[0] == (np.inf, 1000.0) and np.isnan(got[1][0]) and got[1][1] == -8.0
    assert rows(CsvDataset(write(" 1.5 ,1e500\n"), [tf.float32, tf.float32])) == [(1.5, np.inf)]
    assert error_of(CsvDataset(write("+7, -3 ,0x10\n"), [tf.int64] * 3)) == \
        ("InvalidArgumentError", "Field 2 in record is not a valid int64: 0x10")
    assert error_of(CsvDataset(write("1.0\n"), [tf.int32])) == \
        ("InvalidArgumentError", "Field 0 in record is not a valid int32: 1.0")
    assert error_of(CsvDataset(write("3000000000\n"), [tf.int32])) == \
        ("InvalidArgumentError", "Field 0 in record is not a valid int32: 3000000000")
    assert error_of(CsvDataset(write("1.5x\n"), [tf.float32])) == \
        ("InvalidArgumentError", "Field 0 in record is not a valid float: 1.5x")
    assert error_of(CsvDataset(write("abc\n"), [tf.float64])) == \
        ("InvalidArgumentError", "Field 0 in record is not a valid double: abc")


def test_select_and_exclude_columns(write):
    path = write("1,2,3\n")
    assert rows(CsvDataset(path, [tf.int32], select_cols=[1])) == [(2,)]
    assert rows(CsvDataset(path, [tf.int32, tf.int32], exclude_cols=[1])) == [(1, 3)]
    assert rows(CsvDataset(write("1,2,3,4\n", "w.csv"), [tf.int32, tf.int32], select_cols=[0, 1])) == [(1, 2)]
    assert error_of(CsvDataset(path, [tf.int32], exclude_cols=[1])) == \
        ("InvalidArgumentError", "Expect 1 fields but have more in record")
    assert error_of(CsvDataset(path, [tf.int32] * 3, exclude_cols=[1])) == \
        ("InvalidArgumentError", "Expect 3 fields but have 2 in record")
    assert error_of(CsvDataset(path, [tf.string, tf.string], select_cols=[0, 5])) == \
        ("InvalidArgumentError", "Expect 2 fields but have 1 in record")
    # an empty line reaches the selected field 0 before its count is checked
    assert error_of(CsvDataset(write("1,2,3\n\n", "e.csv"), [tf.int32, tf.int32], select_cols=[0, 2])) == \
        ("InvalidArgumentError", "Field 0 is required but missing in record!")


def test_malformed_records(write):
    ds = CsvDataset(write("1,2\n3,x\n4,5\n"), [tf.int32, tf.int32])
    it = iter(ds)
    assert [int(v) for v in next(it)] == [1, 2]  # the good records before the bad one come first
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Field 1 in record is not a valid int32: x$"):
        next(it)
    assert error_of(CsvDataset(write("1,2\n3\n"), [tf.int32, tf.int32])) == \
        ("InvalidArgumentError", "Expect 2 fields but have 1 in record")
    assert error_of(CsvDataset(write("1,2\n4,5,6\n"), [tf.int32, tf.int32])) == \
        ("InvalidArgumentError", "Expect 2 fields but have more in record")
    assert error_of(CsvDataset(write("1,\n"), [tf.int32, tf.int32])) == \
        ("InvalidArgumentError", "Field 1 is required but missing in record!")
    assert error_of(CsvDataset(write("1,NA\nNA,3\n"), [tf.int32, [9]], na_value="NA")) == \
        ("InvalidArgumentError", "Field 0 is required but missing in record!")
    assert error_of(CsvDataset(write('"a",1\nb"c,2\n'), [tf.string, tf.int32])) == \
        ("InvalidArgumentError", "Unquoted fields cannot have quotes inside")
    assert error_of(CsvDataset(write('"a"x,1\n'), [tf.string, tf.int32])) == \
        ("InvalidArgumentError", "Reached end of file without closing quoted field in record")
    assert error_of(CsvDataset(write('"abc,1\n'), [tf.string, tf.int32])) == \
        ("InvalidArgumentError", "Reached end of file without closing quoted field in record")
    # a lone \r ends a record too
    assert error_of(CsvDataset(write("a\rb,1\n"), [tf.string, tf.int32])) == \
        ("InvalidArgumentError", "Expect 2 fields but have 1 in record")
    # a numeric Python scalar equal to a dtype's code is that dtype (1: float32), so the column is required
    assert error_of(CsvDataset(write("1,\n"), [0, 1.0])) == \
        ("InvalidArgumentError", "Field 1 is required but missing in record!")
    assert rows(CsvDataset(write("1,\n"), [0, "d"])) == [(1, b"d")]


def test_ignore_errors_skips_bad_records(write):
    def kept(text, defaults):
        return rows(CsvDataset(write(text), defaults).ignore_errors())
    assert kept("1,2\n3,x\n4,5\n", [tf.int32, tf.int32]) == [(1, 2), (4, 5)]
    assert kept("1,2\n3\n4,5\nx,6\n7,8\n", [tf.int32, tf.int32]) == [(1, 2), (4, 5), (7, 8)]
    assert kept("1,2\n3,4,5\n6,7\n", [tf.int32, tf.int32]) == [(1, 2), (6, 7)]
    assert kept('1,2\na"b,4\n6,7\n', [tf.string, tf.int32]) == [(b"1", 2), (b"6", 7)]
    assert kept("1,2\n\n3,4\n", [tf.int32, tf.int32]) == [(1, 2), (3, 4)]
    assert kept('"a"x,1\n2,3\n4,5\n', [tf.string, tf.int32]) == []  # the unclosed field swallows the file


def test_compression_and_file_errors(write, tmp_path):
    gz = write(gzip.compress(b"h1,h2\n7,8\n9,10\n"), "z.csv.gz")
    got = CsvDataset(gz, [tf.int32, tf.int64], header=True, compression_type="GZIP")
    assert rows(got) == [(7, 8), (9, 10)] and got.element_spec[1].dtype == tf.int64
    assert rows(CsvDataset(write(zlib.compress(b"1,2\n"), "z.zz"), [tf.int32, tf.int32],
                           compression_type="ZLIB")) == [(1, 2)]
    assert error_of(CsvDataset(write(b"notgzip", "c.gz"), [tf.int32], compression_type="GZIP")) == \
        ("DataLossError", "inflate() failed with error -3: incorrect header check")
    assert error_of(CsvDataset(str(tmp_path / "nope.csv"), [tf.int32])) == \
        ("NotFoundError", f"{tmp_path}/nope.csv; No such file or directory")
    assert error_of(CsvDataset(str(tmp_path), [tf.int32]))[0] == "FailedPreconditionError"
    two = CsvDataset([write("1,2\n3,x\n4,5\n", "b.csv"), write("1,2\n3\n4,5,6\n", "c.csv")], [tf.string, tf.string])
    assert rows(two.ignore_errors()) == [(b"1", b"2"), (b"3", b"x"), (b"4", b"5"), (b"1", b"2")]


def test_bad_arguments(write):
    path = write("1,2,3\n")
    cases = [
        (dict(select_cols=[0, 2], exclude_cols=[1]), "Either select_cols or exclude_cols should be empty"),
        (dict(select_cols=[2, 0]), "select_cols should be strictly increasing indices"),
        (dict(select_cols=[-1, 2]), "select_cols should be non-negative indices"),
        (dict(exclude_cols=[2, 0]), "exclude_cols should be strictly increasing indices"),
        (dict(field_delim="ab"), "field_delim should be only 1 char"),
        (dict(buffer_size=0), "buffer_size should be positive"),
        (dict(compression_type="BZ"), "Unsupported compression_type: BZ."),
    ]
    for kwargs, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            CsvDataset(path, [tf.int32, tf.string], **kwargs)
        assert info.value.message == message, kwargs
    with pytest.raises(tf.errors.InvalidArgumentError, match="^select_cols should match output size$"):
        CsvDataset(path, [tf.int32], select_cols=[0, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^There should only be 1 default per field but "
                                                             "field 0 has 2$"):
        CsvDataset(path, [[1, 2]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Each record default should be at most rank 1$"):
        CsvDataset(path, [[[1]]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Value for attr 'output_types' of bool is not in "
                                                             "the list of allowed values: float, double, int32"):
        CsvDataset(path, [[True]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Length for attr 'output_types' of 0 must be"):
        CsvDataset(path, [])
    with pytest.raises(ValueError, match=r"^Attempt to convert a value \(tf.bool\) with an unsupported type"):
        CsvDataset(path, [tf.bool])
    assert rows(CsvDataset(write("1,2\n", "b.csv"), [tf.int32, tf.int32], buffer_size=1)) == [(1, 2)]


def test_batches_cut_from_columns_across_files(write):
    first = write("".join(f"{i},{i * 0.5}\n" for i in range(5)), "a.csv")
    second = write("".join(f"{i},{i * 0.5}\n" for i in range(5, 12)), "b.csv")
    batches = list(CsvDataset([first, second], [tf.int64, tf.float32]).batch(4).as_numpy_iterator())
    assert [b[0].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert batches[1][1].dtype == np.float32 and batches[1][1].tolist() == [2.0, 2.5, 3.0, 3.5]
    dropped = list(CsvDataset([first, second], [tf.int64, tf.float32]).batch(5, drop_remainder=True))
    assert [b[0].numpy().tolist() for b in dropped] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    assert CsvDataset(first, [tf.int64, tf.float32]).batch(5, drop_remainder=True).element_spec[0].shape == [5]
    strings = list(CsvDataset(write("a\nb\nc\n", "s.csv"), [tf.string]).batch(2).as_numpy_iterator())
    assert [b[0].tolist() for b in strings] == [[b"a", b"b"], [b"c"]]


def test_inside_tf_function(write):
    path = write("1,2\n3,4\n5,6\n")
    ds = CsvDataset(path, [tf.int32, tf.int32])

    @tf.function
    def total(dataset):
        s = tf.constant(0)
        for a, b in dataset:
            s += a * b
        return s
    assert int(total(ds)) == 2 + 12 + 30
