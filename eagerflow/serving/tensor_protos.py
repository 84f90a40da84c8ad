"""TensorProto <-> NumPy for the gRPC API. Requests may carry `tensor_content` (raw little-endian bytes)
or the typed value lists (a list shorter than the shape repeats its last value, TensorFlow's rule);
responses use the typed lists, as TensorFlow Serving writes them by default."""
from __future__ import annotations

import numpy as np

from .._src.formats.dtypes import datatype_number, dtype_from_number
from .errors import invalid_argument

# A request's tensor may not be larger than this: a short value list repeats its last value to fill the
# shape, so a few bytes on the wire could otherwise ask for any amount of memory.
MAX_TENSOR_BYTES = 1 << 30
# numpy kind/size -> the TensorProto list field holding it
_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val",
           "int8": "int_val", "uint8": "int_val", "uint16": "int_val", "int64": "int64_val", "bool": "bool_val",
           "uint32": "uint32_val", "uint64": "uint64_val", "complex64": "scomplex_val", "complex128": "dcomplex_val",
           "float16": "half_val", "bfloat16": "half_val"}


def _numpy_dtype(dtype):
    return np.dtype(object) if dtype.name == "string" else np.dtype(dtype.as_numpy_dtype)


def to_array(proto) -> np.ndarray:
    """The tensor a TensorProto holds; INVALID_ARGUMENT naming the problem for one that is malformed."""
    try:
        dtype = dtype_from_number(proto.dtype)
    except ValueError as err:
        raise invalid_argument(f"Unsupported tensor dtype: {err}") from None
    if proto.tensor_shape.unknown_rank:
        raise invalid_argument("Cannot parse a tensor of unknown rank")
    shape = tuple(d.size for d in proto.tensor_shape.dim)
    if any(s < 0 for s in shape):
        raise invalid_argument(f"Cannot parse a tensor of shape {list(shape)}: negative dimension")
    size = int(np.prod(shape, dtype=np.int64))
    target = _numpy_dtype(dtype)
    if size * target.itemsize > MAX_TENSOR_BYTES:
        raise invalid_argument(f"a tensor of shape {list(shape)} and dtype {dtype.name} is larger than the "
                               f"server's limit of {MAX_TENSOR_BYTES} bytes")
    if dtype.name == "string":
        values = list(proto.string_val)
        array = np.empty(len(values), dtype=object)
        array[:] = values
    elif proto.tensor_content:
        if len(proto.tensor_content) != size * target.itemsize:
            raise invalid_argument(f"tensor_content holds {len(proto.tensor_content)} bytes; a {dtype.name} tensor "
                                   f"of shape {list(shape)} needs {size * target.itemsize}")
        return np.frombuffer(proto.tensor_content, dtype=target.newbyteorder("<")).astype(target).reshape(shape)
    else:
        field = _FIELDS.get(dtype.name)
        if field is None:
            raise invalid_argument(f"Unsupported tensor dtype: {dtype.name}")
        values = getattr(proto, field)
        if field == "half_val":
            array = np.array(values, np.int64).astype(np.uint16).view(target)
        elif field in ("scomplex_val", "dcomplex_val"):
            pairs = np.array(values, target.type(0).real.dtype)
            array = pairs[0::2] + 1j * pairs[1::2]
        else:
            array = np.array(values, dtype=np.int64 if field == "int_val" else None)
        array = array.astype(target) if array.size else np.zeros(0, target)
    if array.size > size:
        raise invalid_argument(f"the tensor holds {array.size} values but its shape {list(shape)} holds {size}")
    if array.size < size:
        fill = array[-1] if array.size else (b"" if target == np.dtype(object) else target.type(0))
        array = np.concatenate([array, np.full(size - array.size, fill, dtype=target)])
    return array.reshape(shape)


def to_proto(array: np.ndarray, proto) -> None:
    """Fill the (empty) TensorProto `proto` with `array`."""
    array = np.asarray(array)
    if array.dtype == np.dtype(object) or array.dtype.kind in "SU":
        proto.dtype = datatype_number("string")
        proto.string_val.extend(x if isinstance(x, bytes) else str(x).encode("utf-8") for x in array.reshape(-1))
    else:
        name = array.dtype.name
        proto.dtype = datatype_number(name)
        field = _FIELDS[name]
        flat = array.reshape(-1)
        if field == "half_val":
            values = flat.view(np.uint16).astype(np.int32)
        elif field in ("scomplex_val", "dcomplex_val"):
            values = np.stack([flat.real, flat.imag], axis=1).reshape(-1)
        else:
            values = flat
        getattr(proto, field).extend(values.tolist())
    for size in array.shape:
        proto.tensor_shape.dim.add().size = size
