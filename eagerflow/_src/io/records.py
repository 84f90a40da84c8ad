"""TFRecord framing: the container of TFRecord files and of TensorBoard's event files.

Each record is: the data's length (uint64, little-endian), a masked CRC-32C of those 8 bytes, the
data, and a masked CRC-32C of the data. Readers check both checksums. CRC-32C (Castagnoli) is not
zlib's CRC-32; io/crc32c.py computes it with NumPy, many bytes per Python step, which pays off
for long buffers and for many records at once: `frames` frames a batch of records, and
`records_in` verifies the data checksums of a batch of records (up to 4 MB) together, yielding
them in order and raising where the first bad one is, as a record-at-a-time reader would.

`records_in(stream)` reads them back with TensorFlow's errors (tf.errors.DataLossError):
"corrupted record at <offset>" for a bad checksum (offset 0 adds "(Is this even a TFRecord
file?)"), "truncated record at <offset>..." for data cut short. A header cut short is read as the
end of the file, as TensorFlow reads it.
"""
from __future__ import annotations

import struct

from ..core.errors import DataLossError


# io/crc32c.py (its tables and NumPy code) loads on the first record written or read, not at
# `import eagerflow` (tf.summary imports this module).
def crc32c(data):  # the summary writer's name
    from .crc32c import crc32c as compute
    return compute(data)


def crc32c_many(buffers):
    from .crc32c import crc32c_many as compute
    return compute(buffers)


def crc32c_python(data):
    from .crc32c import crc32c_python as compute
    return compute(data)

HEADER = 12  # length (8) + its masked CRC (4)
_BATCH_BYTES = 4 << 20
_BATCH_RECORDS = 4096


def _mask(crc: int) -> int:
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    return _mask(crc32c(data))


def frame(data: bytes) -> bytes:
    """One TFRecord holding `data`."""
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked_crc(length)) + data + struct.pack("<I", masked_crc(data))


def frames(records) -> bytes:
    """The TFRecords holding each of `records` (bytes), checksummed together."""
    records = list(records)
    lengths = [struct.pack("<Q", len(data)) for data in records]
    length_crcs = crc32c_many(lengths)
    data_crcs = crc32c_many(records)
    parts = []
    for length, length_crc, data, data_crc in zip(lengths, length_crcs, records, data_crcs):
        parts += (length, struct.pack("<I", _mask(length_crc)), data, struct.pack("<I", _mask(data_crc)))
    return b"".join(parts)


def _implausible_length(offset, length, source):
    """DataLossError naming the file when a record's header claims more bytes than the stream can
    still hold (`source` is (file name, most bytes the stream can give), or None when unknown):
    raised before anything is allocated for the record, not NumPy's or Python's MemoryError."""
    if source is None:
        return None
    path, limit = source
    left = max(limit - offset - HEADER, 0)
    if length <= left:  # a footer cut short is the usual truncated record, in TensorFlow's words
        return None
    return DataLossError(None, None, f"truncated record at {offset}' failed with Read less bytes than requested: "
                                     f"its header claims {length} bytes, {path} can hold at most {left} more")


def _read_batch(stream, offset, source=None):
    """Up to a batch of records read from `stream` at `offset`: ([(offset, data, stored data CRC)],
    the error that stopped the batch or None, whether the stream ended)."""
    batch, size = [], 0
    while len(batch) < _BATCH_RECORDS and size < _BATCH_BYTES:
        header = stream.read(HEADER)
        if len(header) < HEADER:
            return batch, None, True
        length_bytes, (length_crc,) = header[:8], struct.unpack("<I", header[8:])
        if _mask(crc32c_python(length_bytes)) != length_crc:  # checked before trusting the length
            hint = " (Is this even a TFRecord file?)" if offset == 0 else ""
            return batch, DataLossError(None, None, f"corrupted record at {offset}{hint}"), True
        (length,) = struct.unpack("<Q", length_bytes)
        error = _implausible_length(offset, length, source)
        if error is not None:
            return batch, error, True
        data = stream.read(length)
        footer = stream.read(4)
        if len(data) < length or len(footer) < 4:
            return batch, DataLossError(None, None, f"truncated record at {offset}' failed with Read less bytes "
                                                    f"than requested"), True
        batch.append((offset, data, struct.unpack("<I", footer)[0]))
        size += length
        offset += HEADER + length + 4
    return batch, None, False


def records_in(stream, source=None):
    """The data of each record read from a binary stream, checksums verified. `source`, when known, is
    (file name, most bytes the stream can give): a length past it is DataLossError naming the file."""
    offset = 0
    while True:
        batch, error, ended = _read_batch(stream, offset, source)
        crcs = crc32c_many([data for _, data, _ in batch])
        for (start, data, stored), crc in zip(batch, crcs):
            if _mask(crc) != stored:
                raise DataLossError(None, None, f"corrupted record at {start + HEADER}")
            yield data
        if error is not None:
            raise error
        if ended:
            return
        offset = batch[-1][0] + HEADER + len(batch[-1][1]) + 4
