"""`tf.data.experimental.SqlDataset`: the rows of a SQL query over a SQLite database file, one element per row
(a tuple of scalars of `output_types`, or one scalar for a single type), through Python's sqlite3.

The database is opened read-only, when a pass starts (so the query runs once per pass) and a query error
surfaces then, as TensorFlow's UnknownError "Prepare() failed: ...". A column is converted as SQLite converts
it for the requested type: text read as a number takes its leading numeric part (0 if none), a number read
as a string is its decimal text, a bool is a non-zero integer.
"""
from __future__ import annotations

import re

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import InvalidArgumentError, UnknownError
from ..core.tensor import TensorSpec, make_eager
from .dataset import Dataset
from .structure import UNKNOWN

_LEADING_NUMBER = re.compile(rb"\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)")


def _text(value) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, float) and value.is_integer():
        return repr(value).encode()
    return b"" if value is None else str(value).encode("utf-8")


def _number(value, integral: bool):
    if isinstance(value, (str, bytes)):
        match = _LEADING_NUMBER.match(value.encode("utf-8") if isinstance(value, str) else value)
        value = float(match.group(0)) if match else 0
    value = 0 if value is None else value
    return int(value) if integral else float(value)


def _column(value, dtype):
    if dtype == _dt.string:
        return np.array(_text(value), dtype=object)
    if dtype == _dt.bool_:
        return np.bool_(_number(value, True) != 0)
    return np.asarray(_number(value, dtype.is_integer), dtype.np_dtype)


class SqlDataset(Dataset):
    _name = "SqlDataset"
    _indexable = False

    def __init__(self, driver_name, data_source_name, query, output_types):
        driver = driver_name.decode() if isinstance(driver_name, bytes) else str(driver_name)
        if driver != "sqlite":
            raise InvalidArgumentError(None, None, f"The database type, {driver}, is not supported by SqlDataset. "
                                                   "The set of supported databases is: {'sqlite'}.")
        self._source, self._query = str(data_source_name), str(query)
        self._types = nest.map_structure(_dt.as_dtype, output_types)
        self._spec = nest.map_structure(lambda t: TensorSpec([], t), self._types)
        self._size = UNKNOWN

    def _stream(self):
        import sqlite3  # on first use: `import eagerflow` does not load it
        flat = nest.flatten(self._types)
        try:
            connection = sqlite3.connect(f"file:{self._source}?mode=ro", uri=True)
        except sqlite3.Error as err:
            raise UnknownError(None, None, f"Failed to open the database: {err}") from None
        try:
            try:
                cursor = connection.execute(self._query)
            except sqlite3.Error as err:
                raise UnknownError(None, None, f"Prepare() failed: [1] {err}: {self._query}") from None
            columns = len(cursor.description or ())
            if columns != len(flat):
                raise InvalidArgumentError(None, None, f"The number of columns in query ({columns}) must match the "
                                                       f"number of elements in output_types ({len(flat)}).")
            for row in cursor:
                leaves = [make_eager(_column(v, t), t) for v, t in zip(row, flat)]
                yield nest.pack_sequence_as(self._types, leaves) if nest.is_nested(self._types) else leaves[0]
        finally:
            connection.close()
