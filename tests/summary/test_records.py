"""TFRecord framing and the messages tf.summary writes (summary/records.py, summary/messages.py), read back
with the tests' own wire reader (tests/summary/wire.py)."""
import struct

import numpy as np
import pytest

from eagerflow._src.formats.tensor_proto import shape_proto, tensor_proto
from eagerflow.summary import messages
from eagerflow.summary.records import CorruptRecordError, crc32c, frame, masked_crc, read_records

from .wire import fields, shape, signed, tensor


def test_crc32c_check_values():
    # The CRC-32C check value (RFC 3720, B.4) and the iSCSI test vector of 32 zero bytes.
    assert crc32c(b"123456789") == 0xE3069283
    assert crc32c(bytes(32)) == 0x8A9136AA
    assert crc32c(b"") == 0


def test_masked_crc_is_tensorflows_rotation_plus_constant():
    crc = crc32c(b"abc")
    assert masked_crc(b"abc") == ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def test_records_round_trip_and_bad_checksums_are_caught(tmp_path):
    path = tmp_path / "r"
    path.write_bytes(frame(b"hello") + frame(b"") + frame(bytes(range(256)) * 10))
    assert list(read_records(path)) == [b"hello", b"", bytes(range(256)) * 10]
    raw = bytearray(frame(b"hello"))
    assert struct.unpack("<Q", raw[:8])[0] == 5
    raw[14] ^= 1
    path.write_bytes(bytes(raw))
    with pytest.raises(CorruptRecordError, match="bad data checksum"):
        list(read_records(path))


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**63 - 1, -1, -(2**40)])
def test_event_steps_round_trip(value):
    assert signed(fields(messages.event(0.5, step=value)).get(2, [0])[0]) == value  # proto3 omits a zero


@pytest.mark.parametrize("array", [np.float32(0.5), np.arange(6, dtype=np.float64).reshape(2, 3),
                                   np.array([True, False]), np.zeros((0, 3), np.int64),
                                   np.array([b"a", "\u00e9".encode()], dtype=object)])
def test_tensor_protos_round_trip(array):
    array = np.asarray(array)
    back = tensor(tensor_proto(array).SerializeToString())
    assert back.shape == array.shape and back.tolist() == array.tolist()


def test_unknown_dimensions_and_rank():
    assert shape(shape_proto([None, 3, 0]).SerializeToString()) == [-1, 3, 0]
    assert shape(shape_proto(None).SerializeToString()) is None
