"""Array ops: constants, shapes, reshaping and transposing, filled tensors, identity, select,
broadcast and its reverse (sum_to), and cast. One defop block per TensorFlow op type.

This is the bottom op module: the gradient rules of every family are made of these ops, so it
imports no other op module at module level but math/reduce.py (which imports none itself).
The other array families have their own modules: joining.py (stack, concat, split, tile),
padding.py (pad, and slice: each the other's gradient), ordering.py (reverse, top_k, sort),
sequences.py (range, linspace, one_hot) and slicing.py (strided slices, gather, scatter, boolean_mask).
"""
from __future__ import annotations

import numbers
import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.convert import convert_to_tensor, to_array
from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ...core.variant import VariantValue
from .. import shape_rules as R
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..math import reduce as _reduce
from .branchless_select import select as _branchless_select
from ..operands import as_int_tensor, as_tensor, static_ints
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value

_NO_ATTRS: dict = {}


# --- Const ----------------------------------------------------------------------------------------

Const = defop("Const", inputs=(), grad=NO_GRADIENT, kernel=lambda value, dtype: value,
              infer=lambda inputs, attrs: [Spec(TensorShape(attrs["value"].shape), attrs["dtype"])],
              doc="A constant; its value is an attribute (in a graph: a `Const` node).")


def _value_text(t) -> str:
    value = static_value(t)
    return str(value) if value is not None else repr(t)


def constant(value, dtype=None, shape=None, name="Const"):
    """`tf.constant`: a tensor from a Python or NumPy value (always a copy), optionally cast to
    `dtype` and filled or reshaped to `shape`."""
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    if isinstance(value, Tensor) or hasattr(type(value), "_as_tensor"):
        t = as_tensor(value)
        if isinstance(value, Tensor) and dtype is not None and t.dtype is not dtype:
            # TensorFlow refuses to reinterpret a tensor here (a Variable, read, is cast: as TF does)
            raise TypeError(f"Expected tensor {_value_text(t)} with dtype {dtype!r}, but got dtype {t.dtype!r}.")
        arr = static_value(t)
        if arr is None:
            raise TypeError("tf.constant needs a concrete value; got a symbolic tensor (use tf.identity)")
        arr = np.array(arr)
        if dtype is not None:
            arr = arr.astype(dtype.np_dtype)
    else:
        arr = to_array(value, dtype, strict=True) if dtype is not None else to_array(value)
    if shape is not None:
        target = tuple(int(d) for d in shape)
        negative = [d for d in target if d < 0]
        if negative:
            raise ValueError(f"Dimension {negative[0]} must be >= 0")
        if arr.size == 1:
            arr = np.full(target, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == int(np.prod(target)):
            arr = arr.reshape(target)
        elif state.graph is not None:
            raise TypeError(f"Expected Tensor's shape: {target}, but got {arr.shape}.")
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {arr} (converted "
                            f"from {value!r}) has {arr.size} elements, but got `shape` {tuple(target)} with "
                            f"{int(np.prod(target))} elements).")
    # traced, a name of the caller's names the node as in TensorFlow ("five:0"); the default keeps auto-naming
    return bind(Const, (), {"value": arr, "dtype": _dt.from_numpy(arr.dtype)},
                name if name and name != "Const" and state.graph is not None else None)


# --- Shape, Size, Rank ------------------------------------------------------------------------

def _shape_infer(inputs, attrs):
    rank = inputs[0].shape.rank
    return [Spec(TensorShape([rank]), attrs.get("out_type", _dt.int32))]


Shape = defop("Shape", inputs=("input",), grad=NO_GRADIENT, infer=_shape_infer,
              kernel=lambda x, out_type=_dt.int32: np.array(np.shape(x), dtype=out_type.np_dtype))
Size = defop("Size", inputs=("input",), grad=NO_GRADIENT,
             infer=lambda inputs, attrs: [Spec(TensorShape([]), attrs.get("out_type", _dt.int32))],
             kernel=lambda x, out_type=_dt.int32: np.array(np.size(x), dtype=out_type.np_dtype))
Rank = defop("Rank", inputs=("input",), grad=NO_GRADIENT,
             infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.int32)],
             kernel=lambda x: np.array(np.ndim(x), dtype=np.int32))


def shape(input, out_type=_dt.int32, name=None):
    """`tf.shape`: the dynamic shape as an int32 tensor."""
    x = as_tensor(input)
    out_type = _dt.as_dtype(out_type)
    return bind(Shape, (x,), _NO_ATTRS if out_type is _dt.int32 else {"out_type": out_type})


def size(input, out_type=_dt.int32, name=None):
    x = as_tensor(input)
    out_type = _dt.as_dtype(out_type)
    return bind(Size, (x,), _NO_ATTRS if out_type is _dt.int32 else {"out_type": out_type})


def rank(input, name=None):
    return bind(Rank, (as_tensor(input),))


# --- Reshape -----------------------------------------------------------------------------------

def _reshape_infer(inputs, attrs):
    x, shp = inputs
    R.check_dtype_in("Reshape", shp.dtype, (_dt.int32, _dt.int64), "shape", attr="Tshape")
    if shp.shape.rank not in (None, 1):
        R.refuse(f"sizes input must be 1-D, not {R.fmt_dims(shp.shape)}",
                 f"Shape must be rank 1 but is rank {shp.shape.rank}")
    dims = static_ints(shp)
    if dims is None:
        return [Spec(_partly_known_sizes(shp), x.dtype)]
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


def _partly_known_sizes(shape_tensor):
    """The static shape a shape tensor known only in part gives (None for each size found only when
    running; Reshape's -1 stays unknown too, as the other sizes are not all known)."""
    from .static_shapes import shape_tensor_dims  # shape arithmetic; imports this module
    dims = shape_tensor_dims(shape_tensor)
    if dims is None:
        n = shape_tensor.shape[0] if shape_tensor.shape.rank == 1 else None
        return TensorShape(None if n is None else [None] * n)
    return TensorShape([None if d is None or d < 0 else d for d in dims])


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
    sizes = tuple(int(d) for d in sizes)
    if sizes and min(sizes) < -1:  # NumPy takes any negative size for the unknown one
        raise ValueError("negative size")
    return np.reshape(x, sizes)


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


# --- Transpose ---------------------------------------------------------------------------------

def _transpose_infer(inputs, attrs):
    x, perm = inputs
    p = static_ints(perm)
    if x.shape.rank is None or p is None:
        return [Spec(TensorShape(None if p is None else [None] * len(p)), x.dtype)]
    n = x.shape.rank
    if len(p) != n:
        R.refuse(f"transpose expects a vector of size {n}. But input(1) is a vector of size {len(p)}",
                 f"Dimension must be {n} but is {len(p)}")
    outside = next((d for d in p if not 0 <= d < n), None)
    if outside is not None:  # (TensorFlow's shape function leaves this to the kernel too)
        R.refuse(f"{outside} is out of range [0 .. {n})")
        return [Spec(TensorShape([None] * n), x.dtype)]
    missing = next((d for d in range(n) if d not in p), None)
    if missing is not None:
        R.refuse(f"{missing} is missing from {{{','.join(str(d) for d in p)}}}.")
    return [Spec(TensorShape([x.shape[i] for i in p]), x.dtype)]


Transpose = defop("Transpose", inputs=("x", "perm"), infer=_transpose_infer,
                  kernel=lambda x, p: np.transpose(x, tuple(int(i) for i in p)),
                  grad=lambda op, g: (transpose(g, invert_permutation(op.inputs[1])), None))
InvertPermutation = defop("InvertPermutation", grad=NO_GRADIENT,
                          infer=lambda inputs, attrs: [Spec(inputs[0].shape, inputs[0].dtype)],
                          kernel=lambda p: np.argsort(p).astype(p.dtype))


def invert_permutation(x, name=None):
    return bind(InvertPermutation, (as_int_tensor(x),))


def transpose(a, perm=None, conjugate=False, name="transpose"):
    x = as_tensor(a)
    if perm is None:
        r = x.shape.rank
        if r is None:
            perm = bind(_Range_rev, (rank(x),))
        else:
            perm = list(range(r - 1, -1, -1))
    out = bind(Transpose, (x, as_int_tensor(perm)))
    if conjugate and x.dtype.is_complex:  # TensorFlow: the conjugate transpose (adjoint)
        from ..math.elementwise import conj
        out = conj(out)
    return out


_Range_rev = defop("ReversedRange", grad=NO_GRADIENT,
                   infer=lambda inputs, attrs: [Spec(TensorShape([None]), _dt.int32)],
                   kernel=lambda n: np.arange(int(n) - 1, -1, -1, dtype=np.int32),
                   doc="perm for a transpose of unknown rank (TensorFlow builds it from Range and Sub).")


# --- Filled tensors ----------------------------------------------------------------------------

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
        return [Spec(_partly_known_sizes(inputs[0]), inputs[1].dtype)]
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


# --- Identity, StopGradient ------------------------------------------------------------------

Identity = defop("Identity", inputs=("input",), kernel=lambda x: x, infer=R.unary(), grad=lambda op, g: g)
StopGradient = defop("StopGradient", inputs=("input",), kernel=lambda x: x, infer=R.unary(),
                     grad=NO_GRADIENT)


def identity(input, name=None):
    return bind(Identity, (as_tensor(input),), name=name)


def stop_gradient(input, name=None):
    """Passes the value through; tapes see no gradient flowing back through it."""
    return bind(StopGradient, (as_tensor(input),))


# --- Where / SelectV2 --------------------------------------------------------------------------

def _select_infer(inputs, attrs):
    c, x, y = inputs
    R.check_input_dtype("SelectV2", inputs, 0, _dt.bool_)
    R.check_same_dtype("SelectV2", (x, y), first_index=1)
    if not R.building_graph():  # the kernel's words name all three shapes
        try:
            R.broadcast_shape(R.broadcast_shape(c.shape, x.shape), y.shape)
        except InvalidArgumentError:
            raise InvalidArgumentError(None, None, f"condition {R.fmt_dims(c.shape)}, then {R.fmt_dims(x.shape)}, "
                                                   f"and else {R.fmt_dims(y.shape)} must be broadcastable") from None
    shape = R.broadcast_shape(R.broadcast_shape(c.shape, x.shape), y.shape)
    return [Spec(shape, x.dtype)]


def _select_grad(op, g):
    c, x, y = op.inputs
    zeros = zeros_like(g)
    return None, sum_to(where(c, g, zeros), x), sum_to(where(c, zeros, g), y)


SelectV2 = defop("SelectV2", inputs=("condition", "t", "e"), infer=_select_infer, grad=_select_grad,
                 kernel=_branchless_select)
Where = defop("Where", inputs=("input",), grad=NO_GRADIENT,
              infer=lambda inputs, attrs: [Spec(TensorShape([None, inputs[0].shape.rank]), _dt.int64)],
              kernel=lambda c: np.argwhere(c).astype(np.int64))


def where(condition, x=None, y=None, name=None):
    """`tf.where`: elementwise select with broadcasting; with one argument, the true coordinates."""
    c = as_tensor(condition)
    if x is None and y is None:
        return bind(Where, (c,))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    if isinstance(x, Tensor) or not isinstance(y, Tensor):
        x = as_tensor(x)
        y = as_tensor(y, x.dtype)
    else:
        y = as_tensor(y)
        x = as_tensor(x, y.dtype)
    return bind(SelectV2, (c, x, y))


# --- BroadcastTo ---------------------------------------------------------------------------------

def _broadcast_to_infer(inputs, attrs):
    x, shp = inputs
    dims = static_ints(shp)
    if dims is None:
        n = shp.shape[0] if shp.shape.rank == 1 else None
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    target = TensorShape(dims)
    out = R.broadcast_shape(x.shape, target)
    if out != target and out.is_fully_defined():
        raise InvalidArgumentError(None, None, f"Unable to broadcast tensor of shape {R.fmt_dims(x.shape)} to tensor "
                                               f"of shape {R.fmt_dims(target)}")
    return [Spec(target, x.dtype)]


BroadcastTo = defop("BroadcastTo", inputs=("input", "shape"), infer=_broadcast_to_infer,
                    kernel=lambda x, s: np.broadcast_to(x, tuple(int(d) for d in s)).copy(),
                    grad=lambda op, g: (sum_to(g, op.inputs[0]), None))


def broadcast_to(input, shape, name=None):
    return bind(BroadcastTo, (as_tensor(input), as_int_tensor(shape)))


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


# --- Cast, and SumToShape (BroadcastTo's reverse) ---------------------------------------------
# Here rather than in math/: every gradient rule of the array and math families reduces a broadcast
# gradient (sum_to) or casts, so these two sit with Shape, Reshape and BroadcastTo at the bottom.


def sum_to(grad, like):
    """Reduces a broadcast gradient back to the shape of the input `like` (TF: BroadcastGradientArgs
    + Sum + Reshape). Free when the shapes already agree."""
    if grad is None:
        return None
    gs, ls = grad.shape, like.shape
    if gs == ls and ls.is_fully_defined():
        return grad
    return bind(SumToShape, (grad, shape(like)))


def _sum_to_kernel(g, shape):
    shape = tuple(shape.tolist()) if isinstance(shape, np.ndarray) else tuple(int(d) for d in shape)
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape) if d == 1 and g.shape[i + lead] != 1)
    if axes:  # NOTE: the ndarray method, not np.sum: this runs once per broadcast op in every backward pass
        g = g.sum(axis=axes)
    return g.reshape(shape)


def _sum_to_infer(inputs, attrs):
    value = static_value(inputs[1])
    shape = TensorShape(None) if value is None else TensorShape([int(d) for d in value])
    if value is None and inputs[1].shape.rank == 1 and inputs[1].shape[0] is not None:
        shape = TensorShape([None] * inputs[1].shape[0])
    return [Spec(shape, inputs[0].dtype)]


SumToShape = defop(
    "SumToShape", inputs=("grad", "shape"), kernel=_sum_to_kernel, infer=_sum_to_infer,
    grad=lambda op, g: (broadcast_to(g, shape(op.inputs[0])), None),
    doc="Sums a broadcast gradient down to a shape (one op where TensorFlow uses three).")


def _cast_grad(op, g):
    src = op.inputs[0].dtype
    if (src.is_floating or src.is_complex) and (g.dtype.is_floating or g.dtype.is_complex):
        return cast(g, src)
    return None


def _cast_kernel(x, DstT):
    if DstT is _dt.string or x.dtype == object:  # TensorFlow registers no such kernel (it has tf.strings)
        source = "string" if x.dtype == object else R.tf_type_word(_dt.as_dtype(x.dtype))
        raise UnimplementedError(None, None, f"Cast {source} to {R.tf_type_word(DstT)} is not supported")
    if x.dtype.kind == "c" and not DstT.is_complex:  # TensorFlow keeps the real part, silently
        x = x.real
    return _dt.cast_array(x, DstT)  # bfloat16 either way as TensorFlow rounds it, not as ml_dtypes does


Cast = defop("Cast", kernel=_cast_kernel, grad=_cast_grad,
             infer=lambda inputs, attrs: [Spec(inputs[0].shape, attrs["DstT"])])


def cast(x, dtype, name=None):
    """`tf.cast`: changes the element type; float -> int truncates toward zero, as in TensorFlow."""
    dtype = _dt.as_dtype(dtype)
    x = as_tensor(x)
    if x.dtype is dtype:
        return x
    return bind(Cast, (x,), {"DstT": dtype}, name=name)


# --- indexing: x[...] ----------------------------------------------------------------------------


def getitem(tensor, key):
    """`tensor[key]`: TensorFlow's strided slice (ints, slices, Ellipsis, newaxis, negative strides)."""
    from .slicing import strided_slice_from_key
    return strided_slice_from_key(as_tensor(tensor), key)


# --- JAX lowerings (jit_compile=True, codegen/xla.py). Shapes are static under XLA: Shape/Size/Rank
# give NumPy arrays, so shape arithmetic downstream folds at trace time.


def _ints(s):
    return tuple(int(d) for d in np.ravel(s))


Shape.jax = lambda x, out_type=_dt.int32: np.array(x.shape, dtype=out_type.np_dtype)
Size.jax = lambda x, out_type=_dt.int32: np.array(int(np.prod(x.shape)), dtype=out_type.np_dtype)
Rank.jax = lambda x: np.array(x.ndim, dtype=np.int32)
Reshape.jax = lambda x, s: jnp.reshape(x, _ints(s))
Transpose.jax = lambda x, p: jnp.transpose(x, _ints(p))
InvertPermutation.jax = lambda p: jnp.argsort(p).astype(p.dtype)
ZerosLike.jax = lambda x: jnp.zeros_like(x)
OnesLike.jax = lambda x: jnp.ones_like(x)
Fill.jax = lambda dims, value: jnp.full(_ints(dims), value, dtype=value.dtype)
Identity.jax = lambda x: x
StopGradient.jax = lambda x: x
SelectV2.jax = lambda c, x, y: jnp.where(c, x, y)
BroadcastTo.jax = lambda x, s: jnp.broadcast_to(x, _ints(s))
Squeeze.jax = lambda x, squeeze_dims=(): jnp.reshape(x, _squeeze_dims(TensorShape(x.shape), squeeze_dims))
ExpandDims.jax = lambda x, axis: jnp.expand_dims(x, _expand_axis(int(np.ravel(axis)[0]), x.ndim))
_Range_rev.jax = lambda n: np.arange(int(n) - 1, -1, -1, dtype=np.int32)  # n is a rank: known under XLA
# tf.where(c) with one argument: its row count is the data's, so `c` must be known when compiling;
# on a run-time `c`, np.asarray raises and codegen/xla.py compiles the arguments c comes from in as
# constants (TensorFlow's XLA compiles it with bounded dynamic shapes, which JAX does not have).
Where.jax = lambda c: np.argwhere(np.asarray(c)).astype(np.int64)


def _jax_sum_to(g, shape):
    shape = _ints(shape)
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape) if d == 1 and g.shape[i + lead] != 1)
    return jnp.reshape(jnp.sum(g, axis=axes) if axes else g, shape)


SumToShape.jax = _jax_sum_to
Cast.jax = lambda x, DstT: (jnp.real(x) if x.dtype.kind == "c" and not DstT.is_complex else x).astype(DstT.np_dtype)
