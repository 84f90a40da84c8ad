"""TensorFlow's DataType enum values (types.proto) for eagerflow's dtypes, both ways."""
from __future__ import annotations

from ...core import dtypes as _dt

_ENUM = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7, "complex64": 8,
         "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17, "complex128": 18, "float16": 19, "resource": 20,
         "variant": 21, "uint32": 22, "uint64": 23}
_BY_ENUM = {v: k for k, v in _ENUM.items()}


def datatype(dtype) -> int:
    """The DataType enum value of an eagerflow dtype."""
    return _ENUM[_dt.as_dtype(dtype).name]


def from_datatype(value: int):
    """The eagerflow dtype of a DataType enum value (a `_REF` type, value + 100, reads as its base);
    None for a value eagerflow has no dtype for."""
    name = _BY_ENUM.get(value - 100 if value > 100 else value)
    return None if name is None else _dt.as_dtype(name)
