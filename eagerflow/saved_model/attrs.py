"""The typed encoding of op attributes: every attribute value as JSON, without pickle.

An attribute is a JSON scalar (bool, int, string, null, finite float) or a one-key object naming
its type:
    {"float": "inf"}              a non-finite float ("inf", "-inf", "nan")
    {"list": [...]} {"tuple": [...]}   sequences (the distinction matters to kernels)
    {"dict": [[key, value], ...]} a dict with string keys, in order
    {"dtype": "float32"}          a DType
    {"shape": [2, null]}          a TensorShape; {"shape": null} for an unknown rank
    {"tensor": {file, dtype, shape, sha256}}   an ndarray, stored in its own .npy file
    {"scalar": [dtype, value]}    a NumPy scalar (np.float32(1.5))
    {"graph": {...}}              a sub-graph (an If's branch, a While's body): graph_io.py
Anything else (a Python callable, an arbitrary object) cannot be saved: the writer raises a
ValueError naming the op, and the reader accepts only the forms above (DataLossError otherwise).
"""
from __future__ import annotations

import math

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.shape import TensorShape
from .files import data_loss

MAX_DEPTH = 32  # nesting of lists/dicts inside one attribute
MAX_RANK = 64
_SPECIAL_FLOATS = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}
_SCALAR_DTYPES = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
                  "uint32", "uint64", "bool", "complex64", "complex128"}


class Unsavable(ValueError):
    """An attribute value the format cannot hold; the writer turns it into a message naming the op."""


def encode(value, writer, depth=0):
    """`writer` has `tensor(array) -> ref` and `graph(branch) -> dict` (graph_io.py)."""
    if depth > MAX_DEPTH:
        raise Unsavable("an attribute nested more than 32 levels deep")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, np.generic):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {"float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if isinstance(value, _dt.DType):
        return {"dtype": value.name}
    if isinstance(value, TensorShape):
        return {"shape": None if value.rank is None else value.as_list()}
    if isinstance(value, np.ndarray):
        return {"tensor": writer.tensor(value)}
    if isinstance(value, np.generic):
        name = _dt.from_numpy(value.dtype).name if value.dtype.name in _SCALAR_DTYPES or value.dtype == np.bool_ \
            else None
        if name is None:
            raise Unsavable(f"a NumPy scalar of dtype {value.dtype}")
        item = value.item()
        if isinstance(item, complex):
            item = [item.real, item.imag]
        return {"scalar": [name, encode(item, writer, depth + 1) if not isinstance(item, list) else item]}
    if isinstance(value, list):
        return {"list": [encode(v, writer, depth + 1) for v in value]}
    if isinstance(value, tuple) and not hasattr(type(value), "_fields"):
        return {"tuple": [encode(v, writer, depth + 1) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"dict": [[k, encode(v, writer, depth + 1)] for k, v in value.items()]}
    if hasattr(value, "externals") and hasattr(value, "graph"):  # a traced branch or loop body
        return {"graph": writer.graph(value)}
    if callable(value):
        raise Unsavable(f"a Python callable ({getattr(value, '__name__', type(value).__name__)})")
    raise Unsavable(f"a Python object of type {type(value).__name__}")


def decode(obj, reader, where, depth=0):
    """The attribute value `obj` encodes; `reader` has `tensor(ref, where)` and `graph(doc, where)`.
    Raises DataLossError for anything not written by `encode`."""
    if depth > MAX_DEPTH:
        raise data_loss(where, "attribute nested too deeply")
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return obj
    if isinstance(obj, float):
        return obj
    if isinstance(obj, list) or not isinstance(obj, dict) or len(obj) != 1:
        raise data_loss(where, "an attribute must be a JSON scalar or a one-key typed object")
    (kind, body), = obj.items()
    if kind == "float":
        if body not in _SPECIAL_FLOATS:
            raise data_loss(where, f"unknown special float {str(body)[:20]!r}")
        return _SPECIAL_FLOATS[body]
    if kind in ("list", "tuple"):
        if not isinstance(body, list):
            raise data_loss(where, f"a {kind} attribute must hold a JSON array")
        items = [decode(v, reader, where, depth + 1) for v in body]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        if not isinstance(body, list) or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                                                 for p in body):
            raise data_loss(where, "a dict attribute must hold [string, value] pairs")
        return {k: decode(v, reader, where, depth + 1) for k, v in body}
    if kind == "dtype":
        return decode_dtype(body, where)
    if kind == "shape":
        return decode_shape(body, where)
    if kind == "tensor":
        return reader.tensor(body, where)
    if kind == "scalar":
        if not (isinstance(body, list) and len(body) == 2 and body[0] in _SCALAR_DTYPES):
            raise data_loss(where, "a scalar attribute must be [dtype name, value]")
        dtype = np.dtype(_dt.as_dtype(body[0]).np_dtype)
        value = body[1]
        if dtype.kind == "c":
            if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)):
                raise data_loss(where, "a complex scalar must be [real, imaginary]")
            value = complex(*value)
        else:
            value = decode(value, reader, where, depth + 1)
            if not isinstance(value, (bool, int, float)):
                raise data_loss(where, "a scalar attribute must hold a number")
        try:
            with np.errstate(all="ignore"):
                return dtype.type(value)
        except (OverflowError, ValueError, TypeError):
            raise data_loss(where, f"{str(value)[:40]} does not fit a {dtype}") from None
    if kind == "graph":
        return reader.graph(body, where)
    raise data_loss(where, f"unknown attribute type {kind[:40]!r}")


def decode_dtype(name, where):
    if not isinstance(name, str) or name not in _dt._BY_NAME:
        raise data_loss(where, f"unknown dtype {str(name)[:40]!r}")
    return _dt.as_dtype(name)


def decode_shape(dims, where):
    if dims is None:
        return TensorShape(None)
    if not (isinstance(dims, list) and len(dims) <= MAX_RANK
            and all(d is None or (type(d) is int and 0 <= d < 2 ** 62) for d in dims)):
        raise data_loss(where, "a shape must be null or a list of at most 64 dimensions (non-negative ints "
                               "or null)")
    return TensorShape(dims)


def encode_dtype(dtype):
    return dtype.name


def encode_shape(shape):
    return None if shape.rank is None else shape.as_list()
