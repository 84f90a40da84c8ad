"""`tf.data.experimental.CsvDataset`: one tuple of scalars per CSV record of each file.

`record_defaults` holds, per output column, a dtype (float32, float64, int32, int64, string: the column
is then required) or a default value (a scalar or a one-element list/tensor; an empty one is required
too). As in TensorFlow a bare Python number equal to one of those dtypes' enum codes (1 float32,
2 float64, 3 int32, 7 string, 9 int64) is taken as that dtype. The record rules are csv_parse.py's.

Each file is read and parsed whole when a pass reaches it (bulk: csv_parse.py), then its rows are
handed out; a malformed record raises when the pass reaches it, after the good records before it.
A `batch` above this dataset takes whole slices of the parsed columns (`_batches`), not one row
at a time. The dataset is a stream (file_sources.py); its cardinality is UNKNOWN, as TensorFlow's.
"""
from __future__ import annotations

import copy

import numpy as np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import Tensor, TensorSpec, make_eager
from ..io.compressed import check_compression, open_for_reading
from .csv_parse import CsvFormat, parse
from .file_sources import FileRecordsDataset

_TYPES = (_dt.float32, _dt.float64, _dt.int32, _dt.int64, _dt.string)
_ENUM_CODES = {1: _dt.float32, 2: _dt.float64, 3: _dt.int32, 7: _dt.string, 9: _dt.int64}


def _err(message):
    return InvalidArgumentError(None, None, message)


def record_default(value, index=0):
    """(dtype, default or None) of one entry of `record_defaults`."""
    if isinstance(value, _dt.DType) or (isinstance(value, type) and issubclass(value, np.generic)):
        dtype = _dt.as_dtype(value)
        if dtype not in _TYPES:
            raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                             f"(<class '{type(value).__module__}.{type(value).__name__}'>) to a Tensor.")
        return dtype, None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value in _ENUM_CODES:
        return _ENUM_CODES[value], None
    tensor = value if isinstance(value, Tensor) else convert_to_tensor(value)
    if tensor.dtype not in _TYPES:
        raise _err(f"Value for attr 'output_types' of {tensor.dtype.name} is not in the list of allowed values: "
                   "float, double, int32, int64, string")
    array = np.asarray(tensor.numpy())
    if array.ndim > 1:
        raise _err("Each record default should be at most rank 1")
    if array.size > 1:
        raise _err(f"There should only be 1 default per field but field {index} has {array.size}")
    return tensor.dtype, _one_default(array)


def _one_default(array):
    if array.size == 0:
        return None
    return array.reshape(-1)[0]


def _check_columns(cols, name, count):
    if cols is None:
        return []
    cols = [int(c) for c in np.asarray(cols).reshape(-1)]
    if any(b <= a for a, b in zip(cols, cols[1:])):
        raise _err(f"{name} should be strictly increasing indices")
    if cols and cols[0] < 0:
        raise _err(f"{name} should be non-negative indices")
    return cols


class CsvDataset(FileRecordsDataset):
    _name = "CsvDatasetV2"

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None, name=None):
        super().__init__(filenames)
        if not record_defaults:
            raise _err("Length for attr 'output_types' of 0 must be at least minimum 1")
        pairs = [record_default(d, i) for i, d in enumerate(record_defaults)]
        self._compression = compression_type
        kind = "" if compression_type is None else compression_type
        kind = kind.decode() if isinstance(kind, bytes) else str(kind)
        if kind not in ("", "ZLIB", "GZIP"):
            raise _err(f"Unsupported compression_type: {kind}.")
        check_compression(kind)
        if buffer_size is not None and int(buffer_size) <= 0:
            raise _err("buffer_size should be positive")
        delim = field_delim.encode("utf-8") if isinstance(field_delim, str) else bytes(field_delim)
        if len(delim) != 1:
            raise _err("field_delim should be only 1 char")
        select = _check_columns(select_cols, "select_cols", len(pairs))
        exclude = _check_columns(exclude_cols, "exclude_cols", len(pairs))
        if select and exclude:
            raise _err("Either select_cols or exclude_cols should be empty")
        if select and len(select) != len(pairs):
            raise _err("select_cols should match output size")
        na = na_value.encode("utf-8") if isinstance(na_value, str) else bytes(na_value)
        dtypes = [p[0] for p in pairs]
        defaults = [(d.encode("utf-8") if isinstance(d, str) else bytes(d) if t == _dt.string else d)
                    if d is not None else None
                    for t, d in pairs]
        self._format = CsvFormat(dtypes, defaults, delim, bool(use_quote_delim), na, bool(header), select, exclude)
        self._skip_errors = False
        self._spec = tuple(TensorSpec(TensorShape([]), t) for t in dtypes)

    def ignore_errors(self, log_warning=False, name=None):
        """The same records less the malformed ones (what TensorFlow's `ignore_errors` gives over a
        CsvDataset: a bad record is skipped, reading goes on with the next)."""
        clone = copy.copy(self)
        clone._skip_errors = True
        clone._recipe = None  # not what the constructor built: a tf.function keys it by identity
        clone._name = "_IgnoreErrorsDataset"
        return clone

    def _read(self, path):
        """The parsed columns of one file and the error that stopped them (or None)."""
        with open_for_reading(path, self._compression) as f:
            data = f.read()
        return parse(data, self._format, self._skip_errors)

    def _file_columns(self):
        for path in self._paths():
            columns, error = self._read(path)
            yield columns, error

    def _stream(self):
        dtypes = [s.dtype for s in self._spec]
        for columns, error in self._file_columns():
            rows = [c.tolist() if t != _dt.string else c for t, c in zip(dtypes, columns)]
            for row in zip(*rows):
                yield tuple(make_eager(np.array(v, dtype=t.np_dtype if t != _dt.string else object), t)
                            for v, t in zip(row, dtypes))
            if error is not None:
                raise error

    def _batches(self, size, drop_remainder):
        """Batches of `size` rows, cut from the parsed columns (a `batch` above asks for these)."""
        dtypes = [s.dtype for s in self._spec]
        held, start = None, 0
        for columns, error in self._file_columns():
            held = columns if held is None else [np.concatenate([h[start:], c]) for h, c in zip(held, columns)]
            start = 0
            while len(held[0]) - start >= size:
                yield _batch(held, start, start + size, dtypes)
                start += size
            if error is not None:
                raise error
        if held is not None and len(held[0]) > start and not drop_remainder:
            yield _batch(held, start, len(held[0]), dtypes)


def _batch(columns, start, stop, dtypes):
    return tuple(make_eager(np.ascontiguousarray(c[start:stop]) if t != _dt.string else c[start:stop].copy(), t)
                 for c, t in zip(columns, dtypes))
