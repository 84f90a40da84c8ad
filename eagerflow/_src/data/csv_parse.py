"""The CSV reader behind CsvDataset: one file's bytes parsed, in bulk, into one NumPy array per column.

TensorFlow's CsvDataset rules, restated (checked against TensorFlow 2.21):
- A record ends at "\\n", "\\r" or "\\r\\n" outside quotes; text after the last terminator is one more
  record; an empty line is a record of one empty field. With `header` the first record is skipped.
- With `use_quote_delim` a field opening with '"' runs to a '"' followed by the delimiter or a
  terminator ('""' inside is one '"', terminators inside are kept); a quote anywhere else in an
  unquoted field is "Unquoted fields cannot have quotes inside"; a quoted field that never closes
  properly swallows the rest of the file ("Reached end of file without closing quoted field").
- A record needs exactly one field per default ("Expect 3 fields but have 2 in record", or "but have
  more"); with `select_cols` only those columns (others are skipped unparsed, extra ones allowed).
- An empty field or one equal to `na_value` (quoted or not) takes the column's default; a column
  without one is "Field 1 is required but missing in record!".
- Numbers read as C's strtol/strtod (spaces and a sign allowed, floats also inf/nan/hex; overflowing
  floats become inf); anything else is "Field 0 in record is not a valid int32: <text>".

Speed: a file without quotes is split with bytes.split and checked with NumPy (record and field
counts from the delimiter positions), and each numeric column is converted by one NumPy cast of its
field bytes; only a column that cast refuses is re-read field by field, to find TensorFlow's error or
the values the cast does not read (hex floats, and any column of a file holding "_", which Python's
int/float would accept). Files with quotes go through a per-field tokenizer (slower).
"""
from __future__ import annotations

import re

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError
from ..ops.strings.number_text import _FLOAT_TEXT, _HEX_FLOAT, _INT_TEXT

_TYPE_WORDS = {"float32": "float", "float64": "double", "int32": "int32", "int64": "int64"}
_UNCLOSED = "Reached end of file without closing quoted field in record"


def _err(message):
    return InvalidArgumentError(None, None, message)


class CsvFormat:
    """What a CsvDataset was asked to read: `dtypes` and `defaults` (None: required) per output
    column, and which source columns those are (`select`, or all of them)."""

    def __init__(self, dtypes, defaults, delim, quotes, na, header, select=None, exclude=None):
        self.dtypes, self.defaults = list(dtypes), list(defaults)
        self.delim, self.quotes, self.na, self.header = delim, quotes, na, header
        n = len(self.dtypes)
        if exclude:
            total = n + len(exclude)
            self.columns, self.exact = [i for i in range(total) if i not in set(exclude)], total
        elif select:
            self.columns, self.exact = list(select), None
        else:
            self.columns, self.exact = list(range(n)), n


# --- records and fields -------------------------------------------------------------------------------


def _count_error(fmt, count):
    """The record-level error for a record of `count` fields (None: the count is fine)."""
    n = len(fmt.dtypes)
    if fmt.exact is None:
        have = sum(1 for c in fmt.columns if c < count)
        return None if have == n else _err(f"Expect {n} fields but have {have} in record")
    if count == fmt.exact:
        return None
    if count > fmt.exact:
        return _err(f"Expect {n} fields but have more in record")
    have = count - sum(1 for c in range(count) if c not in fmt.columns)
    return _err(f"Expect {n} fields but have {have} in record")


def _plain_table(body: bytes, fmt):
    """Records of a quote-free body ("\\n"-terminated): (rows x columns object array of the wanted
    fields, per-record error or None list)."""
    delim = fmt.delim
    if not body:
        return np.empty((0, len(fmt.columns)), object), [], None
    codes = np.frombuffer(body, np.uint8)
    ends = np.flatnonzero(codes == 10)
    at_delims = np.flatnonzero(codes == delim[0])
    counts = np.diff(np.searchsorted(at_delims, ends), prepend=0) + 1
    width = int(counts[0])
    if (counts == width).all() and _count_error(fmt, width) is None:
        flat = body[:-1].replace(b"\n", delim).split(delim)
        table = np.array(flat, dtype=object).reshape(len(ends), width)
        if fmt.columns != list(range(width)):
            table = table[:, fmt.columns]
        return table, [None] * len(ends), None
    rows = [line.split(delim) for line in body[:-1].split(b"\n")]
    return _table(rows, fmt)


def _quoted_records(body: bytes, delim: bytes):
    """(fields, error) per record of a body that may hold quoted fields; see the module docstring."""
    n, i = len(body), 0
    unquoted = re.compile(b"[^" + re.escape(delim) + b"\r\n]*")
    while i < n:
        fields, error = [], None
        while True:
            if body[i:i + 1] == b'"':
                out, j = [], i + 1
                while True:
                    k = body.find(b'"', j)
                    if k < 0:
                        yield None, _err(_UNCLOSED)
                        return
                    out.append(body[j:k])
                    if body[k + 1:k + 2] == b'"':
                        out.append(b'"')
                        j = k + 2
                        continue
                    break
                after = body[k + 1:k + 2]
                if after not in (delim, b"\r", b"\n", b""):
                    yield None, _err(_UNCLOSED)
                    return
                fields.append(b"".join(out))
                i = k + 1
            else:
                m = unquoted.match(body, i)
                field = m.group()
                if b'"' in field and error is None:
                    error = _err("Unquoted fields cannot have quotes inside")
                fields.append(field)
                i = m.end()
            if body[i:i + 1] == delim:
                i += 1
                continue
            break
        if body[i:i + 2] == b"\r\n":
            i += 2
        elif i < n:
            i += 1
        yield fields, error


def _well_formed_records(body: bytes, delim: bytes):
    """The records of a body whose quoting is all well formed, by one regular expression run over it
    (each match: one field and what ends it); None at the first thing it cannot match, for
    `_quoted_records` to find TensorFlow's error."""
    d = re.escape(delim)
    field = re.compile(b'(?:"((?:[^"]|"")*)"|([^' + d + b'"\r\n]*))(' + d + b'|\r\n|\r|\n)')
    records, fields, at = [], [], 0
    for m in field.finditer(body):
        if m.start() != at:
            return None
        quoted, plain, end = m.groups()
        fields.append(plain if quoted is None else quoted.replace(b'""', b'"'))
        if end != delim:
            records.append(fields)
            fields = []
        at = m.end()
    return records if at == len(body) and not fields else None


def _quoted_table(body: bytes, fmt):
    fast = _well_formed_records(body, fmt.delim)
    if fast is not None:
        widths = set(map(len, fast))
        if len(widths) == 1 and _count_error(fmt, next(iter(widths))) is None:  # every record alike
            table = np.empty((len(fast), next(iter(widths))), object)
            table[...] = fast
            return table[:, fmt.columns], [None] * len(fast), None
        return _table(fast, fmt)
    records = list(_quoted_records(body, fmt.delim))
    table, errors, present = _table([fields or [] for fields, _ in records], fmt)
    for r, (fields, error) in enumerate(records):
        if error is not None:
            errors[r], present[r] = error, 0
    return table, errors, present


def _table(rows, fmt):
    """(records x wanted columns object array, record-level error per record, how many wanted fields
    each record has: the ones a field error can come from before its count error)."""
    width = len(fmt.columns)
    table = np.full((len(rows), width), b"", object)
    errors = [None] * len(rows)
    present = np.full(len(rows), width, np.int64)
    for r, fields in enumerate(rows):
        error = _count_error(fmt, len(fields))
        wanted = [fields[c] for c in fmt.columns if c < len(fields)]
        table[r, :len(wanted)] = wanted
        if error is not None:
            errors[r], present[r] = error, len(wanted)
    return table, errors, present


def _skip_first_record(body: bytes) -> bytes:
    """What follows the first record of a body without quoted fields."""
    for k, byte in enumerate(body):
        if byte in (10, 13):
            return body[k + 2:] if body[k:k + 2] == b"\r\n" else body[k + 1:]
    return b""


def _rest_after_first(body: bytes) -> bytes:
    """What follows the first record, quotes respected."""
    inside, k, n = False, 0, len(body)
    while k < n:
        byte = body[k]
        if byte == 34:
            inside = not inside
        elif not inside and byte in (10, 13):
            return body[k + 2:] if body[k:k + 2] == b"\r\n" else body[k + 1:]
        k += 1
    return b""


# --- columns -------------------------------------------------------------------------------------------


def _slow_numbers(fields, dtype):
    """Field-by-field conversion as strtol/strtod: (values, bad mask)."""
    values = np.zeros(len(fields), dtype.np_dtype)
    bad = np.zeros(len(fields), bool)
    info = np.iinfo(dtype.np_dtype) if dtype.is_integer else None
    for r, field in enumerate(fields):
        text = field.decode("utf-8", "replace")
        try:
            if info is not None:
                if _INT_TEXT.fullmatch(text) and info.min <= int(text) <= info.max:
                    values[r] = int(text)
                    continue
            elif _FLOAT_TEXT.fullmatch(text):
                values[r] = float(text)
                continue
            elif _HEX_FLOAT.fullmatch(text):
                values[r] = float.fromhex(text.strip())
                continue
        except (ValueError, OverflowError):
            pass
        bad[r] = True
    return values, bad


def _numbers(text, dtype, underscores):
    """(values, invalid mask) of a column of field texts (bytes objects) read as numbers: one NumPy cast
    (Python's int/float on each, which read what strtol/strtod read but underscores and hex floats)."""
    if not underscores:
        try:
            with np.errstate(over="ignore"):
                if dtype != _dt.int32:
                    return text.astype(dtype.np_dtype), np.zeros(len(text), bool)
                wide = text.astype(np.int64)
            if ((wide >= -(1 << 31)) & (wide < (1 << 31))).all():
                return wide.astype(np.int32), np.zeros(len(text), bool)
        except (ValueError, OverflowError):
            pass
    return _slow_numbers(text, dtype)


def _empty(fields, na, blanks):
    """Which fields are empty or `na` (`blanks` False: the file has no empty field at all)."""
    empty = fields == b"" if blanks else np.zeros(len(fields), bool)
    if na is not None:
        empty |= fields == na
    return empty


def _column(fields, dtype, default, na, underscores, blanks=True):
    """(values, missing mask, invalid mask) of one column's fields; `na` None: no field can be it."""
    if dtype == _dt.string:
        empty = _empty(fields, na, blanks)
        values = fields.copy()
        if default is not None and empty.any():
            values[empty] = default
        return values, (empty if default is None else np.zeros_like(empty)), np.zeros_like(empty)
    text = fields
    empty = _empty(fields, na, blanks)
    if empty.any():
        text = text.copy()
        text[empty] = b"0"
    values, bad = _numbers(text, dtype, underscores)
    if default is not None:
        values[empty] = default
    return values, (empty if default is None else np.zeros_like(empty)), bad


def _has_blank_field(body: bytes, delim: bytes) -> bool:
    """Whether a "\n"-terminated body without quotes has an empty field (a few C scans of the bytes)."""
    return (body.startswith((delim, b"\n")) or delim + delim in body or delim + b"\n" in body
            or b"\n" + delim in body or b"\n\n" in body)


def parse(data: bytes, fmt: CsvFormat, skip_errors=False):
    """(columns, error): one array per output column holding the good records in order; `error` is
    the first bad record's error (the columns then stop before it), or None. With `skip_errors` bad
    records are left out and `error` is None."""
    if fmt.header:
        data = _rest_after_first(data) if fmt.quotes and b'"' in data else _skip_first_record(data)
    quoted = fmt.quotes and b'"' in data
    if not quoted and b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if data and not data.endswith((b"\n", b"\r")):
        data += b"\n"
    table, errors, present = _quoted_table(data, fmt) if quoted else _plain_table(data, fmt)
    underscores = b"_" in data
    na = fmt.na if fmt.na and fmt.na in data else None
    blanks = quoted or _has_blank_field(data, fmt.delim)
    columns, checks = [], []
    keep = np.array([e is None for e in errors], bool)
    for j, (dtype, default) in enumerate(zip(fmt.dtypes, fmt.defaults)):
        values, missing, invalid = _column(table[:, j], dtype, default, na, underscores, blanks)
        if present is not None:
            reached = present > j
            missing, invalid = missing & reached, invalid & reached
        columns.append(values)
        checks.append((missing, invalid))
        keep &= ~(missing | invalid)
    if skip_errors or keep.all():
        return [c[keep] for c in columns], None
    row = int(np.flatnonzero(~keep)[0])
    error = errors[row]
    for j, (missing, invalid) in enumerate(checks):
        if missing[row]:
            error = _err(f"Field {j} is required but missing in record!")
            break
        if invalid[row]:
            text = table[row, j].decode("utf-8", "replace")
            error = _err(f"Field {j} in record is not a valid {_TYPE_WORDS[fmt.dtypes[j].name]}: {text}")
            break
    return [c[:row] for c in columns], error
