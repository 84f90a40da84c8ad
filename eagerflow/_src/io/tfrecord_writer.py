"""`tf.io.TFRecordWriter` and `tf.io.TFRecordOptions`: records framed (io/records.py) into a file,
optionally compressed as ZLIB or GZIP, which TFRecordDataset and TensorFlow read back.

The records go to a temporary file beside the target, renamed over it by `close()` (io/atomic.py's
`atomic_file`), so a writer that fails or is interrupted leaves a file that was there before as it
was; unlike TensorFlow's writer, which truncates the file when it is made, the new records show only
once the writer is closed. `flush()` pushes the compressed stream so far to the temporary file, and a
closed writer refuses writes with FailedPreconditionError("Writer is closed.").
Records wait in a small queue (up to 4 MB / 4096 records) and are framed together, so their
checksums are computed many at a time (io/crc32c.py); flush() and close() write the queue out.
"""
from __future__ import annotations

import contextlib
import zlib

from ..core.errors import FailedPreconditionError
from .atomic import atomic_file
from .compressed import compressor
from .gfile import os_error
from .records import frames

_QUEUE_BYTES = 4 << 20
_QUEUE_RECORDS = 4096

_KINDS = {None: "", "": "", "ZLIB": "ZLIB", "GZIP": "GZIP"}


class TFRecordOptions:
    """Options of a TFRecordWriter: the compression type ("", "ZLIB" or "GZIP") and level."""

    compression_type_map = {"ZLIB": "ZLIB", "GZIP": "GZIP", "": ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        self.compression_type = _compression(compression_type)
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options):
        if options is None or isinstance(options, str):
            return _compression(options)
        return options.compression_type


def _compression(kind):
    if isinstance(kind, TFRecordOptions):
        return kind.compression_type
    if kind not in _KINDS:
        raise ValueError(f'Not a valid compression_type: "{kind}"')
    return _KINDS[kind]


class TFRecordWriter:
    """Writes records to a TFRecord file; a context manager that closes it."""

    def __init__(self, path, options=None):
        self._path = str(path)
        kind = _compression(options)
        self._compressor = compressor(kind)
        if self._compressor is not None and isinstance(options, TFRecordOptions) and options.compression_level:
            self._compressor = zlib.compressobj(level=options.compression_level, wbits=31 if kind == "GZIP" else 15)
        self._queue, self._queued_bytes = [], 0
        self._placing = contextlib.ExitStack()  # the open atomic_file: closing it puts the file in place
        try:
            self._file = self._placing.enter_context(atomic_file(self._path))
        except OSError as e:
            raise os_error(self._path, e) from None

    def write(self, record):
        if isinstance(record, str):
            record = record.encode("utf-8")
        if not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError(f"write(): incompatible function arguments: record must be bytes or str, got "
                            f"{type(record).__name__}")
        if self._file is None:
            raise FailedPreconditionError(None, None, "Writer is closed.")
        self._queue.append(bytes(record))
        self._queued_bytes += len(record)
        if len(self._queue) >= _QUEUE_RECORDS or self._queued_bytes >= _QUEUE_BYTES:
            self._guarded(self._write_queue)

    def _guarded(self, write):
        """Runs a write; if it fails (a full disk, an interrupt), the temporary file goes and the writer closes."""
        try:
            write()
        except BaseException as exc:
            self._file = None
            self._placing.__exit__(type(exc), exc, exc.__traceback__)  # atomic_file removes the temporary
            raise

    def _write_queue(self):
        if self._queue:
            data = frames(self._queue)
            self._queue, self._queued_bytes = [], 0
            self._file.write(self._compressor.compress(data) if self._compressor is not None else data)

    def flush(self):
        if self._file is None:
            raise FailedPreconditionError(None, None, "Writer is closed.")
        self._guarded(self._flush_now)

    def _flush_now(self):
        self._write_queue()
        if self._compressor is not None:
            self._file.write(self._compressor.flush(zlib.Z_SYNC_FLUSH))
        self._file.flush()

    def close(self):
        """Writes what is queued and puts the file in place (a failure removes the temporary file)."""
        if self._file is None:
            return
        self._guarded(self._finish)

    def _finish(self):
        self._write_queue()
        if self._compressor is not None:
            self._file.write(self._compressor.flush())
        self._file = None
        self._placing.close()  # flushed, fsynced and renamed into place

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_file", None) is not None:
            self.close()
