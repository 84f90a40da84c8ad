"""Tensors of one repeated value: Fill, ZerosLike and OnesLike (`tf.fill`, `tf.zeros`, `tf.ones`,
`tf.zeros_like`, `tf.ones_like`).

The traps live here: the zero of a tf.string tensor is the empty string and that of a variant
column a column of zero variants, and tf.zeros/tf.ones convert a shape argument of floats or text
as TensorFlow does in each mode (a TypeError eagerly, truncation while tracing).
"""
from __future__ import annotations

import numbers
import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.convert import convert_to_tensor
from ...core.shape import TensorShape
from ...core.variant import VariantValue
from .. import shape_rules as R
from ..lazy_jax import jnp, static_dims  # callables that import JAX on first use only
from ..math import reduce as _reduce
from ..operands import as_int_tensor, as_tensor, static_ints
from ..registry import Spec, bind, defop
from .casting import cast
from .reshaping import reshape
from .static_shapes import partly_known_shape

_NO_ATTRS: dict = {}


def _zeros_like_kernel(x):
    if isinstance(x, np.ndarray) and x.dtype == object:
        if _holds_strings(x):  # tf.string's zero is the empty string, as in TensorFlow
            return np.full(x.shape, b"", dtype=object)
        return _zero_variants(x)
    return np.zeros_like(x)


def _holds_strings(column):
    """tf.string tensors are object arrays too (of bytes), as are variant columns (of variants,
    or of arrays standing for zero ones)."""
    return any(isinstance(v, (bytes, str)) for v in column.flat)


def _zero_variants(column):
    """Zeros of a column of variants (what a loop keeps of a cond per iteration) are zero variants,
    each its entry's own zero (a TensorList's is a list of zeros), never NumPy's plain 0: a 0 read
    back out of the column is no tensor, and AddN, which adds variants through their `+`, could
    not start from it."""
    out = np.empty(column.shape, dtype=object)
    for i, v in np.ndenumerate(column):
        out[i] = np.zeros_like(v) if isinstance(v, VariantValue) else VariantValue(None)
    return out


ZerosLike = defop("ZerosLike", grad=lambda op, g: None, infer=R.unary(), kernel=_zeros_like_kernel)
OnesLike = defop("OnesLike", grad=lambda op, g: None, infer=R.unary(),
                 kernel=lambda x: np.ones_like(x))


def _fill_infer(inputs, attrs):
    dims_shape, value_shape = inputs[0].shape, inputs[1].shape
    if dims_shape.rank not in (None, 1):
        R.refuse(f"dims must represent a vector, got shape {R.fmt_dims(dims_shape)}",
                 f"Shape must be rank 1 but is rank {dims_shape.rank}")
    if value_shape.rank not in (None, 0):
        R.refuse(f"value must represent a scalar, got shape {R.fmt_dims(value_shape)}",
                 f"Shape must be rank 0 but is rank {value_shape.rank}")
    dims = static_ints(inputs[0])
    if dims is None:
        return [Spec(partly_known_shape(inputs[0]), inputs[1].dtype)]
    negative = [d for d in dims if d < 0]
    if negative:
        R.refuse(f"Dimension {negative[0]} must be >= 0", "Fill dimensions must be >= 0")
    return [Spec(TensorShape(dims), inputs[1].dtype)]


def _fill_kernel(dims, value):
    if np.ndim(value) != 0:  # NumPy would broadcast it
        raise ValueError("value must be a scalar")
    return np.full(tuple(int(d) for d in dims), value, dtype=np.asarray(value).dtype)


Fill = defop("Fill", inputs=("dims", "value"), infer=_fill_infer, kernel=_fill_kernel,
             grad=lambda op, g: (None, _reduce.reduce_sum(g)))


def zeros_like(input, dtype=None, name=None):
    x = as_tensor(input)
    out = bind(ZerosLike, (x,))
    return out if dtype is None else cast(out, dtype)


def ones_like(input, dtype=None, name=None):
    x = as_tensor(input)
    out = bind(OnesLike, (x,))
    return out if dtype is None else cast(out, dtype)


def fill(dims, value, name=None):
    """`tf.fill`; a scalar `dims` (`tf.zeros(2)`) means a vector of that length, as in TensorFlow."""
    listed = [dims] if isinstance(dims, numbers.Number) else dims
    if isinstance(listed, (list, tuple)) and any(
            isinstance(d, numbers.Number) and not isinstance(d, numbers.Integral) for d in listed):
        convert_to_tensor(dims, dtype=_dt.int32)  # a float in a shape: TF's TypeError (eager or graph wording)
    dims = as_int_tensor(listed)  # Python ints: int32, or int64 when one does not fit (an impossible size)
    if dims.shape.rank == 0:
        dims = reshape(dims, [1])
    return bind(Fill, (dims, as_tensor(value)), _NO_ATTRS, name)


def _filled_shape(shape):
    """The shape argument of tf.zeros and tf.ones. A Python value that is not integers is converted
    to int32 as TensorFlow does, raising its TypeError for text and floats; except while tracing,
    where TensorFlow builds a small filled tensor (under 1000 elements) as a constant and truncates
    Python floats in its shape (`tf.ones([2.5])` has shape [2] in a tf.function)."""
    listed = [shape] if isinstance(shape, (numbers.Number, str, bytes)) else shape
    if not isinstance(listed, (list, tuple)) or not any(
            isinstance(d, (str, bytes)) or (isinstance(d, numbers.Number) and not isinstance(d, numbers.Integral))
            for d in listed):
        return shape
    if state.graph is not None and shape is listed and all(isinstance(d, numbers.Real) for d in listed) \
            and np.prod(listed) < 1000:
        return [int(d) for d in listed]
    convert_to_tensor(shape, dtype=_dt.int32)  # TensorFlow's TypeError, in the words of the mode
    return shape


def zeros(shape, dtype=_dt.float32, name=None):
    dtype = _dt.as_dtype(dtype)
    zero = np.zeros((), dtype.np_dtype) if dtype is not _dt.string else b""
    return fill(_filled_shape(shape), convert_to_tensor(zero), name=name or "zeros")  # TensorFlow's node name


def ones(shape, dtype=_dt.float32, name=None):
    dtype = _dt.as_dtype(dtype)
    return fill(_filled_shape(shape), convert_to_tensor(np.ones((), dtype.np_dtype)), name=name or "ones")


ZerosLike.jax = lambda x: jnp.zeros_like(x)
OnesLike.jax = lambda x: jnp.ones_like(x)
Fill.jax = lambda dims, value: jnp.full(static_dims(dims), value, dtype=value.dtype)
