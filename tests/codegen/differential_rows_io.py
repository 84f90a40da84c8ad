"""Differential rows (generated code == eager == reference interpreter) for the tf.io ops
(ops/io/files.py, ops/io/decode_csv.py, ops/io/parse_example.py), beside test_differential.py.
`rows(Row)` builds them with that test's Row class. The files they read live in a fresh
temporary directory made at import."""
import os
import tempfile

import numpy as np

import eagerflow as tf

_DIR = tempfile.mkdtemp(prefix="eagerflow-io-rows-")
_TEXT = os.path.join(_DIR, "text.txt")
with open(_TEXT, "wb") as _f:
    _f.write(b"line one\nline two\r\n")


def _s(value):
    return np.array(value.encode() if isinstance(value, str) else value, dtype=object)


def _write_then_read(path, contents):
    tf.io.write_file(path, contents)
    return tf.io.read_file(path)


def rows(Row):
    return [
        Row("ReadFile", tf.io.read_file, (_s(_TEXT),)),
        Row("ReadFile", tf.io.read_file, (_s(os.path.join(_DIR, "missing")),), raises=tf.errors.NotFoundError,
            label="missing"),
        Row("WriteFile", _write_then_read, (_s(os.path.join(_DIR, "sub", "out.bin")), _s(b"\x00written"))),
        Row("MatchingFiles", tf.io.matching_files, (_s(os.path.join(_DIR, "*.txt")),)),
    ] + _csv_rows(Row) + _example_rows(Row)


def _csv_rows(Row):
    records = np.array([b'1,"a,b",2.5', b"3,,-1e2"], dtype=object)
    return [
        Row("DecodeCSV", lambda r: tf.io.decode_csv(r, [[0], ["z"], tf.constant([], tf.float64)]), (records,)),
        Row("DecodeCSV", lambda r: tf.io.decode_csv(r, [[0], [0]]), (records,), raises=tf.errors.InvalidArgumentError,
            label="field_count"),
    ]


def _example_rows(Row):
    T = tf.train
    ex = T.Example(features=T.Features(feature={
        "n": T.Feature(int64_list=T.Int64List(value=[4, -5])), "w": T.Feature(bytes_list=T.BytesList(value=[b"a"]))}))
    batch = np.array([ex.SerializeToString(), T.Example().SerializeToString()], dtype=object)
    features = {"n": tf.io.FixedLenFeature([2], tf.int64, default_value=[0, 1]),
                "w": tf.io.FixedLenFeature([], tf.string, default_value="?"),
                "x": tf.io.FixedLenFeature([1], tf.float32, default_value=[0.5])}
    return [
        Row("ParseExampleV2", lambda s: tf.io.parse_example(s, features), (batch,)),
        Row("ParseExampleV2", lambda s: tf.io.parse_example(s, {"n": tf.io.FixedLenFeature([], tf.int64)}), (batch,),
            raises=tf.errors.InvalidArgumentError, label="wrong_count"),
    ]
