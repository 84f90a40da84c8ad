"""NumPy arrays to and from TensorFlow's `TensorProto` (a constant in a graph, a value in a summary or signature).

Writing: number arrays as `tensor_content` (little-endian bytes), strings as one `string_val` per element,
as TensorFlow writes non-scalar constants. Reading accepts both forms TensorFlow writes: `tensor_content`, or a
typed list (`float_val`, `int_val`, `half_val`, ...) that may be shorter than the shape, its last element then
repeated (how TensorFlow stores a filled constant) and an empty list meaning zeros. Sizes are checked before
anything is allocated; a value that does not fit its shape raises ValueError saying why (callers name the file).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dtypes
from .dtypes import datatype_number, dtype_from_number

MAX_ELEMENTS = 1 << 31  # a stored constant larger than this is refused rather than allocated

# DataType name -> the typed-list field that holds its values in a TensorProto.
_LIST_FIELD = {"float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val",
               "int8": "int_val", "uint8": "int_val", "uint16": "int_val", "int64": "int64_val", "bool": "bool_val",
               "float16": "half_val", "bfloat16": "half_val", "uint32": "uint32_val", "uint64": "uint64_val",
               "complex64": "scomplex_val", "complex128": "dcomplex_val", "string": "string_val"}


def shape_proto(dims, proto=None):
    """Fill a TensorShapeProto from `dims` (None: unknown rank; None or -1 entries: unknown sizes)."""
    from .protos import tensor_shape_pb2

    proto = tensor_shape_pb2.TensorShapeProto() if proto is None else proto
    proto.SetInParent()  # a scalar's empty shape is still written, as TensorFlow writes it
    if dims is None:
        proto.unknown_rank = True
        return proto
    for size in dims:
        proto.dim.add(size=-1 if size is None else int(size))
    return proto


def shape_from_proto(proto):
    """A list of sizes (None for unknown) from a TensorShapeProto, or None for an unknown rank."""
    if proto.unknown_rank:
        return None
    return [None if d.size < 0 else int(d.size) for d in proto.dim]


def tensor_proto(array, dtype=None):
    """A TensorProto holding `array` (dtype: a DType or name; default: the array's)."""
    from .protos import tensor_pb2

    array = np.asarray(array)
    if dtype is None:
        dtype = _dtypes.string if array.dtype.kind in "SUO" else _dtypes.from_numpy(array.dtype)
    dtype = _dtypes.as_dtype(dtype)
    proto = tensor_pb2.TensorProto(dtype=datatype_number(dtype))
    shape_proto(array.shape, proto.tensor_shape)
    if dtype == _dtypes.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode("utf-8")
                                for v in array.reshape(-1).tolist())
    else:
        native = _dtypes.cast_array(array, dtype)
        proto.tensor_content = np.ascontiguousarray(native).astype(
            dtype.np_dtype.newbyteorder("<"), copy=False).tobytes()
    return proto


def tensor_value(proto) -> np.ndarray:
    """The NumPy array a TensorProto holds (strings: an object array of bytes). ValueError if inconsistent."""
    dtype = dtype_from_number(proto.dtype)
    shape = shape_from_proto(proto.tensor_shape)
    if shape is None or any(d is None for d in shape):
        raise ValueError(f"a constant must have a fully known shape, not {shape}")
    count = int(np.prod(shape, dtype=np.float64))
    if count > MAX_ELEMENTS:
        raise ValueError(f"a constant of shape {shape} has more than {MAX_ELEMENTS} elements")
    if dtype == _dtypes.string:
        values = list(proto.string_val)
        return _fill(np.array(values + [b""] * (not values), dtype=object), count, shape, "string_val")
    np_dtype = dtype.np_dtype
    if proto.tensor_content:
        if len(proto.tensor_content) != count * np_dtype.itemsize:
            raise ValueError(f"tensor_content holds {len(proto.tensor_content)} bytes; shape {shape} of "
                             f"{dtype.name} needs {count * np_dtype.itemsize}")
        return np.frombuffer(proto.tensor_content, np_dtype.newbyteorder("<")).astype(np_dtype).reshape(shape)
    field = _LIST_FIELD.get(dtype.name)
    if field is None:
        raise ValueError(f"a {dtype.name} constant cannot be read")
    values = list(getattr(proto, field))
    if field == "half_val":
        bits = np.array(values or [0], np.uint16)
        flat = bits.view(np_dtype)  # the 16 bits of a float16 or bfloat16
    elif field in ("scomplex_val", "dcomplex_val"):
        pairs = np.array(values or [0, 0], np.float64).reshape(-1, 2)
        flat = (pairs[:, 0] + 1j * pairs[:, 1]).astype(np_dtype)
    else:
        flat = np.array(values or [0], dtype=np.float64 if field in ("float_val", "double_val") else None)
        flat = flat.astype(np_dtype) if dtype.name != "bfloat16" else _dtypes.cast_array(flat, dtype)
    return _fill(flat, count, shape, field)


def _fill(flat, count, shape, field):
    if len(flat) > count and count > 0:
        raise ValueError(f"{field} holds {len(flat)} values for shape {shape}")
    if len(flat) < count:
        flat = np.concatenate([flat, np.repeat(flat[-1:], count - len(flat))])
    return flat[:count].reshape(shape)
