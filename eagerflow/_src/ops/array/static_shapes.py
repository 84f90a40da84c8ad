"""Shape checks and shape arithmetic: `tf.ensure_shape` (the EnsureShape op), `tf.get_static_value`,
`tf.shape_n`, `tf.broadcast_static_shape`, `tf.broadcast_dynamic_shape` and `tf.unravel_index`.

EnsureShape passes its input through, checks its shape when running, and while tracing gives the
output the merge of both shapes (so later shape rules see the expected static shape).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..bfloat16 import kernel_of
from ..operands import as_tensor
from ..registry import Spec, bind, defop, static_value
from ..shape_rules import broadcast_shape, check_same_dtype, dims_text


def _compatible(actual, expected):
    if expected.rank is None or actual.rank is None:
        return True
    return actual.rank == expected.rank and all(a is None or e is None or a == e for a, e in zip(actual, expected))


def _mismatch(actual, expected, tensor_name):
    return (f"Shape of tensor {tensor_name} {dims_text(actual)} is not compatible with expected shape "
            f"{dims_text(expected.as_list())}.")


def _ensure_shape_kernel(x, shape, tensor_name="input"):
    if not _compatible(TensorShape(list(x.shape)), shape):
        raise InvalidArgumentError(None, None, _mismatch(list(x.shape), shape, tensor_name))
    return x


def _ensure_shape_infer(inputs, attrs):
    x, expected = inputs[0], attrs["shape"]
    actual = x.shape
    if not _compatible(actual, expected):
        if state.graph is None:
            raise InvalidArgumentError(None, None, _mismatch(actual.as_list(), expected,
                                                             attrs.get("tensor_name", "input")))
        if actual.rank != expected.rank:  # TensorFlow's shape-inference wording while tracing
            raise ValueError(f"Shapes must be equal rank, but are {expected.rank} and {actual.rank}")
        i = next(i for i, (a, e) in enumerate(zip(actual, expected)) if a is not None and e is not None and a != e)
        raise ValueError(f"Dimension {i} in both shapes must be equal, but are {expected[i]} and {actual[i]}. "
                         f"Shapes are {dims_text(expected.as_list())} and {dims_text(actual.as_list())}.")
    return [Spec(actual.merge_with(expected) if actual.rank is not None else expected, x.dtype)]


EnsureShape = defop("EnsureShape", inputs=("input",), kernel=_ensure_shape_kernel, infer=_ensure_shape_infer,
                    grad=lambda op, g: g, doc="The input, after checking that its shape is compatible with `shape`.")
EnsureShape.jax = lambda x, shape, tensor_name="input": _ensure_shape_kernel(x, shape, tensor_name)


def ensure_shape(x, shape, name=None):
    """`tf.ensure_shape`: x unchanged, with InvalidArgumentError when its shape is not compatible with
    `shape` (None dims match anything); inside tf.function the result has the merged static shape."""
    x = as_tensor(x)
    expected = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    tensor_name = "input"
    if getattr(x, "is_symbolic", False) or state.graph is not None:
        tensor_name = getattr(x, "name", "input").split(":")[0] or "input"
    return bind(EnsureShape, (x,), {"shape": expected, "tensor_name": tensor_name}, name=name)


# --- tf.get_static_value: what can be known while tracing ---
_SHAPE_QUERIES = {"Shape", "Size", "Rank"}
_MAX_DEPTH = 32


def get_static_value(tensor, partial=False):
    """`tf.get_static_value`: the value of `tensor` as a NumPy array when it is known without running
    the function (an eager tensor, a constant, a shape query of a known shape, or a stateless op over
    such values), else None. Non-tensors come back unchanged."""
    if not hasattr(tensor, "dtype") or not hasattr(tensor, "shape"):
        return tensor
    if not getattr(tensor, "is_symbolic", False):
        value = getattr(tensor, "numpy", None)
        return value() if value is not None else tensor
    return _known(tensor, 0)


def _known(tensor, depth, shape_slices=False):
    value = static_value(tensor)
    if value is not None:
        return np.asarray(value)
    op = getattr(tensor, "op", None)
    if op is None or depth > _MAX_DEPTH or not op.opdef.may_run_early:  # never read a file here
        return None
    if shape_slices and op.type == "StridedSlice":
        return _known_slice_of_shape(op, tensor, depth)
    if op.type in _SHAPE_QUERIES:
        shape = op.inputs[0].shape
        out_type = op.attrs.get("out_type", _dt.int32).np_dtype
        if op.type == "Rank":
            return None if shape.rank is None else np.asarray(shape.rank, np.int32)
        if not shape.is_fully_defined():
            return None
        dims = shape.as_list()
        return np.asarray(dims if op.type == "Shape" else int(np.prod(dims, dtype=np.int64)), out_type)
    if not op.inputs or any(hasattr(v, "get_operations") or callable(v) and not isinstance(v, type)
                            for v in op.attrs.values()):
        return None  # a placeholder, or an op with sub-graphs or functions: not folded here
    return _fold(op, tensor, depth, shape_slices)


def _known_slice_of_shape(op, tensor, depth, partial=False):
    """A slice of `tf.shape(x)` whose picked dims of x are all static (`tf.shape(x)[1]` of an x of
    shape [None, 8] is 8), as TensorFlow's shape inference reads it. Unknown dims stand in as -1 (a
    real size is never negative) and any -1 in the slice makes it unknown."""
    source = getattr(op.inputs[0], "op", None)
    if source is None or source.type != "Shape" or source.inputs[0].shape.rank is None:
        return _fold(op, tensor, depth, shape_slices=True)
    dims = [-1 if d is None else d for d in source.inputs[0].shape.as_list()]
    rest = [_known(t, depth + 1, True) for t in op.inputs[1:]]
    if any(v is None for v in rest):
        return None
    try:
        out = np.asarray(kernel_of(op)(np.asarray(dims, source.attrs.get("out_type", _dt.int32).np_dtype),
                                       *rest, **op.attrs))
    except Exception:  # noqa: BLE001 - a slice that fails on these values is simply not known
        return None
    return out if partial else None if np.any(out < 0) else out


def _fold(op, tensor, depth, shape_slices):
    values = []
    for t in op.inputs:
        v = _known(t, depth + 1, shape_slices)
        if v is None:
            return None
        values.append(v)
    try:
        with np.errstate(all="ignore"):
            out = kernel_of(op)(*values, **op.attrs)
    except Exception:  # noqa: BLE001 - an op that fails on these values is simply not known
        return None
    return np.asarray(out[list(op.outputs).index(tensor)] if op.opdef.multi_output else out)


def shape_tensor_dims(shape):
    """The sizes a 1-D shape tensor asks for, as far as tracing knows them: a list with None for each
    size known only when running, or None when not even its length is known. A stacked list of sizes
    is read entry by entry (`[tf.shape(x)[0], 4, -1]` gives [None, 4, -1]), so Reshape and Fill keep
    every static size, as TensorFlow's shape inference does."""
    full = _known(shape, 0, shape_slices=True)
    if full is not None:
        return [int(d) for d in np.ravel(full)]
    op = getattr(shape, "op", None)
    if op is None:
        return None
    if op.type == "Shape":
        return op.inputs[0].shape.as_list() if op.inputs[0].shape.rank is not None else None
    if op.type in ("Identity", "Cast"):
        return shape_tensor_dims(op.inputs[0])
    if op.type == "StridedSlice" and shape.shape.rank == 1:  # tf.shape(x)[:1]: unknown dims come back as -1
        sliced = _known_slice_of_shape(op, shape, 0, partial=True)
        return None if sliced is None else [None if d < 0 else int(d) for d in np.ravel(sliced)]
    if op.type == "Pack" and op.attrs.get("axis", 0) == 0 and all(t.shape.rank == 0 for t in op.inputs):
        values = [_known(t, 1, shape_slices=True) for t in op.inputs]
        return [None if v is None else int(v) for v in values]
    if op.type == "ConcatV2":
        parts = [shape_tensor_dims(t) for t in op.inputs[:-1]]
        return None if any(p is None for p in parts) else [d for p in parts for d in p]
    return None


def partly_known_shape(shape_tensor):
    """The static shape a shape tensor known only in part gives (None for each size found only when
    running; Reshape's -1 stays unknown too, as the other sizes are not all known). The shape rules
    of Reshape and Fill use it."""
    dims = shape_tensor_dims(shape_tensor)
    if dims is None:
        n = shape_tensor.shape[0] if shape_tensor.shape.rank == 1 else None
        return TensorShape(None if n is None else [None] * n)
    return TensorShape([None if d is None or d < 0 else d for d in dims])


def shape_n(input, out_type=_dt.int32, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.shape_n`: the shapes of several tensors, which must share one dtype (ShapeN's `T`)."""
    from .basic import shape
    tensors = [as_tensor(t) for t in input]
    if len(tensors) > 1:
        check_same_dtype("ShapeN", tensors)
    return [shape(t, out_type=out_type) for t in tensors]


def broadcast_static_shape(shape_x, shape_y):
    """`tf.broadcast_static_shape`: the broadcast of two TensorShapes; unknown dims stay unknown
    unless the other side fixes them (None with n > 1 gives n). The ops' broadcasting rule, with
    this function's ValueError."""
    a, b = TensorShape(shape_x), TensorShape(shape_y)
    try:
        return broadcast_shape(a, b)
    except InvalidArgumentError:
        raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                         f"pair they are either equal or one of them is 1. Received: {a} and {b}.") from None


def broadcast_dynamic_shape(shape_x, shape_y):
    """`tf.broadcast_dynamic_shape` (BroadcastArgs): the broadcast of two shape vectors."""
    from .basic import fill, shape
    from ..math.elementwise import add
    x, y = as_tensor(shape_x, _dt.int32), as_tensor(shape_y, _dt.int32)
    if x.dtype != y.dtype:
        check_same_dtype("BroadcastArgs", [x, y])
    kx, ky = static_value(x), static_value(y)
    if kx is not None and ky is not None:
        a, b = [int(d) for d in np.ravel(kx)], [int(d) for d in np.ravel(ky)]
        try:
            dims = np.broadcast_shapes(tuple(a), tuple(b))
        except ValueError:
            raise InvalidArgumentError(None, None, f"Incompatible shapes: {dims_text(a)} vs. {dims_text(b)} "
                                       "[Op:BroadcastArgs]") from None
        return as_tensor(np.asarray(dims, x.dtype.np_dtype))
    # Known only when running: the shape of a broadcast sum of two small zero tensors.
    zero = as_tensor(np.zeros((), np.int8))
    return shape(add(fill(x, zero), fill(y, zero)), out_type=x.dtype)


def unravel_index(indices, dims, name=None):
    """`tf.unravel_index`: flat indices -> coordinates in an array of shape `dims` (row-major),
    shape [len(dims)] + indices.shape: coordinate k = (index // stride_k) % dims_k."""
    from .basic import expand_dims, reshape
    from ..math.special import cumprod
    from ..math.elementwise import floordiv, floormod
    idx = as_tensor(indices, _dt.int32) if not hasattr(indices, "dtype") else as_tensor(indices)
    dims_t = as_tensor(dims, idx.dtype) if not hasattr(dims, "dtype") else as_tensor(dims)
    if idx.dtype not in (_dt.int32, _dt.int64):
        raise TypeError(f"Value passed to parameter 'indices' has DataType {idx.dtype.name} not in list of "
                        "allowed values: int32, int64")
    check_same_dtype("UnravelIndex", [idx, dims_t])
    if idx.shape.rank is not None and idx.shape.rank > 1:
        raise InvalidArgumentError(None, None, "The indices can only be scalar or vector, got "
                                   f"\"{dims_text(idx.shape.as_list())}\" [Op:UnravelIndex]")
    if dims_t.shape.rank is not None and dims_t.shape.rank != 1:
        raise InvalidArgumentError(None, None, "The indices can only be 1-D, got "
                                   f"\"{dims_text(dims_t.shape.as_list())}\" [Op:UnravelIndex]")
    known_idx, known_dims = static_value(idx), static_value(dims_t)
    if known_idx is not None and known_dims is not None:
        total = int(np.prod(np.asarray(known_dims, np.int64)))
        if np.any(np.asarray(known_idx) < 0) or np.any(np.asarray(known_idx) >= total):
            raise InvalidArgumentError(None, None, "index is out of bound as with dims [Op:UnravelIndex]")
    strides = cumprod(dims_t, exclusive=True, reverse=True)
    rank = idx.shape.rank if idx.shape.rank is not None else 0
    column = [-1] + [1] * rank
    return floormod(floordiv(expand_dims(idx, 0), reshape(strides, column)), reshape(dims_t, column))
