"""TensorFlow's DataType numbers (types.proto) for eagerflow's dtypes, without loading protobuf.

Files store a dtype as this number; the table is TensorFlow's, and protos/types.proto names the same values
(tests/formats check the two agree).
"""
from __future__ import annotations

from ..core import dtypes as _dtypes

# eagerflow dtype name -> TensorFlow DataType number.
_NUMBER = {
    "float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7, "complex64": 8,
    "int64": 9, "bool": 10, "qint8": 11, "quint8": 12, "qint32": 13, "bfloat16": 14, "qint16": 15, "quint16": 16,
    "uint16": 17, "complex128": 18, "float16": 19, "resource": 20, "variant": 21, "uint32": 22, "uint64": 23,
}
_NAME = {number: name for name, number in _NUMBER.items()}
REF_OFFSET = 100  # DT_FLOAT_REF is DT_FLOAT + 100: old graph-mode variables' reference types


def datatype_number(dtype) -> int:
    """The DataType number TensorFlow stores for `dtype` (a DType, NumPy dtype or name)."""
    dtype = _dtypes.as_dtype(dtype)
    try:
        return _NUMBER[dtype.name]
    except KeyError:
        raise TypeError(f"dtype {dtype.name} has no TensorFlow DataType number") from None


def dtype_from_number(number: int):
    """The eagerflow DType for a stored DataType number (reference types read as their value type).

    Raises ValueError for a number TensorFlow does not define or eagerflow cannot hold."""
    number = int(number)
    if number > REF_OFFSET:
        number -= REF_OFFSET
    name = _NAME.get(number)
    if name is None:
        raise ValueError(f"DataType {number} is not one eagerflow can hold")
    try:
        return _dtypes.as_dtype(name)
    except (TypeError, ValueError, KeyError):
        raise ValueError(f"DataType {name} ({number}) is not one eagerflow can hold") from None
