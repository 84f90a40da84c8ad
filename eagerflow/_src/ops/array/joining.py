"""Joining and cutting tensors: stack/unstack (Pack/Unpack), concat (ConcatV2) and split (Split/SplitV).
One defop block per TensorFlow op type; tile (Tile) is in tiling.py.

Each op's gradient is its opposite (Pack <-> Unpack, ConcatV2 <-> SplitV), so these ops are kept
together: reading one gradient means reading its partner.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.convert import convert_to_tensor, is_tensor_like
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor, same_dtype_operands, static_ints
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..math import elementwise as _math
from ..registry import Spec, bind, defop
from . import basic as _array

_NO_ATTRS: dict = {}


# --- Pack / Unpack (stack / unstack) -------------------------------------------------------------

def _norm_axis(axis, rank, op_name):
    if not -rank <= axis < rank:
        raise InvalidArgumentError(None, None, f"Expected axis to be in the range [{-rank}, {rank}), but got {axis}")
    return axis % rank


def _check_python_axis(axis, rank):
    """tf.stack's and tf.unstack's own check of a static axis, before any op: TensorFlow's ValueError."""
    if rank is not None and isinstance(axis, (int, np.integer)) and not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")


def _pack_infer(inputs, attrs):
    dtype = R.check_same_dtype("Pack", inputs)
    shape = inputs[0].shape
    for i, t in enumerate(inputs[1:], start=1):
        if R.building_graph():  # TensorFlow's shape function merges the shapes, in its words
            shape = R.merge_shapes(shape, t.shape)
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


def _pack_kernel(*xs, axis=0):
    # NOTE: scalars (loop counters packed into slice bounds) skip np.stack's generic path.
    # NOTE: not for strings: np.array of 0-d object arrays nests the arrays instead of their bytes.
    if axis == 0 and all(np.ndim(x) == 0 for x in xs):
        dtype = np.result_type(*xs)
        if dtype != object:
            return np.array(xs, dtype=dtype)
    return np.stack(xs, axis=axis)


Pack = defop("Pack", inputs=("values",), infer=_pack_infer, kernel=_pack_kernel,
             grad=lambda op, g: tuple(unstack(g, num=len(op.inputs), axis=op.attrs.get("axis", 0))))


def _unpack_kernel(x, num, axis=0):
    if x.shape[axis] != num:  # bind caches the rule's verdict per dtype and rank, not per size
        raise InvalidArgumentError(None, None, f"Input shape axis {axis} must equal {num}, got shape "
                                               f"[{','.join(str(d) for d in x.shape)}]")
    return [np.take(x, i, axis=axis) for i in range(x.shape[axis])]


def _unpack_infer(inputs, attrs):
    s = inputs[0].shape
    axis = _norm_axis(attrs.get("axis", 0), s.rank, "Unpack")
    dims = list(s)
    n = dims.pop(axis)
    if n is not None and n != attrs["num"]:
        R.refuse(f"Input shape axis {axis} must equal {attrs['num']}, got shape {R.fmt_dims(s)}",
                 f"Dimension must be {attrs['num']} but is {n}")
    return [Spec(TensorShape(dims), inputs[0].dtype)] * attrs["num"]


Unpack = defop("Unpack", inputs=("value",), infer=_unpack_infer, kernel=_unpack_kernel, multi_output=True,
               grad=lambda op, *gs: stack(list(gs), axis=op.attrs.get("axis", 0)))


# type -> (concat(values, axis), stack(values, axis)) for lists holding a composite of that type
# (ops/ragged/join.py registers RaggedTensor), so this module never imports them.
COMPOSITE_JOINERS: dict = {}


def _composite_joiner(values):
    for v in values:
        if type(v) in COMPOSITE_JOINERS:
            return COMPOSITE_JOINERS[type(v)]
    return None


def stack(values, axis=0, name="stack"):
    values = list(values)
    joiner = _composite_joiner(values) if COMPOSITE_JOINERS else None
    if joiner is not None:
        return joiner[1](values, axis)
    if not values:  # TensorFlow packs nothing into an empty float32 vector
        return _array.zeros([0], _dt.float32)
    tensors = same_dtype_operands(values, "Pack")
    if tensors[0].shape.rank is not None:
        _check_python_axis(axis, tensors[0].shape.rank + 1)
    return bind(Pack, tuple(tensors), _NO_ATTRS if axis == 0 else {"axis": axis})


def unstack(value, num=None, axis=0, name="unstack"):
    x = as_tensor(value)
    s = x.shape
    if s.rank is None:
        raise ValueError("Cannot infer argument `num` from shape <unknown>")
    if s.rank:
        _check_python_axis(axis, s.rank)
    axis_n = _norm_axis(axis, s.rank, "Unpack") if s.rank else 0
    if s.rank == 0:
        raise ValueError("Input shape must have rank at least 1 to unstack, got rank 0")
    if num is None:
        num = s[axis_n]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
    return bind(Unpack, (x,), {"num": num, "axis": axis_n})


# --- ConcatV2 ------------------------------------------------------------------------------------

def _concat_graph_check(shapes, axis):
    """TensorFlow's shape function of ConcatV2, in its words: every input has the rank the axis
    needs and the first input's rank; the dimensions before and after the axis agree."""
    min_rank = -axis if axis < 0 else axis + 1
    first_rank, before, after = None, TensorShape(None), TensorShape(None)
    for s in shapes:
        if s.rank is None:
            continue
        if s.rank < min_rank:
            raise InvalidArgumentError(None, None, f"Shape must be at least rank {min_rank} but is rank {s.rank}")
        if first_rank is None:
            first_rank = s.rank
        elif s.rank != first_rank:
            raise InvalidArgumentError(None, None, f"Shape must be rank {first_rank} but is rank {s.rank}")
        a = axis % s.rank
        before = R.merge_shapes(before, TensorShape(list(s)[:a]))
        after = R.merge_shapes(after, TensorShape(list(s)[a + 1:]))


def _concat_check(shapes, axis):
    """TensorFlow's ConcatOp checks on (possibly partial) shapes; returns the normalised axis."""
    if R.building_graph():
        _concat_graph_check(shapes, axis)
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
    xs, axis = inputs[:-1], static_ints(inputs[-1])
    R.check_dtype_in("ConcatV2", inputs[-1].dtype, (_dt.int32, _dt.int64), arg="axis", attr="Tidx")
    dtype = R.check_same_dtype("ConcatV2", xs, list_input=True)
    shapes = [x.shape for x in xs]
    rank = next((s.rank for s in shapes if s.rank is not None), None)
    if rank is None:
        return [Spec(TensorShape(None), dtype)]
    if axis is None:
        return [Spec(TensorShape([None] * rank), dtype)]
    a = _concat_check(shapes, axis[0])
    dims = []
    for d in range(rank):
        col = [s[d] for s in shapes if s.rank is not None]
        if d == a:
            dims.append(None if None in col or len(col) < len(shapes) else sum(col))
        else:
            dims.append(next((c for c in col if c is not None), None))
    return [Spec(TensorShape(dims), dtype)]


def _concat_grad(op, g):
    xs, axis = op.inputs[:-1], op.inputs[-1]
    a = _math.floormod(_math.cast(_array.reshape(axis, []), _dt.int32), _array.rank(g))
    sizes = [_array.shape(x)[a] for x in xs]  # a StridedSlice of the shape vector
    return tuple(split(g, stack(sizes), axis=a)) + (None,)


ConcatV2 = defop("ConcatV2", inputs=("values", "axis"), kernel=_concat_kernel, infer=_concat_infer,
                 grad=_concat_grad, doc="Joins tensors along an existing axis; the axis is an input tensor.")


def concat(values, axis, name="concat"):
    values = list(values)
    if not values:
        if state.graph is not None:
            raise ValueError("List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum length 2.")
        raise InvalidArgumentError(None, None, "ConcatOp : Expected a non-empty list of tensors [Op:ConcatV2]")
    joiner = _composite_joiner(values) if COMPOSITE_JOINERS else None
    if joiner is not None:
        return values[0] if len(values) == 1 else joiner[0](values, axis)
    if len(values) == 1:  # TensorFlow returns identity(values[0]) here, and so do we
        return _array.identity(values[0])
    hint = next((v.dtype for v in values if is_tensor_like(v)), None)
    if hint is not None:  # an empty Python list joins any dtype (conversion alone would make it float32)
        values = [np.zeros(np.shape(v), hint.np_dtype) if not is_tensor_like(v) and np.size(v) == 0 else v
                  for v in values]
    tensors = same_dtype_operands(values, "ConcatV2")
    if isinstance(axis, float) and state.graph is None:
        convert_to_tensor(axis, dtype=_dt.int32)  # eager TensorFlow's TypeError ("Cannot convert 0.5 ...")
    return bind(ConcatV2, tuple(tensors) + (as_int_tensor(axis),))


# --- Split / SplitV --------------------------------------------------------------------------------

def _split_axis(axis, rank, op):
    if not -rank <= axis < rank:
        R.refuse(f"-input rank(-{rank}) <= split_dim < input rank ({rank}), but got {axis}",
                 f"Dimension size, given by scalar input {axis} must be in range [-{rank}, {rank})")
    return axis % rank


def _split_kernel(axis, x, num_split):
    axis = _split_axis(int(axis), x.ndim, "Split")
    if x.shape[axis] % num_split:
        raise InvalidArgumentError(None, None, f"Number of ways to split should evenly divide the split dimension, "
                                               f"but got split_dim {axis} (size = {x.shape[axis]}) and num_split "
                                               f"{num_split}")
    return [p.copy() for p in np.split(x, num_split, axis=axis)]


def _resolve_sizes(sizes, total):
    """SplitV's size_splits with its single -1 filled in; TensorFlow's checks (its shape function's
    words while building a graph)."""
    if sum(s == -1 for s in sizes) > 1:
        R.refuse("There can only be one -1 in the input.", "size_splits can only have one -1")
    known = sum(s for s in sizes if s != -1)
    if R.building_graph():
        negative = next((i for i, s in enumerate(sizes) if s < -1), None)
        if negative is not None:
            raise InvalidArgumentError(None, None, f"Split size at index {negative} must be >= 0. Got: "
                                                   f"{sizes[negative]}")
        if total is not None and ((-1 not in sizes and known != total) or known > total):
            raise InvalidArgumentError(None, None, f"can't split axis of size {total} into pieces of size "
                                                   f"[{','.join(str(s) for s in sizes)}]")
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
    a, num = static_ints(axis), attrs["num_split"]
    total = None if a is None or x.shape.rank is None else x.shape[_split_axis(a[0], x.shape.rank, "Split")]
    if total is not None and total % num:
        R.refuse(f"Number of ways to split should evenly divide the split dimension, but got split_dim {a[0]} "
                 f"(size = {total}) and num_split {num}",
                 f"Dimension size must be evenly divisible by {num} but is {total}")
    return _split_specs(x, None if a is None else a[0], [None if total is None else total // num] * num)


def _splitv_infer(inputs, attrs):
    x, sizes, axis = inputs
    R.check_dtype_in("SplitV", sizes.dtype, (_dt.int8, _dt.int32, _dt.int64), arg="size_splits", attr="Tlen")
    a, sz, num = static_ints(axis), static_ints(sizes), attrs["num_split"]
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


def _check_num_split(num):
    """TensorFlow's attr check of Split (the minimum of num_split is 1): eagerly InvalidArgumentError,
    while tracing the graph builder's ValueError; never a division by zero further on."""
    if num >= 1:
        return
    if state.graph is not None:
        raise ValueError(f"Attr 'num_split' of 'Split' Op passed {num} less than minimum 1.")
    raise InvalidArgumentError(None, None, f"Value for attr 'num_split' of {num} must be at least minimum 1")


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """`tf.split`: an int splits evenly (op Split), a list of sizes uses SplitV."""
    x = as_tensor(value)
    if isinstance(num_or_size_splits, numbers.Integral):
        _check_num_split(int(num_or_size_splits))
        return bind(Split, (as_int_tensor(axis), x), {"num_split": int(num_or_size_splits)})
    sizes = as_int_tensor(num_or_size_splits)
    if sizes.shape.rank == 0:  # a count is a Python int; a tensor (or a float) is a list of sizes
        raise ValueError(f"Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
                         f"Argument provided: {num_or_size_splits}")
    if num is None:
        num = sizes.shape[0]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {sizes.shape}")
    return list(bind(SplitV, (x, sizes, as_int_tensor(axis)), {"num_split": int(num)}))



# --- JAX lowerings (jit_compile=True, codegen/xla.py); axes and sizes are known at trace time ---


def _jax_splitv(x, size_splits, axis, num_split):
    axis = _split_axis(int(axis), x.ndim, "SplitV")
    sizes = _resolve_sizes([int(s) for s in size_splits], x.shape[axis])
    return jnp.split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis)


Pack.jax = lambda *xs, axis=0: jnp.stack(xs, axis=axis)
Unpack.jax = lambda x, num, axis=0: [jnp.take(x, i, axis=axis) for i in range(x.shape[axis])]
ConcatV2.jax = lambda *args: jnp.concatenate(args[:-1], axis=int(args[-1]) % max(args[0].ndim, 1))
Split.jax = lambda axis, x, num_split: jnp.split(x, num_split, axis=_split_axis(int(axis), x.ndim, "Split"))
SplitV.jax = _jax_splitv
