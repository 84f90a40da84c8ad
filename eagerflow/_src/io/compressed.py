"""Reading files written with TensorFlow's compression types ("", "ZLIB", "GZIP") as plain byte streams.

One streaming inflater serves both: zlib's `wbits` picks the zlib header (15) or the gzip one (31).
Corrupt data is TensorFlow's DataLossError, "inflate() failed with error <zlib code>: <reason>".
"""
from __future__ import annotations

import io
import re
import zlib

from ..core.errors import DataLossError, InvalidArgumentError
from .gfile import os_error

_WBITS = {"ZLIB": 15, "GZIP": 31}
_CHUNK = 1 << 16


def check_compression(compression_type) -> str:
    """The compression type as TensorFlow spells it ("" for none); an unknown one is
    InvalidArgumentError("Unsupported compression_type.")."""
    kind = "" if compression_type is None else compression_type
    kind = kind.decode() if isinstance(kind, bytes) else str(kind)
    if kind not in ("", "ZLIB", "GZIP"):
        raise InvalidArgumentError(None, None, "Unsupported compression_type.")
    return kind


class _Inflating(io.RawIOBase):
    def __init__(self, raw, wbits):
        self._raw = raw
        self._inflater = zlib.decompressobj(wbits)
        self._pending = b""

    def readable(self):
        return True

    def readinto(self, buffer):
        while not self._pending:
            chunk = self._raw.read(_CHUNK)
            try:
                self._pending = self._inflater.decompress(chunk) if chunk else self._inflater.flush()
            except zlib.error as e:
                raise _data_loss(e) from None
            if not chunk:
                break
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def close(self):
        self._raw.close()
        super().close()


def _data_loss(error):
    found = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(error))
    detail = f"{found.group(1)}: {found.group(2)}" if found else str(error)
    return DataLossError(None, None, f"inflate() failed with error {detail}")


def open_for_reading(path, compression_type=""):
    """A buffered binary reader of the file's (decompressed) bytes; TensorFlow's errors when the
    file is missing or a directory."""
    kind = check_compression(compression_type)
    try:
        raw = open(path, "rb")
    except OSError as e:
        raise os_error(path, e) from None
    return raw if not kind else io.BufferedReader(_Inflating(raw, _WBITS[kind]), _CHUNK)


def compressor(compression_type):
    """A zlib compressor object writing the type's format, or None for no compression."""
    kind = check_compression(compression_type)
    return zlib.compressobj(wbits=_WBITS[kind]) if kind else None
