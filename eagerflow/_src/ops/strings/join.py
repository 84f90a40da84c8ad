"""`tf.strings.join` (StringJoin: element by element across tensors, with broadcasting) and
`tf.strings.reduce_join` (ReduceJoin: along axes of one tensor)."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import OutOfRangeError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from .elementwise import _S, _as_bytes, _dims, _err


def _join_kernel(*inputs, separator=b""):
    sep = _as_bytes(separator)
    arrays = [np.asarray(a, dtype=object) for a in inputs]
    shape = ()
    for a in arrays:
        if a.ndim:
            if shape and a.shape != shape:
                raise _err(f"Input shapes do not match: {_dims(shape)} vs. {_dims(a.shape)}")
            shape = a.shape
    out = np.empty(shape, dtype=object)
    columns = [np.broadcast_to(a, shape).reshape(-1) for a in arrays]
    flat = out.reshape(-1)
    for i in range(flat.size):
        flat[i] = sep.join(_as_bytes(c[i]) for c in columns)
    return out


def _join_infer(inputs, attrs):
    shape = TensorShape([])
    for i, t in enumerate(inputs):
        R.check_input_dtype("StringJoin", inputs, i, _S)
        if t.shape.rank == 0:
            continue
        if shape.rank == 0 or state.graph is None:  # eagerly the kernel compares the shapes, as TensorFlow's
            shape = t.shape
        elif shape.rank is not None and t.shape.rank is not None and shape.rank != t.shape.rank:
            raise _err(f"Shapes must be equal rank, but are {shape.rank} and {t.shape.rank} for "
                       f"'{{{{node StringJoin}}}} = StringJoin' with input shapes: "
                       + ", ".join(R.fmt_dims(x.shape) for x in inputs) + ".")
        elif not shape.is_compatible_with(t.shape):
            i, a, b = next((i, a, b) for i, (a, b) in enumerate(zip(shape, t.shape))
                           if a is not None and b is not None and a != b)
            raise _err(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                       f"{R.fmt_dims(shape)} and {R.fmt_dims(t.shape)}.")
        else:
            shape = shape.merge_with(t.shape)
    return [Spec(shape, _S)]


StringJoin = defop("StringJoin", inputs=("inputs",), kernel=_join_kernel, infer=_join_infer, grad=NO_GRADIENT,
                   doc="Joins same-shape string tensors (scalars broadcast) element by element.")


def join(inputs, separator="", name=None):
    """`tf.strings.join`: element-wise concatenation of a list of string tensors."""
    tensors = tuple(as_tensor(t, _S) for t in inputs)
    if not tensors:
        return as_tensor(b"")
    return bind(StringJoin, tensors, {"separator": _as_bytes(separator)}, name=name)


def _reduce_join_kernel(x, axes, keep_dims=False, separator=b""):
    arr = np.asarray(x, dtype=object)
    ndim = arr.ndim
    axes = [int(a) for a in np.asarray(axes).reshape(-1)]
    for a in axes:
        if not -ndim <= a < max(ndim, 1) or (ndim == 0 and a not in (0, -1)):
            raise OutOfRangeError(None, None, f"Invalid reduction dimension {a} for input with {ndim} dimension(s)")
    axes = [a % ndim for a in axes] if ndim else []
    for i, a in enumerate(axes):
        if a in axes[:i]:
            raise _err(f"Duplicate reduction dimension {a}")
    sep = _as_bytes(separator)
    kept = [d for d in range(ndim) if d not in axes]
    moved = np.transpose(arr, kept + axes[::-1])  # the first axis listed varies fastest, as in TensorFlow
    rows = moved.reshape([arr.shape[d] for d in kept] + [-1])
    out = np.empty(rows.shape[:-1], dtype=object)
    flat_rows, flat_out = rows.reshape(out.size, -1), out.reshape(-1)
    for i in range(out.size):
        flat_out[i] = sep.join(_as_bytes(s) for s in flat_rows[i])
    if keep_dims:
        out = out.reshape([1 if d in axes else arr.shape[d] for d in range(ndim)])
    return out


def _reduce_join_infer(inputs, attrs):
    x, axes = inputs
    R.check_input_dtype("ReduceJoin", inputs, 0, _S)
    known = static_value(axes)
    if x.shape.rank is None or known is None:
        return [Spec(TensorShape(None), _S)]
    ndim = x.shape.rank
    if R.graph_shape_check(inputs):  # the graph's shape function refuses an axis out of range itself
        for a in np.asarray(known).reshape(-1):
            if not -ndim <= int(a) < max(ndim, 1):
                raise _err(f"Invalid reduction dimension {int(a)} for input with {ndim} dimensions.")
    picked = {int(a) % ndim for a in np.asarray(known).reshape(-1) if -ndim <= int(a) < ndim} if ndim else set()
    dims = x.shape.as_list()
    if attrs.get("keep_dims"):
        return [Spec(TensorShape([1 if d in picked else dims[d] for d in range(ndim)]), _S)]
    return [Spec(TensorShape([dims[d] for d in range(ndim) if d not in picked]), _S)]


ReduceJoin = defop("ReduceJoin", inputs=("inputs", "reduction_indices"), kernel=_reduce_join_kernel,
                   infer=_reduce_join_infer, grad=NO_GRADIENT,
                   doc="Joins the strings along the given axes, in row-major order.")


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """`tf.strings.reduce_join`: the strings along `axis` (all axes when None) joined; a RaggedTensor's
    rows (or columns) by UnsortedSegmentJoin (ops/ragged/reduce.py)."""
    if hasattr(inputs, "ragged_rank"):
        from ..ragged.reduce import ragged_reduce
        dense = lambda x, a, keep: reduce_join(x, a, keep, separator)  # noqa: E731
        return ragged_reduce("Join", dense, inputs, axis, keepdims, _as_bytes(separator))
    from ..array.basic import rank
    from ..array.sequences import range as _range
    x = as_tensor(inputs, _S)
    if axis is None:  # every axis, last first: the strings in row-major order
        axes = list(range(x.shape.rank))[::-1] if x.shape.rank is not None else _range(rank(x) - 1, -1, -1)
    else:
        axes = axis
    return bind(ReduceJoin, (x, as_tensor(axes, _dt.int32)),
                {"keep_dims": bool(keepdims), "separator": _as_bytes(separator)}, name=name)
