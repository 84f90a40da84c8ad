"""What `make_csv_dataset` works out before it reads anything: the files, the column names from the
header, the selected columns and, without `column_defaults`, each column's type.

Restated from TensorFlow 2.21's behaviour:
- `file_pattern` is a glob or a list of globs; the matches are sorted. Header rows and the rows used
  for inference are read with Python's csv module (GZIP files through gzip; ZLIB cannot be probed).
- A column's type is the least permissive of int32, int64, float32, float64, string that every
  non-empty value (empty and `na_value` fields say nothing) of the first `num_rows_for_inference`
  rows (all rows when None) fits: a value fits an integer type when NumPy reads it as that integer
  without change, a float type when NumPy reads it as a finite value of that type (so "1e39" is
  float64, "inf" and "nan" are strings). A column with no value is a string column. Each inferred
  column gets the default 0 (or "").
"""
from __future__ import annotations

import csv
import glob
import gzip
import io
import os

import numpy as np

from ..core import dtypes as _dt
from ..io.compressed import open_for_reading

_ORDER = (_dt.int32, _dt.int64, _dt.float32, _dt.float64, _dt.string)


def file_names(file_pattern):
    """The sorted matches of a glob or list of globs (ValueError for none, as TensorFlow)."""
    if isinstance(file_pattern, (list, tuple)):
        if not file_pattern:
            raise ValueError("Argument `file_pattern` should not be empty.")
        patterns = list(file_pattern)
    else:
        patterns = [file_pattern]
    names = []
    for pattern in patterns:
        pattern = os.fsdecode(pattern)
        names.extend(glob.glob(pattern) if glob.has_magic(pattern) else [pattern] if os.path.exists(pattern) else [])
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return sorted(names)


def text_opener(compression_type, encoding):
    """A function opening a file as text for probing, or a ValueError for what cannot be probed."""
    kind = "" if compression_type is None else compression_type
    if kind == "GZIP":
        return lambda path: gzip.open(path, "rt", encoding=encoding, newline="")
    if kind == "ZLIB":
        raise ValueError(f"`compression_type` {compression_type} is not supported for probing columns.")
    if kind != "":
        raise ValueError(f"Received unknown `compression_type` {compression_type}. Expected: GZIP, ZLIB or  "
                         "(empty string).")
    return lambda path: io.TextIOWrapper(open_for_reading(path), encoding=encoding, newline="")


def _reader(f, field_delim, use_quote_delim):
    return csv.reader(f, delimiter=field_delim, quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)


def header_names(paths, field_delim, use_quote_delim, opener):
    """The first file's header row; every other file must have the same one."""
    names = None
    for path in paths:
        with opener(path) as f:
            row = next(_reader(f, field_delim, use_quote_delim), None)
        if row is None:
            raise ValueError(f"Failed when reading the header line of {path}. Is it an empty file?")
        if names is None:
            names = row
        elif row != names:
            raise ValueError("All input CSV files should have the same column names in the header row. "
                             f"File {path} has different column names.")
    return names


def selected_indices(select_columns, column_names):
    """`select_columns` (names or indices) as sorted column indices, as TensorFlow checks them."""
    positions = {name: i for i, name in enumerate(column_names)}
    count, picked = len(column_names), []
    for entry in select_columns:
        if isinstance(entry, int):
            if entry < 0 or entry >= count:
                raise ValueError(f"Column index {entry} specified in `select_columns` should be > 0  and <= "
                                 f"{count}, which is the number of columns.")
            picked.append(entry)
        elif entry not in positions:
            raise ValueError(f"Column {entry} specified in `select_columns` must be of one of the columns: "
                             f"{positions.keys()}.")
        else:
            picked.append(positions[entry])
    unique = sorted(set(picked))
    if len(unique) != len(select_columns):
        # TensorFlow looks for the repeats in the de-duplicated list, so it always names none.
        repeats = {a for a, b in zip(unique, unique[1:]) if a == b}
        raise ValueError(f"The `select_columns` argument contains duplicate columns: {repeats}.")
    return unique


def _fits(text, dtype):
    try:
        if dtype == _dt.int32:
            return int(np.int32(text)) == int(np.int64(text))
        if dtype == _dt.int64:
            np.int64(text)
            return True
        with np.errstate(over="ignore"):
            return bool(dtype.np_dtype.type(text) < np.inf)
    except (ValueError, OverflowError):
        return False


def _widen(text, na_value, previous):
    if text in ("", na_value):
        return previous
    floor = 0 if previous is None else _ORDER.index(previous)
    for dtype in _ORDER[floor:-1]:
        if _fits(text, dtype):
            return dtype
    return _dt.string


def inferred_defaults(paths, column_count, field_delim, use_quote_delim, na_value, header, rows_for_inference,
                      select, opener):
    """One default per selected column: 0 of its inferred type, or "" for a string column."""
    columns = list(range(column_count)) if select is None else select
    types = [None] * len(columns)
    seen = 0
    for path in paths:
        if rows_for_inference is not None and seen >= rows_for_inference:
            break
        with opener(path) as f:
            rows = _reader(f, field_delim, use_quote_delim)
            line = 1
            if header:
                next(rows, None)
                line += 1
            for row in rows:
                if len(row) != column_count:
                    raise ValueError(f"Problem inferring types: CSV row {line} has {len(row)} number of fields. "
                                     f"Expected: {column_count}.")
                if rows_for_inference is not None and seen >= rows_for_inference:
                    break
                line += 1
                seen += 1
                for k, c in enumerate(columns):
                    types[k] = _widen(row[c], na_value, types[k])
    types = [t or _dt.string for t in types]
    return [np.array([b""], object) if t == _dt.string else np.zeros([1], t.np_dtype) for t in types]
