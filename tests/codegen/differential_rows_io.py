"""Differential rows (generated code == eager == reference interpreter) for the tf.io ops
(ops/io_files.py, ops/decode_csv.py, ops/parse_example.py), beside test_differential.py.
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
    ]
