"""DecodeCSV: `tf.io.decode_csv`, each string of `records` split into fields, one output per column.

TensorFlow's rules, restated (checked against TensorFlow 2.21):
- An empty record has no fields. Without `select_cols` a record must have exactly one field per
  default ("Expect 3 fields but have 2 in record 0"); with it, the selected columns (strictly
  increasing) must all be there, and other columns are skipped unparsed.
- With `use_quote_delim`, a field starting with '"' runs to a '"' followed by the delimiter or the
  end ('""' inside is one '"'); anything else after the closing quote, or a quote or CR/LF in an
  unquoted field, is an error.
- An empty field, or one equal to `na_value`, takes the column's default; a column whose default
  is empty is required ("Field 1 is required but missing in record 0!").
- Numbers parse as C's strtol/strtod do: surrounding spaces and a sign are fine; floats also read
  inf/nan and hex; out-of-range integers and anything else are "not a valid int32" & co.
Output i has the shape of `records` and the dtype of default i. No gradient, no XLA lowering.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..strings.number_text import _FLOAT_TEXT, _HEX_FLOAT, _INT_TEXT

_TYPES = (_dt.float32, _dt.float64, _dt.int32, _dt.int64, _dt.string)
_TYPE_WORDS = {"float32": "float", "float64": "double", "int32": "int32", "int64": "int64"}


def _err(message):
    return InvalidArgumentError(None, None, message)


def _split(record: bytes, delim: int, quotes: bool):
    """The raw fields of one record (quotes removed), as TensorFlow's CSV reader splits them."""
    if not record:
        return []
    fields, i, n = [], 0, len(record)
    while True:
        if quotes and i < n and record[i] == 0x22:  # '"'
            out, i = bytearray(), i + 1
            while True:
                j = record.find(b'"', i)
                if j < 0:
                    raise _err("Quoted field has to end with quote followed by delim or end")
                out += record[i:j]
                if j + 1 < n and record[j + 1] == 0x22:  # '""': one quote
                    out += b'"'
                    i = j + 2
                    continue
                if j + 1 < n and record[j + 1] != delim:
                    raise _err("Quoted field has to end with quote followed by delim or end")
                i = j + 1
                break
            fields.append(bytes(out))
        else:
            j = record.find(bytes([delim]), i)
            j = n if j < 0 else j
            field = record[i:j]
            if (quotes and b'"' in field) or b"\n" in field or b"\r" in field:
                raise _err("Unquoted fields cannot have quotes/CRLFs inside")
            fields.append(field)
            i = j
        if i >= n:
            return fields
        i += 1  # the delimiter
        if i == n:  # a trailing delimiter: one more, empty, field
            fields.append(b"")
            return fields


def _convert(text: bytes, dtype, column, row):
    if dtype == _dt.string:
        return text
    s = text.decode("utf-8", "replace")
    try:
        if dtype.is_integer:
            if _INT_TEXT.fullmatch(s):
                value = int(s)
                info = np.iinfo(dtype.np_dtype)
                if info.min <= value <= info.max:
                    return value
        elif _FLOAT_TEXT.fullmatch(s):
            return float(s)
        elif _HEX_FLOAT.fullmatch(s):
            return float.fromhex(s.strip())
    except (ValueError, OverflowError):
        pass
    raise _err(f"Field {column} in record {row} is not a valid {_TYPE_WORDS[dtype.name]}: {s}")


def _decode_kernel(records, *defaults, OUT_TYPE, field_delim=",", use_quote_delim=True, na_value="",
                   select_cols=()):
    records = np.asarray(records, dtype=object)
    delim = field_delim.encode("utf-8")
    if len(delim) != 1:
        raise _err("field_delim should be only 1 char")
    na = na_value.encode("utf-8")
    for i, d in enumerate(defaults):
        if np.size(d) > 1:
            raise _err(f"There should only be 1 default per field but field {i} has {np.size(d)}")
    outs = [np.empty(records.shape, dtype=object) for _ in defaults]
    flat_outs = [o.reshape(-1) for o in outs]
    wanted = len(defaults)
    for row, record in enumerate(records.reshape(-1)):
        record = record.encode("utf-8") if isinstance(record, str) else bytes(record)
        fields = _split(record, delim[0], use_quote_delim)
        if select_cols:
            fields = [fields[c] for c in select_cols if c < len(fields)]
        if len(fields) != wanted:
            raise _err(f"Expect {wanted} fields but have {len(fields)} in record {row}")
        for column, (field, default, dtype) in enumerate(zip(fields, defaults, OUT_TYPE)):
            if not field or field == na:
                if np.size(default) == 0:
                    raise _err(f"Field {column} is required but missing in record {row}!")
                flat_outs[column][row] = np.asarray(default).reshape(-1)[0]
            else:
                flat_outs[column][row] = _convert(field, dtype, column, row)
    return tuple(o if dtype == _dt.string else o.astype(dtype.np_dtype) for o, dtype in zip(outs, OUT_TYPE))


def _decode_infer(inputs, attrs):
    records = inputs[0]
    if records.dtype != _dt.string:
        raise TypeError(f"Input 'records' of 'DecodeCSV' Op has type {records.dtype.name} that does not match "
                        "expected type of string.")
    for d in inputs[1:]:
        if d.shape.rank is not None and d.shape.rank != 1:
            raise ValueError(f"Shape must be rank 1 but is rank {d.shape.rank} for '{{{{node DecodeCSV}}}} = "
                             "DecodeCSV[...]'")
    return [Spec(records.shape, d.dtype) for d in inputs[1:]]


DecodeCSV = defop("DecodeCSV", inputs=("records", "record_defaults"), kernel=_decode_kernel, infer=_decode_infer,
                  grad=NO_GRADIENT, multi_output=True, doc="Splits CSV records into one tensor per column.")


def _default(value):
    t = as_tensor(value)
    if t.shape.rank == 0:
        from ..array.basic import reshape
        t = reshape(t, [1])
    if t.dtype not in _TYPES:
        allowed = ", ".join(("float", "double", "int32", "int64", "string"))
        raise InvalidArgumentError(None, None, f"Value for attr 'OUT_TYPE' of {t.dtype.name} is not in the list of "
                                               f"allowed values: {allowed}")
    return t


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """`tf.io.decode_csv`: a list of tensors, one per column, each with the shape of `records`."""
    if select_cols is not None:
        select_cols = [int(c) for c in select_cols]
        if any(b <= a for a, b in zip(select_cols, select_cols[1:])):
            raise ValueError("select_cols is not strictly increasing.")
        if select_cols and select_cols[0] < 0:
            raise ValueError("select_cols contains negative values.")
        if len(select_cols) != len(record_defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    defaults = [_default(d) for d in record_defaults]
    attrs = {"OUT_TYPE": tuple(d.dtype for d in defaults), "field_delim": field_delim,
             "use_quote_delim": bool(use_quote_delim), "na_value": na_value, "select_cols": tuple(select_cols or ())}
    return list(bind(DecodeCSV, (as_tensor(records, _dt.string), *defaults), attrs, name=name))
