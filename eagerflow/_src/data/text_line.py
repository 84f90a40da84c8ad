"""`tf.data.TextLineDataset`: one tf.string scalar per line of each file.

TensorFlow's line rules, restated: a line ends at "\\n" (not included); every "\\r" in a line is
dropped (so "\\r\\n" endings read as "\\n" ones); a last line without "\\n" is still a line; an empty
file has none, and a file holding only "\\n" has one empty line. `compression_type` is None/"",
"ZLIB" or "GZIP"; `buffer_size` is accepted for compatibility (reads are buffered anyway).
"""
from __future__ import annotations

from ..io.compressed import open_for_reading
from .file_sources import FileRecordsDataset


class TextLineDataset(FileRecordsDataset):
    _name = "TextLineDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        super().__init__(filenames, num_parallel_reads)
        self._compression = compression_type

    def _records(self, path):
        with open_for_reading(path, self._compression) as f:
            for line in f:
                if line.endswith(b"\n"):
                    line = line[:-1]
                yield line.replace(b"\r", b"")
