"""`tf.data.TFRecordDataset`: one tf.string scalar per record of each TFRecord file.

The records' checksums are verified (io/records.py): a corrupt or truncated file is TensorFlow's
DataLossError when the pass reaches it. `compression_type` is None/"", "ZLIB" or "GZIP";
`buffer_size` is accepted for compatibility (reads are buffered anyway).
"""
from __future__ import annotations

from ..io.compressed import open_for_reading
from ..io.records import records_in
from .file_sources import FileRecordsDataset


class TFRecordDataset(FileRecordsDataset):
    _name = "TFRecordDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(filenames, num_parallel_reads)
        self._compression = compression_type

    def _records(self, path):
        with open_for_reading(path, self._compression) as f:
            yield from records_in(f)
