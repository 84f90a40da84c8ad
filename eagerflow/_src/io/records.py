"""TFRecord framing: the container of TFRecord files and of TensorBoard's event files.

Each record is: the data's length (uint64, little-endian), a masked CRC-32C of those 8 bytes, the
data, and a masked CRC-32C of the data. Readers check both checksums. CRC-32C (Castagnoli) is not
zlib's CRC-32, so it is computed here from a 256-entry table (pure Python: about 100 ns a byte).

`records_in(stream)` reads them back with TensorFlow's errors (tf.errors.DataLossError):
"corrupted record at <offset>" for a bad checksum (offset 0 adds "(Is this even a TFRecord
file?)"), "truncated record at <offset>..." for data cut short. A header cut short is read as the
end of the file, as TensorFlow reads it.
"""
from __future__ import annotations

import struct

from ..core.errors import DataLossError

_POLY = 0x82F63B78  # CRC-32C, reflected
HEADER = 12  # length (8) + its masked CRC (4)


def _table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One TFRecord holding `data`."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc(length)) + data + struct.pack("<I", masked_crc(data))


def records_in(stream):
    """The data of each record read from a binary stream, checksums verified."""
    offset = 0
    while True:
        header = stream.read(HEADER)
        if len(header) < HEADER:
            return
        length_bytes, (length_crc,) = header[:8], struct.unpack("<I", header[8:])
        if masked_crc(length_bytes) != length_crc:
            hint = " (Is this even a TFRecord file?)" if offset == 0 else ""
            raise DataLossError(None, None, f"corrupted record at {offset}{hint}")
        (length,) = struct.unpack("<Q", length_bytes)
        data = stream.read(length)
        footer = stream.read(4)
        if len(data) < length or len(footer) < 4:
            raise DataLossError(None, None, f"truncated record at {offset}' failed with Read less bytes than requested")
        if masked_crc(data) != struct.unpack("<I", footer)[0]:
            raise DataLossError(None, None, f"corrupted record at {offset + HEADER}")
        yield data
        offset += HEADER + length + 4
