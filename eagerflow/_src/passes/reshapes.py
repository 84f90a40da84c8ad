"""Reshapes that change nothing, and the batch size read back from a tensor's shape only to reshape it.

Two patterns an exported Keras model runs on every call, each a few kernel calls of a few
microseconds (at batch 1 most of a small model's time is such calls):

1. A chain of Reshape / Squeeze / ExpandDims that comes back to a shape it started from: Keras 3's
   Conv2D reshapes its [C] bias to [1, 1, 1, C] and TensorFlow's export squeezes it back to [C].
   These ops keep the values' row-major order, so the result is the earlier value itself; the
   chain's output is replaced by it (both shapes fully known statically, same dtype, and every
   shape or axis operand of the chain a constant, so no run-time refusal is skipped).

2. Flatten's `reshape(x, stack([shape(x)[0], d1, ..., dk]))`: when x's dimensions after the first
   are statically known and their product is d1 * ... * dk (and not 0), the shape is
   `[-1, d1, ..., dk]`, a constant: the Reshape reads it instead, and Shape, StridedSlice and Pack
   are left to pruning. (A product of 0 would leave -1 undetermined, so that case stays.)
"""
from __future__ import annotations

import numpy as np

from ..graph.graph import Operation, SymbolicTensor

_ORDER_KEEPING = ("Reshape", "Squeeze", "ExpandDims")


def _const_value(tensor):
    op = tensor._op
    return op.attrs["value"] if op.type == "Const" and not op.inputs else None


def _known(shape):
    return shape.rank is not None and shape.is_fully_defined()


def _constant_operands(program, op) -> bool:
    """A chain link whose shape or axis operand is a constant: its static shape is then exactly what
    the kernel makes (a computed shape could still make the kernel refuse at run time)."""
    return all(_const_value(program.resolve(t)) is not None for t in op.inputs[1:])


def _same_as_earlier(program, op):
    """The tensor earlier in a Reshape/Squeeze/ExpandDims chain ending at `op` with op's static shape."""
    out = op.outputs[0]
    if not _known(out.shape) or not _constant_operands(program, op):
        return None
    want = out.shape.as_list()
    t = program.resolve(op.inputs[0])
    for _ in range(16):
        if t.dtype is not out.dtype:
            return None
        if _known(t.shape) and t.shape.as_list() == want:
            return t
        link = t._op
        if link.type not in _ORDER_KEEPING or len(link.outputs) != 1 or not _constant_operands(program, link):
            return None
        t = program.resolve(link.inputs[0])
    return None


def _leading_size_of(program, tensor, source):
    """Whether `tensor` is `shape(source)[0]` (Shape, then StridedSlice [0:1:1] shrunk to a scalar)."""
    op = tensor._op
    if op.type != "StridedSlice" or op.attrs.get("shrink_axis_mask") != 1:
        return False
    if any(op.attrs.get(m, 0) for m in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask")):
        return False
    begin, end, strides = (_const_value(program.resolve(t)) for t in op.inputs[1:])
    if begin is None or end is None or strides is None:
        return False
    if [np.ravel(v).tolist() for v in (begin, end, strides)] != [[0], [1], [1]]:
        return False
    shape_op = program.resolve(op.inputs[0])._op
    return shape_op.type == "Shape" and program.resolve(shape_op.inputs[0]) is source


def _constant_batch_shape(program, op):
    """[-1, d1, ..., dk] for a Flatten-style Reshape (see above), or None."""
    x = program.resolve(op.inputs[0])
    pack = program.resolve(op.inputs[1])._op
    if pack.type != "Pack" or pack.attrs.get("axis", 0) != 0 or len(pack.inputs) < 2:
        return None
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if not dims or any(d is None for d in dims[1:]):
        return None
    if not _leading_size_of(program, program.resolve(pack.inputs[0]), x):
        return None
    rest = [_const_value(program.resolve(t)) for t in pack.inputs[1:]]
    if any(v is None or np.ndim(v) != 0 or int(v) < 0 for v in rest):
        return None
    rest = [int(v) for v in rest]
    if int(np.prod(rest)) != int(np.prod(dims[1:])) or int(np.prod(rest)) == 0:
        return None
    return np.array([-1] + rest, pack.outputs[0].dtype.np_dtype)


def _const_tensor(graph, name, value, source):
    from ..core import dtypes as _dt
    from ..core.shape import TensorShape
    from ..ops.array.basic import Const
    op = Operation(graph, Const, name, (), {"value": value, "dtype": _dt.from_numpy(value.dtype)}, source)
    op.outputs = (SymbolicTensor(op, 0, TensorShape(value.shape), _dt.from_numpy(value.dtype)),)
    return op.outputs[0]


def simplify_reshapes(program):
    for i, op in enumerate(program.ops):
        if op.type not in _ORDER_KEEPING or id(op.outputs[0]) in program.subst:
            continue
        earlier = _same_as_earlier(program, op)
        if earlier is not None:
            program.subst[id(op.outputs[0])] = earlier
            continue
        if op.type != "Reshape":
            continue
        shape = _constant_batch_shape(program, op)
        if shape is None:
            continue
        const = _const_tensor(op.graph, f"{op.name}/batch_shape", shape, op.source)
        new = Operation(op.graph, op.opdef, op.name, (program.resolve(op.inputs[0]), const), dict(op.attrs), op.source)
        out = op.outputs[0]
        new.outputs = (SymbolicTensor(new, 0, out.shape, out.dtype),)
        program.replace(i, new)
