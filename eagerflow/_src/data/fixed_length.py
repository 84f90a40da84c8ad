"""`tf.data.FixedLengthRecordDataset`: each file cut into records of `record_bytes` bytes.

A file is `header_bytes`, then the body, then `footer_bytes`; the body must be a whole number of
records (else TensorFlow's InvalidArgumentError, DataLossError for a compressed file, naming the
body length), an empty body gives no record. Bad sizes are refused when a pass starts, as TensorFlow's
kernel refuses them ("`record_bytes` must be > 0", ...). Only regular files are opened (a directory is
TensorFlow's FailedPreconditionError, a fifo or device the same), so a pass never blocks on a pipe.
An uncompressed body is read a block of records at a time; a compressed one is inflated as a stream
and cut the same way, the last `footer_bytes` held back until the end shows they are the footer.
"""
from __future__ import annotations

import os
import stat

from ..core.errors import DataLossError, FailedPreconditionError, InvalidArgumentError
from ..io.compressed import check_compression, open_for_reading
from ..io.gfile import os_error
from .file_sources import FileRecordsDataset

_BLOCK = 1 << 20


def _size_argument(value, default):
    if value is None:
        return default
    return int(value.numpy()) if hasattr(value, "numpy") else int(value)


class FixedLengthRecordDataset(FileRecordsDataset):
    _name = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None, name=None):
        super().__init__(filenames, num_parallel_reads)
        self._record = _size_argument(record_bytes, 0)
        self._header = _size_argument(header_bytes, 0)
        self._footer = _size_argument(footer_bytes, 0)
        self._buffer = _size_argument(buffer_size, 0)
        self._compression = compression_type

    def _stream(self):
        for what, value, least in (("record_bytes", self._record, 1), ("header_bytes", self._header, 0),
                                   ("footer_bytes", self._footer, 0), ("buffer_size", self._buffer, 0)):
            if value < least:
                raise InvalidArgumentError(None, None, f"`{what}` must be {'> 0' if least else '>= 0'}")
        check_compression(self._compression)
        yield from super()._stream()

    def _records(self, path):
        _regular_file(path)
        if check_compression(self._compression):
            yield from self._inflated_records(path)
            return
        body = os.path.getsize(path) - self._header - self._footer
        if body % self._record:
            raise InvalidArgumentError(None, None, self._not_whole(path, body))
        count = max(body, 0) // self._record
        with open_for_reading(path) as f:
            f.seek(self._header)
            per_block = max(1, _BLOCK // self._record)
            for first in range(0, count, per_block):
                n = min(per_block, count - first)
                block = f.read(n * self._record)
                for k in range(n):
                    yield block[k * self._record:(k + 1) * self._record]

    def _inflated_records(self, path):
        """Decompressed bytes cut into records; the tail that may be the footer is held back."""
        size, seen, pending = self._record, 0, b""
        with open_for_reading(path, self._compression) as f:
            skipped = f.read(self._header)
            seen += len(skipped)
            while True:
                chunk = f.read(_BLOCK)
                if not chunk:
                    break
                seen += len(chunk)
                pending += chunk
                usable = (len(pending) - self._footer) // size * size
                if usable > 0:
                    for k in range(0, usable, size):
                        yield pending[k:k + size]
                    pending = pending[usable:]
        body = seen - self._header - self._footer
        if len(pending) != self._footer:
            raise DataLossError(None, None, self._not_whole(path, body))

    def _not_whole(self, path, body):
        return (f"Excluding the header ({self._header} bytes) and footer ({self._footer} bytes), input file "
                f"\"{path}\" has body length {body} bytes, which is not an exact multiple of the record length "
                f"({self._record} bytes).")


def _regular_file(path):
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise os_error(path, e) from None
    if stat.S_ISDIR(mode):
        raise FailedPreconditionError(None, None, f"{path}; Is a directory")
    if not stat.S_ISREG(mode):
        raise FailedPreconditionError(None, None, f"{path}; not a regular file")
