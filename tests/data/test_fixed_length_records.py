"""tf.data.FixedLengthRecordDataset on files written by the test, against TensorFlow 2.21's recorded answers."""
import gzip
import os

import pytest

import eagerflow as tf

F = tf.data.FixedLengthRecordDataset
BODY9 = b"HH" + bytes(range(9)) + b"F"  # a 2-byte header, 9 body bytes, a 1-byte footer
BODY10 = b"HH" + bytes(range(10)) + b"F"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "a.bin").write_bytes(BODY10)
    (tmp_path / "b.bin").write_bytes(BODY9)
    (tmp_path / "a.gz").write_bytes(gzip.compress(BODY10))
    (tmp_path / "b.gz").write_bytes(gzip.compress(BODY9))
    (tmp_path / "short.bin").write_bytes(b"ab")
    (tmp_path / "empty.bin").write_bytes(b"")
    return str(tmp_path)


def _records(ds):
    return [bytes(r) for r in ds.as_numpy_iterator()]


def test_records_headers_footers_and_compression(folder):
    expected = [b"\x00\x01\x02", b"\x03\x04\x05", b"\x06\x07\x08"]  # TF 2.21
    assert _records(F(os.path.join(folder, "b.bin"), 3, header_bytes=2, footer_bytes=1)) == expected
    assert _records(F(os.path.join(folder, "b.gz"), 3, header_bytes=2, footer_bytes=1,
                      compression_type="GZIP")) == expected
    assert _records(F(os.path.join(folder, "a.bin"), 13)) == [BODY10]
    assert _records(F(os.path.join(folder, "empty.bin"), 4)) == []
    ds = F(os.path.join(folder, "b.bin"), 3)
    assert ds.element_spec == tf.TensorSpec([], tf.string) and int(ds.cardinality()) == -2
    two = F([os.path.join(folder, "b.bin")] * 2, 4, num_parallel_reads=2)
    assert _records(two) == [b"HH\x00\x01", b"HH\x00\x01", b"\x02\x03\x04\x05", b"\x02\x03\x04\x05",
                             b"\x06\x07\x08F", b"\x06\x07\x08F"]
    mapped = F(os.path.join(folder, "b.bin"), 3, 2, 1).map(lambda r: tf.strings.substr(r, 1, 2))
    assert _records(mapped) == [b"\x01\x02", b"\x04\x05", b"\x07\x08"]


def test_a_body_that_is_not_whole_records_is_tensorflows_error(folder):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Excluding the header \(0 bytes\) and footer \(0 bytes\), input file \".*a.bin\" has "
                             r"body length 13 bytes, which is not an exact multiple of the record length \(4 bytes\)."):
        list(F(os.path.join(folder, "a.bin"), 4))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"body length 1 bytes"):
        list(F(os.path.join(folder, "short.bin"), 4, header_bytes=1))
    with pytest.raises(tf.errors.DataLossError, match=r"\(2 bytes\) and footer \(1 bytes\).*body length 10 bytes"):
        list(F(os.path.join(folder, "a.gz"), 3, header_bytes=2, footer_bytes=1, compression_type="GZIP"))


@pytest.mark.parametrize("kwargs, words", [
    (dict(record_bytes=0), "`record_bytes` must be > 0"),
    (dict(record_bytes=-1), "`record_bytes` must be > 0"),
    (dict(record_bytes=2, header_bytes=-1), "`header_bytes` must be >= 0"),
    (dict(record_bytes=2, footer_bytes=-1), "`footer_bytes` must be >= 0"),
    (dict(record_bytes=2, buffer_size=-1), "`buffer_size` must be >= 0"),
    (dict(record_bytes=2, compression_type="BZ"), "Unsupported compression_type."),
])
def test_bad_sizes_are_refused_when_the_pass_starts(folder, kwargs, words):
    ds = F(os.path.join(folder, "a.bin"), **kwargs)  # TensorFlow builds it, then fails iterating
    with pytest.raises(tf.errors.InvalidArgumentError, match=words):
        list(ds)


def test_only_regular_files_are_opened(folder):
    with pytest.raises(tf.errors.NotFoundError, match="missing.bin; No such file or directory"):
        list(F(os.path.join(folder, "missing.bin"), 2))
    with pytest.raises(tf.errors.FailedPreconditionError, match="; Is a directory"):
        list(F(folder, 2))
    fifo = os.path.join(folder, "pipe")
    os.mkfifo(fifo)
    with pytest.raises(tf.errors.FailedPreconditionError, match="not a regular file"):
        list(F(fifo, 2))  # refused without opening it (opening a fifo would block)
    with pytest.raises(TypeError, match="must contain `tf.string` elements. Got `tf.int32` elements."):
        F(3, 2)
