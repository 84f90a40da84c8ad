"""CRC-32C of TFRecord framing: the NumPy lane paths (io/crc32c.py) against RFC 3720's test vectors,
the plain table loop, and the bytes TensorFlow 2.21's TFRecordWriter wrote for the records below;
records_in's batched verification keeps TensorFlow's errors and their order."""
import io
import struct

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.io import crc32c as C
from eagerflow._src.io.records import frame, frames, masked_crc, records_in

# RFC 3720 appendix B.4 (iSCSI CRC-32C examples), plus the common "123456789" check value
RFC_3720 = [
    (bytes(32), 0x8A9136AA),
    (b"\xff" * 32, 0x62A8AB43),
    (bytes(range(32)), 0x46DD794E),
    (bytes(range(31, -1, -1)), 0x113FDB5C),
    (b"123456789", 0xE3069283),
]

# What TensorFlow 2.21's tf.io.TFRecordWriter wrote for these records: the whole file for the first
# two, and each record's 12-byte header and 4-byte footer (masked CRC-32C of the data) for the rest.
RECORDS = [b"", b"abc", bytes(i % 251 for i in range(5000)), bytes((i * 7) % 256 for i in range(70000))]
TF_SMALL_FILE = bytes.fromhex("000000000000000029039807d8ea82a20300000000000000b099490e6162636e57f121")
TF_HEADERS = ["000000000000000029039807", "0300000000000000b099490e", "881300000000000071a71802",
              "701101000000000045f346f4"]
TF_FOOTERS = ["d8ea82a2", "6e57f121", "c5f2f7be", "48d8f214"]


@pytest.mark.parametrize("data,expected", RFC_3720)
def test_rfc_3720_vectors_on_every_path(data, expected):
    assert C.crc32c_python(data) == expected
    assert C._crc_of_long(data) == expected  # the lane split and merge tree, even on 32 bytes
    assert C.crc32c_many([data] * 9) == [expected] * 9  # a group of lanes
    assert C.crc32c(data) == expected


def test_lane_paths_agree_with_the_table_loop_for_every_length_class():
    rng = np.random.default_rng(5)
    lengths = [4, 5, 6, 7, 8, 255, 256, 1023, 2047, 2048, 2049, 4099, 65535, 65536, 65537, 300001]
    for n in lengths:
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        assert C._crc_of_long(data) == C.crc32c_python(data), n
        assert C.crc32c(data) == C.crc32c_python(data), n
    many = [rng.integers(0, 256, int(n), dtype=np.uint8).tobytes() for n in rng.integers(0, 5000, 300)]
    many += [b"", b"x", b"xy", b"xyz", bytes(70000)]
    assert C.crc32c_many(many) == [C.crc32c_python(b) for b in many]
    assert C.crc32c(bytearray(b"123456789" * 300)) == C.crc32c_python(b"123456789" * 300)


def test_framing_matches_tensorflows_bytes():
    assert frame(RECORDS[0]) + frame(RECORDS[1]) == TF_SMALL_FILE
    assert frames(RECORDS[:2]) == TF_SMALL_FILE
    written = frames(RECORDS)
    offset = 0
    for record, header, footer in zip(RECORDS, TF_HEADERS, TF_FOOTERS):
        assert written[offset:offset + 12].hex() == header
        assert written[offset + 12 + len(record):offset + 16 + len(record)].hex() == footer
        assert struct.unpack("<I", bytes.fromhex(footer))[0] == masked_crc(record)
        offset += 16 + len(record)
    assert list(records_in(io.BytesIO(written))) == RECORDS


def test_writer_and_dataset_round_trip_many_records(tmp_path):
    path = str(tmp_path / "r.tfrecord")
    rng = np.random.default_rng(2)
    records = [rng.integers(0, 256, int(n), dtype=np.uint8).tobytes() for n in rng.integers(0, 3000, 5000)]
    with tf.io.TFRecordWriter(path) as writer:
        for r in records:
            writer.write(r)
    assert [r.numpy() for r in tf.data.TFRecordDataset(path)] == records
    with open(path, "rb") as f:
        content = f.read()
    assert content == b"".join(frame(r) for r in records)  # the queue frames as one record at a time would


def test_batched_reading_yields_the_good_records_before_the_error():
    good = [bytes([i]) * 100 for i in range(10)]
    stream = bytearray(frames(good))
    bad_at = 7 * (16 + 100)
    stream[bad_at + 12 + 50] ^= 1  # record 7's data
    seen = []
    with pytest.raises(tf.errors.DataLossError, match=f"^corrupted record at {bad_at + 12}$"):
        for r in records_in(io.BytesIO(bytes(stream))):
            seen.append(r)
    assert seen == good[:7]
    cut = frames(good)[:-5]
    seen = []
    with pytest.raises(tf.errors.DataLossError, match=f"^truncated record at {9 * 116}' failed with Read less "):
        for r in records_in(io.BytesIO(cut)):
            seen.append(r)
    assert seen == good[:9]
