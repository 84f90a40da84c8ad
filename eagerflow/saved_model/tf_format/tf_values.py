"""AttrValue and TensorProto messages read as eagerflow's Python attribute values, with the sizes a
file declares checked against the bytes it holds before anything is allocated."""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.core.shape import TensorShape
from ..._src.formats.dtypes import dtype_from_number

MAX_ELEMENTS = 1 << 28  # a constant larger than this (1 GiB of float32) is refused as absurd
MAX_DECLARED_ELEMENTS = 1 << 31  # a declared static shape larger than this is refused as absurd

_TYPED_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val",
                 "int8": "int_val", "uint8": "int_val", "uint16": "int_val", "int64": "int64_val",
                 "uint32": "uint32_val", "uint64": "uint64_val", "bool": "bool_val", "float16": "half_val",
                 "bfloat16": "half_val", "complex64": "scomplex_val", "complex128": "dcomplex_val"}


class BadValue(ValueError):
    """An attribute or tensor that does not hold what it claims; the importer adds where."""


def dtype_of(number):
    try:
        return dtype_from_number(number)
    except ValueError as err:
        raise BadValue(str(err)) from None


def shape_of(proto) -> TensorShape:
    if proto.unknown_rank:
        return TensorShape(None)
    dims = [d.size for d in proto.dim]
    if len(dims) > 64 or any(d < -1 for d in dims):
        raise BadValue(f"a shape with dimensions {dims[:8]}")
    known = float(np.prod([d for d in dims if d > 0], dtype=np.float64)) if dims else 1.0
    if known > MAX_DECLARED_ELEMENTS:  # code generation plans buffers and tiles from static shapes
        raise BadValue(f"a shape of {known:.0f} elements ({dims[:8]})")
    return TensorShape([None if d == -1 else d for d in dims])


def tensor_of(proto) -> np.ndarray:
    """A TensorProto's value: `tensor_content` bytes, or the typed repeated field (fewer values than
    elements: the last one repeats, as TensorFlow writes splat constants)."""
    dtype = dtype_of(proto.dtype)
    shape = shape_of(proto.tensor_shape)
    if not shape.is_fully_defined():
        raise BadValue("a constant of unknown shape")
    dims = shape.as_list()
    count = int(np.prod(dims, dtype=np.float64))
    if count > MAX_ELEMENTS:
        raise BadValue(f"a constant of {count} elements")
    if dtype is _dt.string:
        values = list(proto.string_val)
        if len(values) > count or (count and not values):
            raise BadValue(f"a string constant of shape {dims} holding {len(values)} strings")
        out = np.empty(count, dtype=object)
        for i in range(count):
            out[i] = values[min(i, len(values) - 1)]
        return out.reshape(dims)
    if dtype.name in ("resource", "variant"):
        raise BadValue(f"a constant of dtype {dtype.name}")
    native = np.dtype(dtype.as_numpy_dtype)
    little = native.newbyteorder("<")
    if proto.tensor_content:
        if len(proto.tensor_content) != count * native.itemsize:
            raise BadValue(f"a constant of shape {dims} holding {len(proto.tensor_content)} bytes")
        return np.frombuffer(proto.tensor_content, dtype=little).astype(native).reshape(dims)
    field = _TYPED_FIELDS.get(dtype.name)
    values = list(getattr(proto, field)) if field else []
    if dtype.name in ("float16", "bfloat16"):
        values = np.array(values, np.uint16).view(native).tolist()
    elif dtype.is_complex:
        values = [complex(r, i) for r, i in zip(values[::2], values[1::2])]
    if len(values) > count:
        raise BadValue(f"a constant of shape {dims} holding {len(values)} values")
    array = np.zeros(count, native)
    if values:
        array[:len(values)] = values
        array[len(values):] = values[-1]
    return array.reshape(dims)


def attr_of(attr_value, attr_type):
    """An AttrValue as the Python value eagerflow's ops take, by TensorFlow's declared type."""
    which = attr_value.WhichOneof("value")
    if attr_type.startswith("list("):
        if which != "list":
            raise BadValue(f"a {attr_type} attribute holding {which}")
        lst = attr_value.list
        item = attr_type[5:-1]
        field = {"int": lst.i, "float": lst.f, "bool": lst.b, "string": lst.s, "type": lst.type,
                 "shape": lst.shape, "tensor": lst.tensor, "func": lst.func}.get(item)
        if field is None:
            raise BadValue(f"an attribute of type {attr_type}")
        return [_scalar(item, v) for v in field]
    expected = {"int": "i", "float": "f", "bool": "b", "string": "s", "type": "type", "shape": "shape",
                "tensor": "tensor", "func": "func"}.get(attr_type)
    if expected is None or which != expected:
        raise BadValue(f"a {attr_type} attribute holding {which}")
    return _scalar(attr_type, getattr(attr_value, which))


def _scalar(kind, value):
    if kind == "string":
        return value.decode("utf-8", "surrogateescape")
    if kind == "type":
        return dtype_of(value)
    if kind == "shape":
        return shape_of(value)
    if kind == "tensor":
        return tensor_of(value)
    if kind == "func":
        return value.name
    return value
