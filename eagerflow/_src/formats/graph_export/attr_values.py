"""Python values of eagerflow op attributes as TensorFlow AttrValue / TensorShapeProto / TensorProto
data (dicts with the messages' field names), converted by the attribute's type in TensorFlow's OpDef."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..dtypes import datatype_number as datatype


class ExportError(ValueError):
    """A graph holds something TensorFlow's format cannot express; the message names the op."""


def shape_proto(shape) -> dict:
    """TensorShapeProto: unknown rank, or one dim per axis (-1 for an unknown size)."""
    shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    if shape.rank is None:
        return {"unknown_rank": True}
    return {"dim": [{"size": -1 if d is None else int(d)} for d in shape.as_list()]}


def tensor_proto(value, dtype=None) -> dict:
    """TensorProto of an array: little-endian bytes in `tensor_content`, strings in `string_val`."""
    array = np.asarray(value)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    dtype = _dt.from_numpy(array.dtype) if dtype is None else _dt.as_dtype(dtype)
    out = {"dtype": datatype(dtype), "tensor_shape": shape_proto(TensorShape(array.shape))}
    if dtype is _dt.string:
        out["string_val"] = [v if isinstance(v, bytes) else str(v).encode() for v in array.reshape(-1).tolist()]
    elif dtype in (_dt.resource, _dt.variant):
        raise ExportError(f"a constant {dtype.name} tensor cannot be written to a file")
    else:
        out["tensor_content"] = np.ascontiguousarray(array).tobytes()
    return out


def _as_bytes(value):
    return value if isinstance(value, bytes) else str(value).encode()


# TensorFlow attr type -> converter of a Python value to the AttrValue's set field.
_SCALAR = {
    "int": lambda v: {"i": int(v)},
    "float": lambda v: {"f": float(v)},
    "bool": lambda v: {"b": bool(v)},
    "string": lambda v: {"s": _as_bytes(v)},
    "type": lambda v: {"type": datatype(v)},
    "shape": lambda v: {"shape": shape_proto(v)},
    "tensor": lambda v: {"tensor": tensor_proto(v)},
    "func": lambda v: {"func": {"name": v}},
}
_LIST = {
    "list(int)": ("i", int),
    "list(float)": ("f", float),
    "list(bool)": ("b", bool),
    "list(string)": ("s", _as_bytes),
    "list(type)": ("type", datatype),
    "list(shape)": ("shape", shape_proto),
    "list(tensor)": ("tensor", tensor_proto),
    "list(func)": ("func", lambda v: {"name": v}),
}


def attr_value(attr_type: str, value) -> dict:
    """The AttrValue data for `value` given TensorFlow's attribute type (`int`, `list(type)`, ...)."""
    if attr_type in _SCALAR:
        return _SCALAR[attr_type](value)
    if attr_type in _LIST:
        field, convert = _LIST[attr_type]
        return {"list": {field: [convert(v) for v in value]}}
    raise ExportError(f"an attribute of type {attr_type}")
