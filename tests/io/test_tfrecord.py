"""TFRecordWriter and TFRecordDataset against TensorFlow 2.21: the exact bytes TF writes and its errors."""
import gzip

import pytest

import eagerflow as tf

# TensorFlow 2.21: TFRecordWriter writing b"first", b"", b"third record" produces these bytes.
TF_BYTES = bytes.fromhex(
    "0500000000000000eab2043e666972737455ff23e5000000000000000029039807d8ea82a20c00000000000000f4c8fe0a"
    "7468697264207265636f7264cdc572f0")


def _records(ds):
    return [t.numpy() for t in ds]


def test_writer_bytes_equal_tensorflows(tmp_path):
    path = tmp_path / "r.tfrecord"
    with tf.io.TFRecordWriter(str(path)) as w:
        w.write(b"first")
        w.write("")
        w.write(b"third record")
    assert path.read_bytes() == TF_BYTES


def test_dataset_reads_tensorflows_file(tmp_path):
    path = tmp_path / "r.tfrecord"
    path.write_bytes(TF_BYTES)
    ds = tf.data.TFRecordDataset(str(path))
    assert _records(ds) == [b"first", b"", b"third record"]
    assert repr(ds) == "<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"
    assert ds.cardinality().numpy() == -2
    assert _records(tf.data.TFRecordDataset([str(path)] * 2, buffer_size=10, num_parallel_reads=2)) == [
        b"first", b"first", b"", b"", b"third record", b"third record"]


def test_compressed_round_trips(tmp_path):
    g = tmp_path / "g.tfrecord"
    w = tf.io.TFRecordWriter(str(g), options="GZIP")
    w.write("abc")
    w.flush()
    w.close()
    assert g.read_bytes()[:3] == bytes.fromhex("1f8b08")  # a gzip stream, as TensorFlow's
    framed = gzip.decompress(g.read_bytes())  # one record: length 3, its CRC, the data, its CRC
    assert len(framed) == 19 and framed[:8] == bytes.fromhex("0300000000000000") and framed[12:15] == b"abc"
    assert _records(tf.data.TFRecordDataset(str(g), compression_type="GZIP")) == [b"abc"]
    z = tmp_path / "z.tfrecord"
    with tf.io.TFRecordWriter(str(z), options=tf.io.TFRecordOptions(compression_type="ZLIB")) as w:
        w.write(b"zz")
    assert _records(tf.data.TFRecordDataset(str(z), compression_type="ZLIB")) == [b"zz"]
    with pytest.raises(tf.errors.FailedPreconditionError, match="^Writer is closed.$"):
        w.write(b"x")


def test_writer_errors(tmp_path):
    with pytest.raises(ValueError, match='^Not a valid compression_type: "LZ4"$'):
        tf.io.TFRecordWriter(str(tmp_path / "q"), options="LZ4")
    with pytest.raises(TypeError, match="write\\(\\): incompatible function arguments"):
        tf.io.TFRecordWriter(str(tmp_path / "q2")).write(3)


@pytest.mark.parametrize("damage, error, message", [
    (lambda raw: raw[:-3], tf.errors.DataLossError, "truncated record at 37' failed with Read less bytes than requested"),
    (lambda raw: raw[:14] + bytes([raw[14] ^ 1]) + raw[15:], tf.errors.DataLossError, "corrupted record at 12"),
    (lambda raw: bytes([raw[0] ^ 1]) + raw[1:], tf.errors.DataLossError,
     "corrupted record at 0 (Is this even a TFRecord file?)"),
])
def test_corrupt_files(tmp_path, damage, error, message):
    path = tmp_path / "bad.tfrecord"
    path.write_bytes(damage(TF_BYTES))
    with pytest.raises(error) as info:
        _records(tf.data.TFRecordDataset(str(path)))
    assert str(info.value) == message


def test_a_cut_header_reads_as_the_end_and_other_errors(tmp_path):
    path = tmp_path / "short.tfrecord"
    path.write_bytes(TF_BYTES[:5])
    assert _records(tf.data.TFRecordDataset(str(path))) == []
    with pytest.raises(tf.errors.NotFoundError, match="nope.tfrecord; No such file or directory"):
        _records(tf.data.TFRecordDataset(str(tmp_path / "nope.tfrecord")))
    plain = tmp_path / "r.tfrecord"
    plain.write_bytes(TF_BYTES)
    with pytest.raises(tf.errors.DataLossError, match="inflate\\(\\) failed with error -3: incorrect header check"):
        _records(tf.data.TFRecordDataset(str(plain), compression_type="GZIP"))


def test_in_tf_function(tmp_path):
    path = tmp_path / "r.tfrecord"
    path.write_bytes(TF_BYTES)
    ds = tf.data.TFRecordDataset(str(path)).map(tf.strings.length)

    @tf.function
    def total(dataset):
        n = tf.constant(0)
        for length in dataset:
            n += length
        return n

    assert total(ds).numpy() == 17
