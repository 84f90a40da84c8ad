"""Array ops: shapes, reshaping, joining, splitting, padding, ordering. One defop block per TensorFlow
op type. Index-based selection (StridedSlice, Slice, Gather*, ScatterNd) lives in ops/slicing.py and
is re-exported here.

NOTE: this module defines `range` (tf.range); use `_pyrange` for Python's.
"""
from __future__ import annotations

import builtins

import numpy as np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor, to_array
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import Tensor
from . import shape_rules as R
from .operands import as_int_tensor, as_tensor, same_dtype_operands
from .registry import NO_GRADIENT, Spec, bind, defop, static_value

_NO_ATTRS: dict = {}
_pyrange = builtins.range  # this module defines tf.range


def _int_list(value):
    """A Python list of ints from a static shape-like value, or None when it is not static."""
    if isinstance(value, Tensor):
        v = static_value(value)
        return None if v is None else [int(d) for d in np.ravel(v)]
    return [int(d) for d in np.ravel(np.asarray(value))]


# --- Const ----------------------------------------------------------------------------------------

Const = defop("Const", inputs=(), grad=NO_GRADIENT, kernel=lambda value, dtype: value,
              infer=lambda inputs, attrs: [Spec(TensorShape(attrs["value"].shape), attrs["dtype"])],
              doc="A constant; its value is an attribute (in a graph: a `Const` node).")


def constant(value, dtype=None, shape=None, name="Const"):
    """`tf.constant`: a tensor from a Python or NumPy value (always a copy), optionally cast to
    `dtype` and filled or reshaped to `shape`."""
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    if isinstance(value, Tensor) or hasattr(type(value), "_as_tensor"):
        t = as_tensor(value)
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
        if arr.size == 1:
            arr = np.full(target, arr.reshape(()), dtype=arr.dtype)
        elif arr.size == int(np.prod(target)):
            arr = arr.reshape(target)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {value!r} (converted "
                            f"from {value!r}) has {arr.size} elements, but got `shape` {tuple(target)} with "
                            f"{int(np.prod(target))} elements).")
    return bind(Const, (), {"value": arr, "dtype": _dt.from_numpy(arr.dtype)})


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
    dims = _int_list(shp)
    if dims is None:
        n = shp.shape[0] if shp.shape.rank == 1 else None
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    if sum(d == -1 for d in dims) > 1:
        raise InvalidArgumentError(None, None, "Only one input size may be -1, not both 0 and 1")
    total = x.shape.num_elements()
    known = int(np.prod([d for d in dims if d != -1])) if dims else 1
    if -1 in dims:
        if total is None:
            return [Spec(TensorShape([None if d == -1 else d for d in dims]), x.dtype)]
        if known == 0 or total % known:
            raise InvalidArgumentError(None, None, f"Input to reshape is a tensor with {total} values, but the "
                                                   f"requested shape requires a multiple of {known}")
        return [Spec(TensorShape([total // known if d == -1 else d for d in dims]), x.dtype)]
    if total is not None and total != known:
        raise InvalidArgumentError(None, None, f"Input to reshape is a tensor with {total} values, but the "
                                               f"requested shape has {known}")
    return [Spec(TensorShape(dims), x.dtype)]


Reshape = defop("Reshape", inputs=("tensor", "shape"), infer=_reshape_infer,
                kernel=lambda x, s: np.reshape(x, tuple(int(d) for d in s)),
                grad=lambda op, g: (reshape(g, shape(op.inputs[0])), None))


def reshape(tensor, shape, name=None):
    x = as_tensor(tensor)
    return bind(Reshape, (x, as_int_tensor(shape)))


# --- Transpose ---------------------------------------------------------------------------------

def _transpose_infer(inputs, attrs):
    x, perm = inputs
    p = _int_list(perm)
    if x.shape.rank is None or p is None:
        return [Spec(TensorShape(None if p is None else [None] * len(p)), x.dtype)]
    if sorted(p) != list(_pyrange(x.shape.rank)):
        raise InvalidArgumentError(None, None, f"transpose expects a vector of size {x.shape.rank}. But input(1) "
                                               f"is a vector of size {len(p)}" if len(p) != x.shape.rank else
                                   f"{p} is not a valid permutation of 0..{x.shape.rank - 1}")
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
            perm = list(_pyrange(r - 1, -1, -1))
    return bind(Transpose, (x, as_int_tensor(perm)))


_Range_rev = defop("ReversedRange", grad=NO_GRADIENT,
                   infer=lambda inputs, attrs: [Spec(TensorShape([None]), _dt.int32)],
                   kernel=lambda n: np.arange(int(n) - 1, -1, -1, dtype=np.int32),
                   doc="perm for a transpose of unknown rank (TensorFlow builds it from Range and Sub).")


# --- Filled tensors ----------------------------------------------------------------------------

ZerosLike = defop("ZerosLike", grad=lambda op, g: None, infer=R.unary(),
                  kernel=lambda x: np.zeros_like(x))
OnesLike = defop("OnesLike", grad=lambda op, g: None, infer=R.unary(),
                 kernel=lambda x: np.ones_like(x))


def _fill_infer(inputs, attrs):
    dims = _int_list(inputs[0])
    if dims is None:
        n = inputs[0].shape[0] if inputs[0].shape.rank == 1 else None
        return [Spec(TensorShape(None if n is None else [None] * n), inputs[1].dtype)]
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(None, None, f"Fill dimensions must be >= 0, got {dims}")
    return [Spec(TensorShape(dims), inputs[1].dtype)]


Fill = defop("Fill", inputs=("dims", "value"), infer=_fill_infer,
             kernel=lambda dims, value: np.full(tuple(int(d) for d in dims), value, dtype=np.asarray(value).dtype),
             grad=lambda op, g: (None, _reduce.reduce_sum(g)))


def zeros_like(input, dtype=None, name=None):
    x = as_tensor(input)
    out = bind(ZerosLike, (x,))
    return out if dtype is None else _math.cast(out, dtype)


def ones_like(input, dtype=None, name=None):
    x = as_tensor(input)
    out = bind(OnesLike, (x,))
    return out if dtype is None else _math.cast(out, dtype)


def fill(dims, value, name=None):
    return bind(Fill, (as_int_tensor(dims), as_tensor(value)))


def zeros(shape, dtype=_dt.float32, name=None):
    dtype = _dt.as_dtype(dtype)
    return fill(shape, convert_to_tensor(np.zeros((), dtype.np_dtype) if dtype is not _dt.string else b""))


def ones(shape, dtype=_dt.float32, name=None):
    dtype = _dt.as_dtype(dtype)
    return fill(shape, convert_to_tensor(np.ones((), dtype.np_dtype)))


# --- Identity, StopGradient ------------------------------------------------------------------

Identity = defop("Identity", inputs=("input",), kernel=lambda x: x, infer=R.unary(), grad=lambda op, g: g)
StopGradient = defop("StopGradient", inputs=("input",), kernel=lambda x: x, infer=R.unary(),
                     grad=NO_GRADIENT)


def identity(input, name=None):
    return bind(Identity, (as_tensor(input),))


def stop_gradient(input, name=None):
    """Passes the value through; tapes see no gradient flowing back through it."""
    return bind(StopGradient, (as_tensor(input),))


# --- Where / SelectV2 --------------------------------------------------------------------------

def _select_infer(inputs, attrs):
    c, x, y = inputs
    if c.dtype is not _dt.bool_:
        raise InvalidArgumentError(None, None, f"condition must be bool, got {c.dtype.name}")
    R.check_same_dtype("SelectV2", (x, y))
    shape = R.broadcast_shape(R.broadcast_shape(c.shape, x.shape), y.shape)
    return [Spec(shape, x.dtype)]


def _select_grad(op, g):
    c, x, y = op.inputs
    zeros = zeros_like(g)
    return None, _math.sum_to(where(c, g, zeros), x), _math.sum_to(where(c, zeros, g), y)


SelectV2 = defop("SelectV2", inputs=("condition", "t", "e"), infer=_select_infer, grad=_select_grad,
                 kernel=lambda c, x, y: np.where(c, x, y))
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
    dims = _int_list(shp)
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
                    grad=lambda op, g: (_math.sum_to(g, op.inputs[0]), None))


def broadcast_to(input, shape, name=None):
    return bind(BroadcastTo, (as_tensor(input), as_int_tensor(shape)))


# --- Pack / Unpack (stack / unstack) -------------------------------------------------------------

def _norm_axis(axis, rank, op_name):
    if not -rank <= axis < rank:
        raise InvalidArgumentError(None, None, f"Expected axis to be in the range [{-rank}, {rank}), but got {axis}")
    return axis % rank


def _pack_infer(inputs, attrs):
    dtype = R.check_same_dtype("Pack", inputs)
    shape = inputs[0].shape
    for i, t in enumerate(inputs[1:], start=1):
        if not shape.is_compatible_with(t.shape):
            raise InvalidArgumentError(
                None, None, f"Shapes of all inputs must match: values[0].shape = {R.fmt_dims(inputs[0].shape)} != "
                            f"values[{i}].shape = {R.fmt_dims(t.shape)}")
        shape = shape.merge_with(t.shape)
    if shape.rank is None:
        return [Spec(TensorShape(None), dtype)]
    axis = _norm_axis(attrs.get("axis", 0), shape.rank + 1, "Pack")
    dims = list(shape)
    dims.insert(axis, len(inputs))
    return [Spec(TensorShape(dims), dtype)]


Pack = defop("Pack", inputs=("values",), infer=_pack_infer,
             kernel=lambda *xs, axis=0: np.stack(xs, axis=axis),
             grad=lambda op, g: tuple(unstack(g, num=len(op.inputs), axis=op.attrs.get("axis", 0))))


def _unpack_kernel(x, num, axis=0):
    return [np.take(x, i, axis=axis) for i in _pyrange(x.shape[axis])]


def _unpack_infer(inputs, attrs):
    s = inputs[0].shape
    axis = _norm_axis(attrs.get("axis", 0), s.rank, "Unpack")
    dims = list(s)
    n = dims.pop(axis)
    if n is not None and n != attrs["num"]:
        raise InvalidArgumentError(None, None, f"Input shape axis {axis} must equal {attrs['num']}, got shape "
                                               f"{R.fmt_dims(s)}")
    return [Spec(TensorShape(dims), inputs[0].dtype)] * attrs["num"]


Unpack = defop("Unpack", inputs=("value",), infer=_unpack_infer, kernel=_unpack_kernel, multi_output=True,
               grad=lambda op, *gs: stack(list(gs), axis=op.attrs.get("axis", 0)))


def stack(values, axis=0, name="stack"):
    tensors = same_dtype_operands(list(values), "Pack")
    if not tensors:
        raise ValueError("values must be a non-empty list of tensors")
    return bind(Pack, tuple(tensors), _NO_ATTRS if axis == 0 else {"axis": axis})


def unstack(value, num=None, axis=0, name="unstack"):
    x = as_tensor(value)
    s = x.shape
    if s.rank is None:
        raise ValueError("Cannot infer argument `num` from shape <unknown>")
    axis_n = _norm_axis(axis, s.rank, "Unpack") if s.rank else 0
    if s.rank == 0:
        raise ValueError("Input shape must have rank at least 1 to unstack, got rank 0")
    if num is None:
        num = s[axis_n]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
    return bind(Unpack, (x,), {"num": num, "axis": axis_n})


# --- ConcatV2 ------------------------------------------------------------------------------------

def _concat_check(shapes, axis):
    """TensorFlow's ConcatOp checks on (possibly partial) shapes; returns the normalised axis."""
    rank = next((s.rank for s in shapes if s.rank is not None), None)
    if rank is None:
        return None
    if not -rank <= axis < rank:
        raise InvalidArgumentError(None, None, f"ConcatOp : Expected concatenating dimensions in the range "
                                               f"[{-rank}, {rank}), but got {axis}")
    axis %= rank
    first = shapes[0]
    for i, s in enumerate(shapes[1:], start=1):
        if s.rank is None or first.rank is None:
            continue
        if s.rank != first.rank:
            raise InvalidArgumentError(None, None, f"ConcatOp : Ranks of all input tensors should match: "
                                                   f"shape[0] = {R.fmt_dims(first)} vs. shape[{i}] = {R.fmt_dims(s)}")
        for d, (a, b) in enumerate(zip(first, s)):
            if d != axis and a is not None and b is not None and a != b:
                raise InvalidArgumentError(
                    None, None, f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = "
                                f"{R.fmt_dims(first)} vs. shape[{i}] = {R.fmt_dims(s)}")
    return axis


def _concat_kernel(*args):
    xs, axis = args[:-1], int(args[-1])
    axis = _concat_check([TensorShape(x.shape) for x in xs], axis)
    return np.concatenate(xs, axis=axis)


def _concat_infer(inputs, attrs):
    xs, axis = inputs[:-1], _int_list(inputs[-1])
    dtype = R.check_same_dtype("ConcatV2", xs)
    shapes = [x.shape for x in xs]
    rank = next((s.rank for s in shapes if s.rank is not None), None)
    if rank is None:
        return [Spec(TensorShape(None), dtype)]
    if axis is None:
        return [Spec(TensorShape([None] * rank), dtype)]
    a = _concat_check(shapes, axis[0])
    dims = []
    for d in _pyrange(rank):
        col = [s[d] for s in shapes if s.rank is not None]
        if d == a:
            dims.append(None if None in col or len(col) < len(shapes) else sum(col))
        else:
            dims.append(next((c for c in col if c is not None), None))
    return [Spec(TensorShape(dims), dtype)]


def _concat_grad(op, g):
    xs, axis = op.inputs[:-1], op.inputs[-1]
    a = _math.floormod(_math.cast(reshape(axis, []), _dt.int32), rank(g))
    sizes = [_slicing.gather(shape(x), a) for x in xs]
    return tuple(split(g, stack(sizes), axis=a)) + (None,)


ConcatV2 = defop("ConcatV2", inputs=("values", "axis"), kernel=_concat_kernel, infer=_concat_infer,
                 grad=_concat_grad, doc="Joins tensors along an existing axis; the axis is an input tensor.")


def concat(values, axis, name="concat"):
    values = list(values)
    if not values:
        raise InvalidArgumentError(None, None, "ConcatOp : Expected a non-empty list of tensors [Op:ConcatV2]")
    if len(values) == 1:  # TensorFlow returns identity(values[0]) here, and so do we
        return identity(values[0])
    hint = next((v.dtype for v in values if _is_tensorish(v)), None)
    if hint is not None:  # an empty Python list joins any dtype (conversion alone would make it float32)
        values = [np.zeros(np.shape(v), hint.np_dtype) if not _is_tensorish(v) and np.size(v) == 0 else v
                  for v in values]
    tensors = same_dtype_operands(values, "ConcatV2")
    return bind(ConcatV2, tuple(tensors) + (as_int_tensor(axis),))


# --- Split / SplitV --------------------------------------------------------------------------------

def _split_axis(axis, rank, op):
    if not -rank <= axis < rank:
        raise InvalidArgumentError(None, None, f"-input rank(-1) <= split_dim < input rank ({rank}), but got {axis}")
    return axis % rank


def _split_kernel(axis, x, num_split):
    axis = _split_axis(int(axis), x.ndim, "Split")
    if x.shape[axis] % num_split:
        raise InvalidArgumentError(None, None, f"Number of ways to split should evenly divide the split dimension, "
                                               f"but got split_dim {axis} (size = {x.shape[axis]}) and num_split "
                                               f"{num_split}")
    return [p.copy() for p in np.split(x, num_split, axis=axis)]


def _resolve_sizes(sizes, total):
    """SplitV's size_splits with its single -1 filled in; TensorFlow's checks."""
    if sum(s == -1 for s in sizes) > 1:
        raise InvalidArgumentError(None, None, "There can only be one -1 in the input.")
    known = sum(s for s in sizes if s != -1)
    if total is not None and ((-1 not in sizes and known != total) or known > total):
        raise InvalidArgumentError(
            None, None, "Determined shape must either match input shape along split_dim exactly if fully "
                        "specified, or be less than the size of the input along split_dim if not fully "
                        f"specified.  Got: {known}")
    if -1 in sizes:
        return [None if total is None else total - known if s == -1 else s for s in sizes]
    return list(sizes)


def _splitv_kernel(x, size_splits, axis, num_split):
    axis = _split_axis(int(axis), x.ndim, "SplitV")
    sizes = _resolve_sizes([int(s) for s in size_splits], x.shape[axis])
    return [p.copy() for p in np.split(x, np.cumsum(sizes)[:-1], axis=axis)]


def _split_specs(x, axis, sizes):
    s = x.shape
    if s.rank is None or axis is None:
        return [Spec(TensorShape(None if s.rank is None else [None] * s.rank), x.dtype)] * len(sizes)
    a = _split_axis(axis, s.rank, "Split")
    out = []
    for n in sizes:
        dims = list(s)
        dims[a] = n
        out.append(Spec(TensorShape(dims), x.dtype))
    return out


def _split_infer(inputs, attrs):
    axis, x = inputs
    a, num = _int_list(axis), attrs["num_split"]
    total = None if a is None or x.shape.rank is None else x.shape[_split_axis(a[0], x.shape.rank, "Split")]
    if total is not None and total % num:
        raise InvalidArgumentError(None, None, f"Number of ways to split should evenly divide the split dimension, "
                                               f"but got split_dim {a[0]} (size = {total}) and num_split {num}")
    return _split_specs(x, None if a is None else a[0], [None if total is None else total // num] * num)


def _splitv_infer(inputs, attrs):
    x, sizes, axis = inputs
    a, sz, num = _int_list(axis), _int_list(sizes), attrs["num_split"]
    if sz is None:
        return _split_specs(x, None if a is None else a[0], [None] * num)
    total = None if a is None or x.shape.rank is None else x.shape[_split_axis(a[0], x.shape.rank, "SplitV")]
    return _split_specs(x, None if a is None else a[0], _resolve_sizes(sz, total))


Split = defop("Split", inputs=("split_dim", "value"), kernel=_split_kernel, infer=_split_infer,
              multi_output=True, grad=lambda op, *gs: (None, concat(list(gs), op.inputs[0])),
              doc="num_split equal pieces along split_dim.")
SplitV = defop("SplitV", inputs=("value", "size_splits", "split_dim"), kernel=_splitv_kernel, infer=_splitv_infer,
               multi_output=True, grad=lambda op, *gs: (concat(list(gs), op.inputs[2]), None, None),
               doc="Pieces of the given sizes along split_dim (one size may be -1: the rest).")


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`tf.split`: an int splits evenly (op Split), a list of sizes uses SplitV."""
    x = as_tensor(value)
    if isinstance(num_or_size_splits, (int, np.integer)) and not isinstance(num_or_size_splits, bool):
        return bind(Split, (as_int_tensor(axis), x), {"num_split": int(num_or_size_splits)})
    sizes = as_int_tensor(num_or_size_splits)
    if sizes.shape.rank == 0:
        return bind(Split, (as_int_tensor(axis), x), {"num_split": int(static_value(sizes))})
    if num is None:
        num = sizes.shape[0]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {sizes.shape}")
    return list(bind(SplitV, (x, sizes, as_int_tensor(axis)), {"num_split": int(num)}))


# --- Squeeze / ExpandDims -------------------------------------------------------------------------

def _squeeze_dims(shape, dims):
    """Output dims of Squeeze on a partial shape; None when the rank is unknown."""
    if shape.rank is None:
        return None
    r = shape.rank
    for d in dims:
        if not -r <= d < r:
            raise InvalidArgumentError(None, None, f"Tried to squeeze dim index {d} for tensor with {r} dimensions.")
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
        raise InvalidArgumentError(None, None, f"Tried to expand dim index {axis} for tensor with {r} dimensions.")
    return axis + r + 1 if axis < 0 else axis


def _expand_dims_infer(inputs, attrs):
    x, axis = inputs
    a = _int_list(axis)
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


# --- Tile ----------------------------------------------------------------------------------------

def _tile_check(rank, multiples):
    if len(multiples) != rank:
        raise InvalidArgumentError(None, None, f"Expected multiples argument to be a vector of length {rank} but "
                                               f"got length {len(multiples)}")
    for i, m in enumerate(multiples):
        if m < 0:
            raise InvalidArgumentError(None, None, f"Expected multiples[{i}] >= 0, but got {m}")


def _tile_kernel(x, multiples):
    m = [int(v) for v in multiples]
    _tile_check(x.ndim, m)
    return np.tile(x, m) if m else x.copy()


def _tile_infer(inputs, attrs):
    x, multiples = inputs
    m = _int_list(multiples)
    if x.shape.rank is None:
        n = multiples.shape[0] if multiples.shape.rank == 1 else None
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    if m is None:
        return [Spec(TensorShape([None] * x.shape.rank), x.dtype)]
    _tile_check(x.shape.rank, m)
    return [Spec(TensorShape([None if d is None else d * k for d, k in zip(x.shape, m)]), x.dtype)]


def _tile_grad(op, g):
    """View g as [m0, d0, m1, d1, ...] and sum over the copies (the even axes)."""
    x, multiples = op.inputs
    interleaved = reshape(transpose(stack([_math.cast(multiples, _dt.int32), shape(x)])), [-1])
    axes = range(0, size(interleaved), 2)
    return _reduce.reduce_sum(reshape(g, interleaved), axes), None


Tile = defop("Tile", inputs=("input", "multiples"), kernel=_tile_kernel, infer=_tile_infer, grad=_tile_grad,
             doc="Repeats the whole tensor multiples[i] times along each dim i.")


def tile(input, multiples, name=None):
    return bind(Tile, (as_tensor(input), as_int_tensor(multiples)))


# --- Pad / PadV2 / MirrorPad ---------------------------------------------------------------------

def _pad_pairs(x_shape, paddings, op_name):
    """The [rank, 2] paddings as pairs of ints, with TensorFlow's checks."""
    p = np.asarray(paddings).reshape(-1, 2) if np.size(paddings) % 2 == 0 else None
    rank = len(x_shape)
    if p is None or np.ndim(paddings) != 2 or np.shape(paddings)[0] != rank:
        raise InvalidArgumentError(None, None, f"The first dimension of paddings must be the rank of inputs"
                                               f"{R.fmt_dims(TensorShape(np.shape(paddings)))} "
                                               f"{R.fmt_dims(TensorShape(x_shape))}")
    pairs = [(int(a), int(b)) for a, b in p]
    for a, b in pairs:
        if a < 0 or b < 0:
            raise InvalidArgumentError(None, None, f"Paddings must be non-negative: {a} {b}")
    return pairs


def _pad_infer(inputs, attrs):
    x, paddings = inputs[0], inputs[1]
    p = static_value(paddings)
    if x.shape.rank is None:
        n = paddings.shape[0] if paddings.shape.rank == 2 else None
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    if p is None:
        return [Spec(TensorShape([None] * x.shape.rank), x.dtype)]
    pairs = _pad_pairs([0 if d is None else d for d in x.shape], p, "Pad")
    if len(inputs) == 3:
        R.check_same_dtype("PadV2", (x, inputs[2]))
    return [Spec(TensorShape([None if d is None else d + a + b for d, (a, b) in zip(x.shape, pairs)]), x.dtype)]


def _pad_kernel(x, paddings, constant_values=None):
    pairs = _pad_pairs(x.shape, paddings, "Pad")
    value = 0 if constant_values is None else constant_values
    return np.pad(x, pairs, mode="constant", constant_values=value) if pairs else x.copy()


def _pad_grad(op, g):
    """The gradient of padding is the slice of g where the input sits."""
    x, paddings = op.inputs[0], op.inputs[1]
    begin = reshape(_slicing.slice(_math.cast(paddings, _dt.int32), [0, 0], stack([rank(x), 1])), [-1])
    dx = _slicing.slice(g, begin, shape(x))
    return (dx, None) if len(op.inputs) == 2 else (dx, None, None)


Pad = defop("Pad", inputs=("input", "paddings"), kernel=_pad_kernel, infer=_pad_infer, grad=_pad_grad,
            doc="Zero padding; paddings[i] = [before, after] for dim i.")
PadV2 = defop("PadV2", inputs=("input", "paddings", "constant_values"), kernel=_pad_kernel, infer=_pad_infer,
              grad=_pad_grad, doc="Padding with a given scalar value.")


def _mirror_check(shape, pairs, mode):
    offset = 1 if mode == "REFLECT" else 0
    for d, (a, b) in zip(shape, pairs):
        if d is None:
            continue
        if offset and (a >= d or b >= d):
            raise InvalidArgumentError(None, None, f"paddings must be less than the dimension size: {a}, {b} not "
                                                   f"less than {d}")
        if not offset and (a > d or b > d):
            raise InvalidArgumentError(None, None, f"paddings must be no greater than the dimension size: {a}, {b} "
                                                   f"greater than {d}")


def _mirror_pad_kernel(x, paddings, mode):
    pairs = _pad_pairs(x.shape, paddings, "MirrorPad")
    _mirror_check(x.shape, pairs, mode)
    return np.pad(x, pairs, mode="reflect" if mode == "REFLECT" else "symmetric") if pairs else x.copy()


def _mirror_pad_infer(inputs, attrs):
    out = _pad_infer(inputs, attrs)
    p = static_value(inputs[1])
    if p is not None and inputs[0].shape.rank is not None:
        _mirror_check(list(inputs[0].shape), [tuple(int(v) for v in row) for row in np.asarray(p)], attrs["mode"])
    return out


def _mirror_source(n, a, b, mode):
    """For each position of a padded axis, the input position it copies (reflected at the edges)."""
    pos = np.arange(-a, n + b)
    if mode == "REFLECT":
        pos = np.abs(pos)
        return np.where(pos > n - 1, 2 * (n - 1) - pos, pos)
    pos = np.where(pos < 0, -pos - 1, pos)
    return np.where(pos > n - 1, 2 * n - 1 - pos, pos)


def _mirror_pad_grad_kernel(g, paddings, mode):
    """Adds every padded copy back onto the input position it was copied from, one axis at a time."""
    out = g
    for axis, (a, b) in enumerate(np.asarray(paddings).reshape(-1, 2)):
        n = out.shape[axis] - int(a) - int(b)
        src = _mirror_source(n, int(a), int(b), mode)
        moved = np.moveaxis(out, axis, 0)
        acc = np.zeros((n,) + moved.shape[1:], dtype=g.dtype)
        np.add.at(acc, src, moved)
        out = np.moveaxis(acc, 0, axis)
    return np.ascontiguousarray(out)


def _mirror_pad_grad_infer(inputs, attrs):
    g, paddings = inputs
    p = static_value(paddings)
    if g.shape.rank is None or p is None:
        return [Spec(TensorShape(None if g.shape.rank is None else [None] * g.shape.rank), g.dtype)]
    pairs = np.asarray(p).reshape(-1, 2)
    return [Spec(TensorShape([None if d is None else d - int(a) - int(b) for d, (a, b) in zip(g.shape, pairs)]),
                 g.dtype)]


MirrorPad = defop("MirrorPad", inputs=("input", "paddings"), kernel=_mirror_pad_kernel, infer=_mirror_pad_infer,
                  grad=lambda op, g: (bind(MirrorPadGrad, (g, op.inputs[1]), op.attrs), None),
                  doc="Padding by reflection (REFLECT: edge not repeated; SYMMETRIC: edge repeated).")
MirrorPadGrad = defop("MirrorPadGrad", inputs=("input", "paddings"), kernel=_mirror_pad_grad_kernel,
                      infer=_mirror_pad_grad_infer,
                      grad=lambda op, g: (bind(MirrorPad, (g, op.inputs[1]), op.attrs), None),
                      doc="MirrorPad's gradient: folds the padded copies back (linear; its gradient is MirrorPad).")


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    x = as_tensor(tensor)
    mode = str(mode).upper()
    p = as_int_tensor(paddings)
    if mode == "CONSTANT":
        plain = (not isinstance(constant_values, Tensor) and not hasattr(type(constant_values), "_as_tensor")
                 and np.ndim(constant_values) == 0 and constant_values == 0)
        if plain:
            return bind(Pad, (x, p))
        return bind(PadV2, (x, p, convert_to_tensor(constant_values, dtype=x.dtype)))
    if mode in ("REFLECT", "SYMMETRIC"):
        return bind(MirrorPad, (x, p), {"mode": mode})
    raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                     f"Received `mode` = {mode}")


# --- ReverseV2 -----------------------------------------------------------------------------------

def _reverse_axes(axes, r):
    out = []
    for i, a in enumerate(axes):
        if not -r <= a < r:
            raise InvalidArgumentError(None, None, f"'axis'[{i}] = {a} is out of valid range [0, {r - 1}")
        a %= r
        if a in out:
            raise InvalidArgumentError(None, None, f"axis {a} specified more than once.")
        out.append(a)
    return tuple(out)


def _reverse_infer(inputs, attrs):
    x, axis = inputs
    a = _int_list(axis)
    if a is not None and x.shape.rank is not None:
        _reverse_axes(a, x.shape.rank)
    return [Spec(x.shape, x.dtype)]


ReverseV2 = defop("ReverseV2", inputs=("tensor", "axis"), infer=_reverse_infer,
                  kernel=lambda x, axis: np.flip(x, _reverse_axes([int(a) for a in np.ravel(axis)], x.ndim)).copy(),
                  grad=lambda op, g: (reverse(g, op.inputs[1]), None))


def reverse(tensor, axis, name=None):
    return bind(ReverseV2, (as_tensor(tensor), as_int_tensor(axis)))


# --- Range / LinSpace ------------------------------------------------------------------------------

def _fmt_num(v):
    return f"{v:g}" if isinstance(v, float) else str(v)


def _range_len(start, limit, delta):
    if delta == 0:
        raise InvalidArgumentError(None, None, f"Requires delta != 0: {_fmt_num(delta)}")
    if delta > 0 and start > limit:
        raise InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: "
                                               f"{_fmt_num(start)}/{_fmt_num(limit)}")
    if delta < 0 and start < limit:
        raise InvalidArgumentError(None, None, f"Requires start >= limit when delta < 0: "
                                               f"{_fmt_num(start)}/{_fmt_num(limit)}")
    if isinstance(start, int):
        return -((start - limit) // delta) if delta > 0 else -((limit - start) // -delta)
    return int(np.ceil(abs((limit - start) / delta)))


def _range_kernel(start, limit, delta):
    s, l, d = (v.item() for v in (start, limit, delta))
    n = _range_len(s, l, d)
    return (start + np.arange(n, dtype=start.dtype) * delta).astype(start.dtype)


def _range_infer(inputs, attrs):
    values = [static_value(t) for t in inputs]
    dtype = inputs[0].dtype
    if any(v is None for v in values):
        return [Spec(TensorShape([None]), dtype)]
    return [Spec(TensorShape([_range_len(*(np.asarray(v).item() for v in values))]), dtype)]


Range = defop("Range", inputs=("start", "limit", "delta"), kernel=_range_kernel, infer=_range_infer,
              grad=NO_GRADIENT, doc="start, start + delta, ... up to (not including) limit.")

_RANGE_ORDER = (_dt.int32, _dt.int64, _dt.float32, _dt.float64)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 - TensorFlow's name
    """`tf.range`: Python ints give int32, any float gives float32, tensors keep their dtype; the widest
    of the three arguments wins (int32 < int64 < float32 < float64) unless `dtype` is given."""
    if limit is None:
        start, limit = 0, start
    dtype = None if dtype is None else _dt.as_dtype(dtype)
    args = [convert_to_tensor(v, dtype=dtype) if dtype is not None and not _is_tensorish(v) else as_tensor(v)
            for v in (start, limit, delta)]
    if dtype is None:
        dtype = max((a.dtype for a in args), key=lambda d: _RANGE_ORDER.index(d) if d in _RANGE_ORDER else -1)
    args = [a if a.dtype is dtype else _math.cast(a, dtype) for a in args]
    return bind(Range, tuple(args))


def _is_tensorish(v):
    return isinstance(v, Tensor) or hasattr(type(v), "_as_tensor")


def _linspace_kernel(start, stop, num):
    n = int(num)
    if n < 0:
        raise InvalidArgumentError(None, None, f"Requires num > 0: {n}")
    return np.linspace(start, stop, n).astype(start.dtype)


def _linspace_infer(inputs, attrs):
    start, stop, num = inputs
    R.check_same_dtype("LinSpace", (start, stop))
    n = static_value(num)
    return [Spec(TensorShape([None if n is None else int(n)]), start.dtype)]


def _linspace_grad(op, g):
    """out[i] = start * (1 - w[i]) + stop * w[i] with w[i] = i / (num - 1)."""
    start, _, num = op.inputs
    n = _math.cast(num, _dt.int32)
    w = _math.cast(range(0, n), g.dtype) / _math.cast(_math.maximum(n - 1, 1), g.dtype)
    return _reduce.reduce_sum(g * (1 - w)), _reduce.reduce_sum(g * w), None


LinSpace = defop("LinSpace", inputs=("start", "stop", "num"), kernel=_linspace_kernel, infer=_linspace_infer,
                 grad=_linspace_grad, doc="num evenly spaced values from start to stop (both included).")


def linspace(start, stop, num, name=None, axis=0):
    """`tf.linspace` (TensorFlow 2's N-d version): integer inputs give float64. Scalar ends run the
    LinSpace op; tensor ends are computed as start + (stop - start) * i / (num - 1) along `axis`."""
    a, b = as_tensor(start), as_tensor(stop)
    if a.dtype.is_integer or b.dtype.is_integer:
        a, b = _math.cast(a, _dt.float64), _math.cast(b, _dt.float64)
    elif a.dtype is not b.dtype:
        b = _math.cast(b, a.dtype)
    n = as_int_tensor(num)
    if a.shape.rank == 0 and b.shape.rank == 0:
        return bind(LinSpace, (a, b, n))
    # N-d ends: broadcast them, then put the new axis at `axis`.
    a, b = a + zeros_like(b), b + zeros_like(a)
    rank_out = a.shape.rank + 1
    ax = axis % rank_out
    w = _math.cast(range(0, n), a.dtype) / _math.cast(_math.maximum(n - 1, 1), a.dtype)
    w = reshape(w, [-1] + [1] * (rank_out - 1 - ax))
    return expand_dims(a, ax) + expand_dims(b - a, ax) * w


# --- OneHot --------------------------------------------------------------------------------------

def _one_hot_kernel(indices, depth, on_value, off_value, axis=-1):
    d = int(depth)
    if d < 0:
        raise InvalidArgumentError(None, None, f"depth must be non-negative, got: {d}")
    out_rank = indices.ndim + 1
    if not (axis == -1 or 0 <= axis < out_rank):
        raise InvalidArgumentError(None, None, f"Expected axis to be -1 or between [0, {out_rank}).  But received: "
                                               f"{axis}")
    hot = np.expand_dims(indices, -1) == np.arange(d)
    out = np.where(hot, on_value, off_value).astype(on_value.dtype)
    return out if axis == -1 else np.moveaxis(out, -1, axis).copy()


def _one_hot_infer(inputs, attrs):
    indices, depth, on, off = inputs
    R.check_same_dtype("OneHot", (on, off))
    if indices.dtype not in (_dt.uint8, _dt.int8, _dt.int32, _dt.int64):
        raise InvalidArgumentError(None, None, f"Value for attr 'TI' of {indices.dtype.name} is not in the list "
                                               f"of allowed values: uint8, int8, int32, int64")
    axis = attrs.get("axis", -1)
    d = static_value(depth)
    if indices.shape.rank is None:
        return [Spec(TensorShape(None), on.dtype)]
    out_rank = indices.shape.rank + 1
    if not (axis == -1 or 0 <= axis < out_rank):
        raise InvalidArgumentError(None, None, f"Expected axis to be -1 or between [0, {out_rank}).  But received: "
                                               f"{axis}")
    dims = list(indices.shape)
    dims.insert(out_rank - 1 if axis == -1 else axis, None if d is None else int(d))
    return [Spec(TensorShape(dims), on.dtype)]


OneHot = defop("OneHot", inputs=("indices", "depth", "on_value", "off_value"), kernel=_one_hot_kernel,
               infer=_one_hot_infer, grad=NO_GRADIENT,
               doc="on_value where the index matches the position along the new axis, off_value elsewhere.")


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    ix = as_tensor(indices)
    on = None if on_value is None else as_tensor(on_value, dtype)
    off = None if off_value is None else as_tensor(off_value, dtype)
    if on is not None and off is not None and on.dtype is not off.dtype:
        raise TypeError(f"dtype {on.dtype} of on_value does not match dtype {off.dtype} of off_value")
    if dtype is not None:
        dtype = _dt.as_dtype(dtype)
    else:
        dtype = on.dtype if on is not None else off.dtype if off is not None else _dt.float32
    for t, what in ((on, "on_value"), (off, "off_value")):
        if t is not None and t.dtype is not dtype:
            raise TypeError(f"dtype {t.dtype} of {what} does not match dtype parameter {dtype}")
    on = convert_to_tensor(1, dtype=dtype) if on is None else on
    off = convert_to_tensor(0, dtype=dtype) if off is None else off
    attrs = _NO_ATTRS if axis is None or axis == -1 else {"axis": int(axis)}
    return bind(OneHot, (ix, as_int_tensor(depth), on, off), attrs)


# --- TopKV2, sort, argsort -------------------------------------------------------------------------

def _top_k_kernel(x, k, sorted=True, index_type=_dt.int32):
    k = int(k)
    if x.ndim < 1:
        raise InvalidArgumentError(None, None, f"input must be >= 1-D, got shape {R.fmt_dims(TensorShape(x.shape))}")
    if k < 0:
        raise InvalidArgumentError(None, None, f"Need k >= 0, got {k}")
    n = x.shape[-1]
    if n < k:
        raise InvalidArgumentError(None, None, f"input must have at least k columns. Had {n}, needed {k}")
    # Stable descending order (equal values keep the lower index first): sort the reversed row
    # ascending, stably, then read it backwards.
    order = np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1][..., :k]
    indices = (n - 1 - order).astype(index_type.np_dtype)
    return np.take_along_axis(x, indices.astype(np.intp), axis=-1), indices


def _top_k_infer(inputs, attrs):
    x, k = inputs
    R.check_dtype_in("TopKV2", x.dtype, R.REAL_NUMBERS, "input")
    kv = static_value(k)
    index_type = attrs.get("index_type", _dt.int32)
    if x.shape.rank is None:
        return [Spec(TensorShape(None), x.dtype), Spec(TensorShape(None), index_type)]
    if x.shape.rank < 1:
        raise InvalidArgumentError(None, None, f"input must be >= 1-D, got shape {R.fmt_dims(x.shape)}")
    n = x.shape[-1]
    if kv is not None:
        kv = int(kv)
        if kv < 0:
            raise InvalidArgumentError(None, None, f"Need k >= 0, got {kv}")
        if n is not None and n < kv:
            raise InvalidArgumentError(None, None, f"input must have at least k columns. Had {n}, needed {kv}")
    out = TensorShape(list(x.shape[:-1]) + [kv])
    return [Spec(out, x.dtype), Spec(out, index_type)]


def _top_k_grad(op, g, _unused_index_grad=None):
    """Scatter the values' gradient back to the positions the indices name, row by row."""
    x, idx = op.inputs[0], _math.cast(op.outputs[1], _dt.int32)
    n = _slicing.strided_slice(shape(x), [-1], [0], [1], shrink_axis_mask=1)
    k = _slicing.strided_slice(shape(idx), [-1], [0], [1], shrink_axis_mask=1)
    rows = size(x) // _math.maximum(n, 1)
    offsets = reshape(range(0, rows) * n, [-1, 1])
    flat = reshape(reshape(idx, stack([rows, k])) + offsets, [-1, 1])
    dx = _slicing.scatter_nd(flat, reshape(g, [-1]), reshape(size(x), [1]))
    return reshape(dx, shape(x)), None


TopKV2 = defop("TopKV2", inputs=("input", "k"), kernel=_top_k_kernel, infer=_top_k_infer, grad=_top_k_grad,
               multi_output=True, doc="The k largest entries of each last-axis row, and their indices (stable).")


def top_k(input, k=1, sorted=True, index_type=_dt.int32, name=None):
    """`tf.math.top_k`: (values, indices); equal values keep their original order."""
    index_type = _dt.as_dtype(index_type)
    attrs = {"sorted": bool(sorted)}
    if index_type is not _dt.int32:
        attrs["index_type"] = index_type
    values, indices = bind(TopKV2, (as_tensor(input), as_int_tensor(k)), attrs)
    return TopKResult(values, indices)


class TopKResult(tuple):
    """TensorFlow's `TopKV2` named result: `.values`, `.indices`, and unpacks as a pair."""

    __slots__ = ()

    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"TopKV2(values={self[0]!r}, indices={self[1]!r})"


def _sort_along(values, axis, direction, want_indices):
    """sort/argsort as TensorFlow builds them: TopKV2 over the whole last axis, with the axis moved
    last by a transpose, and values flipped by a decreasing map (negation, or bitwise NOT for
    integers so the most negative int does not overflow) for ASCENDING."""
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
                         f"direction={direction}")
    x = as_tensor(values)
    if not isinstance(axis, (int, np.integer)):
        v = static_value(axis) if isinstance(axis, Tensor) else None
        if v is None:
            raise ValueError(f"axis must be a constant scalar, got {axis!r}")
        axis = int(v)
    r = x.shape.rank
    if r is None:
        raise ValueError("sort needs an input of known rank")
    if r == 0:
        raise ValueError(f"Axis {axis} is out of bounds for a tensor of rank 0")
    if not -r <= axis < r:
        raise ValueError(f"axis = {axis} is not in [{-r}, {r})")
    axis %= r
    perm = None
    if axis != r - 1:
        perm = list(_pyrange(r))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = transpose(x, perm)
    flip = (lambda t: _math.invert_(t)) if x.dtype.is_integer else _math.negative
    ascending = direction == "ASCENDING"
    n = x.shape[-1] if x.shape[-1] is not None else _slicing.strided_slice(shape(x), [-1], [0], [1],
                                                                            shrink_axis_mask=1)
    vals, idx = top_k(flip(x) if ascending else x, n)
    out = idx if want_indices else (flip(vals) if ascending else vals)
    return out if perm is None else transpose(out, perm)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    return _sort_along(values, axis, direction, want_indices=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 positions that sort `values` along `axis` (always stable here, as TopKV2 is)."""
    return _sort_along(values, axis, direction, want_indices=True)


newaxis = None


# --- indexing: x[...] ----------------------------------------------------------------------------

def getitem(tensor, key):
    """`tensor[key]`: TensorFlow's strided slice (ints, slices, Ellipsis, newaxis, negative strides)."""
    from .slicing import strided_slice_from_key
    return strided_slice_from_key(as_tensor(tensor), key)


from . import math as _math  # noqa: E402
from . import reduce as _reduce  # noqa: E402
from . import slicing as _slicing  # noqa: E402
from .slicing import (boolean_mask, gather, gather_nd, scatter_nd, slice, strided_slice,  # noqa: E402,F401
                      strided_slice_from_key)
