"""`tf.data.TFRecordDataset`: one tf.string scalar per record of each TFRecord file.

The records' checksums are verified (io/records.py): a corrupt or truncated file is TensorFlow's
DataLossError when the pass reaches it. `compression_type` is None/"", "ZLIB" or "GZIP";
`buffer_size` is accepted for compatibility (reads are buffered anyway).
"""
from __future__ import annotations

import os

from ..io.compressed import check_compression, open_for_reading
from ..io.records import records_in
from .file_sources import FileRecordsDataset


class TFRecordDataset(FileRecordsDataset):
    _name = "TFRecordDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(filenames, num_parallel_reads)
        self._compression = compression_type

    def _records(self, path):
        with open_for_reading(path, self._compression) as f:
            yield from records_in(f, (path, _most_bytes(path, check_compression(self._compression))))


# Deflate (ZLIB and GZIP) expands at most about 1032-fold; the bound lets a record header that claims
# more than the file could hold be refused before anything is allocated for it.
_DEFLATE_MOST_RATIO = 1032


def _most_bytes(path, compression):
    """The most bytes the file can give once decompressed."""
    size = os.path.getsize(path)
    return size if not compression else size * _DEFLATE_MOST_RATIO + 64
