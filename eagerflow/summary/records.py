"""TFRecord framing for TensorBoard's event files: the code lives in eagerflow/_src/io/records.py
(which tf.io.TFRecordWriter and tf.data.TFRecordDataset use too); this keeps the summary writer's
names and its reader of whole files, whose errors name the file.

TensorBoard checks both checksums of every record and drops a record with a wrong one, so the CRC
has to be right; `read_records` checks it the same way.
"""
from __future__ import annotations

import struct

from .._src.io.records import HEADER, crc32c, frame, masked_crc  # noqa: F401 - the summary writer's names


class CorruptRecordError(ValueError):
    """A record whose length or data does not match its checksum."""


def read_records(path):
    """The data of each record in a TFRecord file, checksums verified."""
    with open(path, "rb") as f:
        while True:
            header = f.read(HEADER)
            if not header:
                return
            if len(header) < HEADER:
                raise CorruptRecordError(f"{path}: truncated record header")
            length_bytes, length_crc = header[:8], struct.unpack("<I", header[8:])[0]
            if masked_crc(length_bytes) != length_crc:
                raise CorruptRecordError(f"{path}: bad length checksum")
            (length,) = struct.unpack("<Q", length_bytes)
            data = f.read(length)
            footer = f.read(4)
            if len(data) < length or len(footer) < 4:
                raise CorruptRecordError(f"{path}: truncated record")
            if masked_crc(data) != struct.unpack("<I", footer)[0]:
                raise CorruptRecordError(f"{path}: bad data checksum")
            yield data
