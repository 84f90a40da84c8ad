"""Scalar indexing: `x[t]` (a StridedSlice that shrinks axis 0 at `begin = stack([t])`) becomes one
NumPy indexing step `x[t]`.

TensorFlow's graph for `x[t]` with a tensor `t` packs `t` into begin/end vectors and runs the
general strided slice; inside a loop body that costs more than the math around it. The user's
graph keeps TensorFlow's ops; only the program that is compiled uses the simpler step.
"""
from __future__ import annotations

from ..core.errors import InvalidArgumentError
from ..ops.registry import NO_GRADIENT, OpDef, Spec

_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask")


def _index_kernel(x, i):
    try:
        return x[i]
    except IndexError:
        raise InvalidArgumentError(None, None, f"slice index {int(i)} of dimension 0 out of bounds.") from None


# Internal to compiled programs: never in a user-visible graph, so not registered (no gradient).
SCALAR_INDEX = OpDef("ScalarIndex", _index_kernel, lambda inputs, attrs: [Spec(inputs[0].shape[1:], inputs[0].dtype)],
                     NO_GRADIENT, ("input", "index"), False, False, "x[i] for a scalar integer i")


def _const_value(t):
    return t._op.attrs["value"] if t._op.type == "Const" and not t._op.inputs else None


def _scalar_index_of(program, op):
    """The scalar index tensor of a StridedSlice that is `x[i]`, or None."""
    if op.attrs.get("shrink_axis_mask", 0) != 1 or any(op.attrs.get(m, 0) for m in _MASKS):
        return None
    strides = _const_value(program.resolve(op.inputs[3]))
    if strides is None or strides.shape != (1,) or int(strides[0]) != 1:
        return None
    begin = program.resolve(op.inputs[1])
    if begin._op.type == "Pack" and len(begin._op.inputs) == 1 and not begin._op.attrs.get("axis", 0):
        index = program.resolve(begin._op.inputs[0])
        return index if index.shape.rank == 0 else None
    return None


def simplify_scalar_index(program):
    from ..graph.graph import Operation, SymbolicTensor
    for i, op in enumerate(program.ops):
        if op.type != "StridedSlice" or id(op.outputs[0]) in program.subst:
            continue
        index = _scalar_index_of(program, op)
        if index is None:
            continue
        x = program.resolve(op.inputs[0])
        new = Operation(op.graph, SCALAR_INDEX, op.name, (x, index), {}, op.source)
        out = op.outputs[0]
        new.outputs = (SymbolicTensor(new, 0, out.shape, out.dtype),)
        program.replace(i, new)
