"""Reshape, Squeeze and ExpandDims (`tf.reshape`, `tf.squeeze`, `tf.expand_dims`): the ops that
change a tensor's shape but not its elements, so each one's gradient reshapes back to
`shape(op.inputs[0])`.

Their shape rules carry most of the code: TensorFlow checks the requested sizes at graph-building
time in one wording and in the kernel in another, and keeps every size it can know statically.
"""
from __future__ import annotations

import numbers
import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..lazy_jax import jnp, static_dims  # callables that import JAX on first use only
from ..operands import as_int_tensor, as_tensor, static_ints
from ..registry import Spec, bind, defop
from .passthrough import identity
from .shape_queries import shape
from .static_shapes import partly_known_shape

_NO_ATTRS: dict = {}

# --- Reshape -----------------------------------------------------------------------------------


def _reshape_infer(inputs, attrs):
    x, shp = inputs
    R.check_dtype_in("Reshape", shp.dtype, (_dt.int32, _dt.int64), "shape", attr="Tshape")
    if shp.shape.rank not in (None, 1):
        R.refuse(f"sizes input must be 1-D, not {R.fmt_dims(shp.shape)}",
                 f"Shape must be rank 1 but is rank {shp.shape.rank}")
    dims = static_ints(shp)
    if dims is None:
        return [Spec(partly_known_shape(shp), x.dtype)]
    unknown = _check_reshape_sizes(dims)
    if unknown is None:  # several -1: TensorFlow's shape function leaves it to the kernel
        return [Spec(TensorShape([None if d == -1 else d for d in dims]), x.dtype)]
    total = x.shape.num_elements()
    known = int(np.prod([d for d in dims if d != -1])) if dims else 1
    if unknown >= 0:
        if total is None:
            return [Spec(TensorShape([None if d == -1 else d for d in dims]), x.dtype)]
        if known == 0 and total:
            shown = "[" + ",".join("?" if d == -1 else str(d) for d in dims) + "]"
            R.refuse(f"Input to reshape is a tensor with {total} values, but the requested shape has 0",
                     f"Cannot reshape a tensor with {total} elements to shape {shown} (0 elements)")
        if known and total % known:
            R.refuse(f"Input to reshape is a tensor with {total} values, but the requested shape requires a "
                     f"multiple of {known}", f"Dimension size must be evenly divisible by {known} but is {total}")
        return [Spec(TensorShape([(total // known if known else 0) if d == -1 else d for d in dims]), x.dtype)]
    if total is not None and total != known:
        R.refuse(f"Input to reshape is a tensor with {total} values, but the requested shape has {known}",
                 f"Cannot reshape a tensor with {total} elements to shape {R.fmt_dims(TensorShape(dims))} "
                 f"({known} elements)")
    return [Spec(TensorShape(dims), x.dtype)]


def _check_reshape_sizes(dims):
    """Reshape's checks of the requested sizes, in TensorFlow's order and words: the position of the
    one -1 (-1 for none), or None for several while building a graph (refused when it runs)."""
    unknown = -1
    for i, d in enumerate(dims):
        if d == -1:
            if unknown >= 0:
                R.refuse(f"Only one input size may be -1, not both {unknown} and {i}")
                return None
            unknown = i
        elif d < 0:
            R.refuse(f"Size {i} must be non-negative, not {d}", f"Invalid value in tensor used for shape: {d}")
    return unknown


def _reshape_kernel(x, sizes):
    sizes = tuple(sizes.tolist()) if isinstance(sizes, np.ndarray) else tuple(int(d) for d in sizes)
    if sizes and min(sizes) < -1:  # NumPy takes any negative size for the unknown one
        raise ValueError("negative size")
    return x.reshape(sizes) if isinstance(x, np.ndarray) else np.reshape(x, sizes)


Reshape = defop("Reshape", inputs=("tensor", "shape"), infer=_reshape_infer, kernel=_reshape_kernel,
                grad=lambda op, g: (reshape(g, shape(op.inputs[0])), None))


def reshape(tensor, shape, name=None):
    x = as_tensor(tensor)
    if state.graph is not None:
        if shape is None:  # TensorFlow names the argument it failed to convert while building a graph
            raise ValueError("Tried to convert 'shape' to a tensor and failed. Error: None values not supported.")
        if _keeps_static_shape(x, shape):
            return identity(x)
    return bind(Reshape, (x, as_int_tensor(shape)))


def _keeps_static_shape(x, shape) -> bool:
    """A traced reshape to a Python shape of several -1 that the input's known shape already has
    (`tf.reshape(x, [-1, -1])` of a [2, 3] tensor): TensorFlow's graph gives the input back (its
    shape function fills the unknown sizes from the input and the graph optimizer drops a reshape
    to the same shape), where eagerly the kernel refuses the two -1."""
    if not isinstance(shape, (list, tuple)) or not x.shape.is_fully_defined() or len(shape) != x.shape.rank:
        return False
    if not all(isinstance(d, numbers.Integral) for d in shape) or sum(d == -1 for d in shape) < 2:
        return False
    return all(d == -1 or d == n for d, n in zip(shape, x.shape.as_list()))


# --- Squeeze / ExpandDims -------------------------------------------------------------------------

def _squeeze_dims(shape, dims):
    """Output dims of Squeeze on a partial shape; None when the rank is unknown."""
    if shape.rank is None:
        return None
    r = shape.rank
    for i, d in enumerate(dims):
        if not -r <= d < r:
            R.refuse(f"Tried to squeeze dim index {d} for tensor with {r} dimensions.",
                     f"squeeze_dims[{i}] not in [{-r},{r}).")
    wanted = {d % r for d in dims}
    out = []
    for i, n in enumerate(shape):
        if i in wanted:
            if n is not None and n != 1:
                raise InvalidArgumentError(None, None, f"Can not squeeze dim[{i}], expected a dimension of 1, got {n}")
        elif dims or n != 1:
            out.append(n)
    return out


def _squeeze_infer(inputs, attrs):
    x = inputs[0]
    dims = attrs.get("squeeze_dims", ())
    if not dims and x.shape.rank is not None and None in x.shape.dims:
        return [Spec(TensorShape(None), x.dtype)]  # an unknown dim may or may not be squeezed
    out = _squeeze_dims(x.shape, dims)
    return [Spec(TensorShape(out), x.dtype)]


def _squeeze_kernel(x, squeeze_dims=()):
    return np.reshape(x, _squeeze_dims(TensorShape(x.shape), squeeze_dims))


Squeeze = defop("Squeeze", inputs=("input",), kernel=_squeeze_kernel, infer=_squeeze_infer,
                grad=lambda op, g: reshape(g, shape(op.inputs[0])))


def squeeze(input, axis=None, name=None):
    x = as_tensor(input)
    if axis is None:
        return bind(Squeeze, (x,))
    dims = [int(axis)] if isinstance(axis, (int, np.integer)) else [int(a) for a in axis]
    return bind(Squeeze, (x,), {"squeeze_dims": tuple(dims)} if dims else _NO_ATTRS)


def _expand_axis(axis, r):
    if not -1 - r <= axis <= r:
        R.refuse(f"Tried to expand dim index {axis} for tensor with {r} dimensions.",
                 f"dim {axis} not in the interval [{-1 - r}, {r}].")
    return axis + r + 1 if axis < 0 else axis


def _expand_dims_infer(inputs, attrs):
    x, axis = inputs
    a = static_ints(axis)
    if x.shape.rank is None:
        return [Spec(TensorShape(None), x.dtype)]
    if a is None:
        return [Spec(TensorShape([None] * (x.shape.rank + 1)), x.dtype)]
    if len(a) != 1:
        raise InvalidArgumentError(None, None, f"'dim' must be a tensor with a single value, got {len(a)} values")
    dims = list(x.shape)
    dims.insert(_expand_axis(a[0], x.shape.rank), 1)
    return [Spec(TensorShape(dims), x.dtype)]


def _expand_dims_kernel(x, axis):
    a = np.ravel(axis)
    if a.size != 1:
        raise InvalidArgumentError(None, None, f"'dim' must be a tensor with a single value, got {a.size} values")
    return np.expand_dims(x, _expand_axis(int(a[0]), x.ndim))


ExpandDims = defop("ExpandDims", inputs=("input", "dim"), kernel=_expand_dims_kernel, infer=_expand_dims_infer,
                   grad=lambda op, g: (reshape(g, shape(op.inputs[0])), None))


def expand_dims(input, axis, name=None):
    return bind(ExpandDims, (as_tensor(input), as_int_tensor(axis)))


newaxis = None

Reshape.jax = lambda x, s: jnp.reshape(x, static_dims(s))
Squeeze.jax = lambda x, squeeze_dims=(): jnp.reshape(x, _squeeze_dims(TensorShape(x.shape), squeeze_dims))
ExpandDims.jax = lambda x, axis: jnp.expand_dims(x, _expand_axis(int(np.ravel(axis)[0]), x.ndim))
