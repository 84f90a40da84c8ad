"""TensorProto <-> NumPy for the gRPC API, through formats/tensor_proto.py (the project's one converter),
with the server's own limit: a request's short value list repeats its last value to fill the shape, so a
few bytes on the wire could otherwise ask for any amount of memory."""
from __future__ import annotations

import numpy as np

from .._src.formats.dtypes import dtype_from_number
from .._src.formats.tensor_proto import tensor_proto, tensor_value
from .errors import invalid_argument

MAX_TENSOR_BYTES = 1 << 30


def to_array(proto) -> np.ndarray:
    """The tensor a request's TensorProto holds; INVALID_ARGUMENT saying why for one that is malformed."""
    try:
        dtype = dtype_from_number(proto.dtype)
    except ValueError as err:
        raise invalid_argument(f"Unsupported tensor dtype: {err}") from None
    shape = [d.size for d in proto.tensor_shape.dim]
    itemsize = 1 if dtype.name == "string" else np.dtype(dtype.as_numpy_dtype).itemsize
    if not proto.tensor_shape.unknown_rank and all(s >= 0 for s in shape) and \
            float(np.prod(shape, dtype=np.float64)) * itemsize > MAX_TENSOR_BYTES:
        raise invalid_argument(f"a tensor of shape {shape} and dtype {dtype.name} is larger than the server's "
                               f"limit of {MAX_TENSOR_BYTES} bytes")
    try:
        return tensor_value(proto)
    except (ValueError, TypeError) as err:
        raise invalid_argument(f"Cannot parse the tensor: {err}") from None


def to_proto(array: np.ndarray, proto) -> None:
    """Fill the (empty) TensorProto `proto` with `array`."""
    proto.CopyFrom(tensor_proto(np.asarray(array)))
