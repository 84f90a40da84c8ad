"""`tf.lookup.TextFileInitializer`: a table's keys and values from the lines of a text file.

Each line is split on `delimiter`; a key or value is one column (`key_index` / `value_index`), the whole
line (TextFileIndex.WHOLE_LINE, -2) or the line's number from 0 (TextFileIndex.LINE_NUMBER, -1). The file is
read when the table is built (lookup_tables.py), where TensorFlow runs its initializer, with TensorFlow's
errors for a missing file, too few columns, an unparsable number and a wrong `vocab_size`. The file name may
be a string, a path, a string tensor or, as in TensorFlow, a `tf.saved_model.Asset`, which a SavedModel of the
table then carries as the table's asset (saved_model/tf_format/table_resources.py).
"""
from __future__ import annotations

import os

import numpy as np

from ...core import dtypes
from ...core.errors import InvalidArgumentError, NotFoundError
from .tables import TableInitializerBase


class TextFileIndex:
    """Special column indices of TextFileInitializer."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


def _parse(field, dtype, column, line_number):
    if dtype == dtypes.string:
        return field
    try:
        return int(field) if dtype.is_integer else float(field)
    except ValueError:
        raise InvalidArgumentError(None, None, f"Field {field.decode('utf-8', 'replace')} in line "
                                   f"{line_number} is not a valid {dtype.name}.") from None


class TextFileInitializer(TableInitializerBase):
    """`tf.lookup.TextFileInitializer(filename, key_dtype, key_index, value_dtype, value_index, vocab_size,
    delimiter)`."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None,
                 delimiter="\t", name=None, value_index_offset=0):
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        if key_index < -2:
            raise ValueError(f"`key_index` should be >= -2, received: {key_index}.")
        if key_index == TextFileIndex.LINE_NUMBER and key_dtype != dtypes.int64:
            raise ValueError(f"`key_dtype` must be int64 if `key_index` is {TextFileIndex.LINE_NUMBER}, "
                             f"received: {key_dtype}")
        if key_index == TextFileIndex.WHOLE_LINE and not (key_dtype.is_integer or key_dtype == dtypes.string):
            raise ValueError("`key_dtype` should be either integer or string for `key_index` "
                             f"{TextFileIndex.WHOLE_LINE}, received: {key_dtype}.")
        if value_index < -2:
            raise ValueError(f"`value_index` should be >= -2, received: {value_index}.")
        if value_index == TextFileIndex.LINE_NUMBER and value_dtype != dtypes.int64:
            raise ValueError("`value_dtype` must be int64 for `value_index` "
                             f"{TextFileIndex.LINE_NUMBER}, received: {value_dtype}")
        if value_index == TextFileIndex.WHOLE_LINE and value_dtype != dtypes.string:
            raise ValueError("`value_dtype` must be string for `value_index` "
                             f"{TextFileIndex.WHOLE_LINE}, received: {value_dtype}.")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        # a tf.saved_model.Asset names its file by its `asset_path` tensor; a SavedModel carries that same asset
        self._asset = filename if hasattr(filename, "asset_path") and hasattr(filename, "_path") else None
        if self._asset is not None:
            filename = filename.asset_path
        if not hasattr(filename, "numpy") and not filename:
            raise ValueError("`filename` argument required for tf.lookup.TextFileInitializer")
        self._filename = filename.numpy().decode() if hasattr(filename, "numpy") else os.fspath(filename)
        if isinstance(self._filename, bytes):
            self._filename = self._filename.decode()
        self._key_index, self._value_index = int(key_index), int(value_index)
        self._vocab_size = vocab_size
        self._delimiter = delimiter.encode("utf-8") if isinstance(delimiter, str) else delimiter
        self._offset = int(value_index_offset)
        super().__init__(key_dtype, value_dtype)

    def _read_lines(self):
        try:
            with open(self._filename, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise NotFoundError(None, None, f"{self._filename}; No such file or directory") from None
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        return [line[:-1] if line.endswith(b"\r") else line for line in lines]

    def _column(self, line, number, fields, index, dtype, offset=0):
        if index == TextFileIndex.LINE_NUMBER:
            return number + offset
        if index == TextFileIndex.WHOLE_LINE:
            return _parse(line, dtype, index, number)
        if index >= len(fields):
            raise InvalidArgumentError(
                None, None, f"Invalid number of columns in {self._filename} line {number} "
                f"({line.decode('utf-8', 'replace')}) : expected at least "
                f"{max(self._key_index, self._value_index) + 1} got {len(fields)}")
        return _parse(fields[index], dtype, index, number)

    def _materialize(self):
        lines = self._read_lines()
        if self._vocab_size is not None:
            if len(lines) < self._vocab_size:
                raise InvalidArgumentError(None, None, f"Invalid vocab_size in {self._filename}: expected "
                                           f"{self._vocab_size} but got {len(lines)}")
            lines = lines[:self._vocab_size]
        keys, values = [], []
        for number, line in enumerate(lines):
            fields = line.split(self._delimiter)
            keys.append(self._column(line, number, fields, self._key_index, self.key_dtype))
            values.append(self._column(line, number, fields, self._value_index, self.value_dtype, self._offset))
        return (np.array(keys, dtype=self.key_dtype.as_numpy_dtype if self.key_dtype != dtypes.string else object),
                np.array(values, dtype=self.value_dtype.as_numpy_dtype if self.value_dtype != dtypes.string
                         else object))
