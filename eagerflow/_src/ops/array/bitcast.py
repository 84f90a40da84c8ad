"""`tf.bitcast`: the same bytes read as another dtype, with TensorFlow's shape rule.

Equal item sizes keep the shape; a wider input gains a last dimension of (input size / output
size) (float32 -> uint8: [n] -> [n, 4]); a narrower one loses its last dimension, which must be
(output size / input size). Anything else is TensorFlow's "Cannot bitcast from A to B", where A
and B are the dtypes' DataType numbers (TensorFlow prints the enum: float is 1, uint8 is 4).
No gradient, as in TensorFlow; XLA compiles it (`lax.bitcast_convert_type` has the same rule).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..lazy_jax import lax
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop

# TensorFlow's DataType enum (types.proto), for its error message.
_DATATYPE_NUMBER = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7,
                    "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17, "complex128": 18,
                    "float16": 19, "resource": 20, "variant": 21, "uint32": 22, "uint64": 23}
_ALLOWED = (_dt.float16, _dt.float32, _dt.float64, _dt.int64, _dt.int32, _dt.uint8, _dt.uint16, _dt.uint32,
            _dt.uint64, _dt.int8, _dt.int16, _dt.complex64, _dt.complex128)


def _cannot(source, target):
    return InvalidArgumentError(None, None, f"Cannot bitcast from {_DATATYPE_NUMBER[source.name]} to "
                                            f"{_DATATYPE_NUMBER[target.name]}")


def _bitcast_shape(shape, source, target):
    """The result's shape (a list, None entries unknown), or raises TensorFlow's error."""
    a, b = source.size, target.size
    if a == b:
        return list(shape)
    if a > b:
        return list(shape) + [a // b]
    if not shape or (shape[-1] is not None and shape[-1] != b // a):
        err = _cannot(source, target)
        if shape and R.building_graph():  # TensorFlow's shape function says why
            err = InvalidArgumentError(None, None, f"{err.message} due to shape. {shape[-1]} does not match {b // a}")
        raise err
    return list(shape[:-1])


def _kernel(x, type):
    target = _dt.as_dtype(type)
    source = _dt.as_dtype(x.dtype)
    shape = _bitcast_shape(list(x.shape), source, target)
    return np.ascontiguousarray(x).reshape(-1).view(target.np_dtype).reshape(shape)


def _infer(inputs, attrs):
    x, target = inputs[0], attrs["type"]
    R.check_dtype_in("Bitcast", x.dtype, _ALLOWED, "input")
    R.check_dtype_in("Bitcast", target, _ALLOWED, "input", attr="type")
    if x.shape.rank is None:
        return [Spec(TensorShape(None), target)]
    return [Spec(TensorShape(_bitcast_shape(x.shape.as_list(), x.dtype, target)), target)]


Bitcast = defop("Bitcast", inputs=("input",), kernel=_kernel, infer=_infer, grad=NO_GRADIENT,
                doc="The same bytes as another dtype (tf.bitcast).")
Bitcast.jax = lambda x, type: lax.bitcast_convert_type(x, _dt.as_dtype(type).np_dtype)


def bitcast(input, type, name=None):
    """`tf.bitcast(input, type)`: no copy of meaning, only of bytes; see the module docstring."""
    return bind(Bitcast, (as_tensor(input),), {"type": _dt.as_dtype(type)})
