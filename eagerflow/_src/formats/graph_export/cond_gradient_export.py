"""A tf.cond's gradient (control_flow/cond_gradient.py) written as TensorFlow's ops.

eagerflow's If, when a tape records it, returns one more output, `kept`: a variant holding the
values the taken branch computed that the gradient reads. The gradient is a second If whose
branches read those values (`IfKeptValue`, by position among the forward branch's intermediates).
TensorFlow states the same thing with its Optional ops: each forward branch also returns an
Optional (`OptionalFromValue`) holding the values its gradient branch reads, and each gradient
branch takes them back out (`OptionalGetValue`). The two branches of the forward If keep
different values, but both return one variant; the gradient branch for the then-branch runs only
when the then-branch ran, so it always finds its own values in it.

Which forward branch a gradient branch reads is fixed by construction: the gradient If's
then-branch is the gradient of the forward If's then-branch (control/cond.py `_if_grad`). The
exporter records, for each If branch graph it writes, whether it is a then- or an else-branch
(`FunctionLibrary.branch_sides`), and an IfKeptValue finds the forward branch from that and from
the If its `kept` input comes from (through captures, and through kept values of an outer If for a
conditional nested in a branch)."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .attr_values import ExportError
from .function_def import Value
from .generic_op import emit
from .rewrites import const

_IFS = ("If", "StatelessIf")


def kept_positions(branch):
    """The positions (among the branch's intermediates) its gradients read, in order."""
    return list(branch.kept_for_gradient or ())


def keeps_for_gradient(op):
    """Whether the If returns its kept values: a gradient of it was built (one recorded by a tape,
    or one nested in a branch or loop body whose own gradient replayed it)."""
    return any(kept_positions(op.attrs[kind]) for kind in ("then_branch", "else_branch"))


def add_kept_output(sub, op, branch):
    """Appends to a forward branch's FunctionBuilder the node packing the values its gradient
    reads into one Optional; returns that Value (the branch's last output)."""
    intermediates = branch.with_intermediates().intermediates
    components = [intermediates[p] for p in kept_positions(branch)]
    optional = Value(_dt.variant)
    if components:
        emit(sub, op, "OptionalFromValue", components, {}, [optional], base="kept_for_gradient")
    else:
        emit(sub, op, "OptionalNone", [], {}, [optional], base="kept_for_gradient")
    return optional


def _captured_from(tensor):
    """The outer tensor a placeholder captured, or None."""
    for external, internal in tensor._op.graph.captures:
        if internal is tensor:
            return external
    return None


def _side_of(library, graph, where):
    side = library.branch_sides.get(graph)
    if side is None:
        raise ExportError(f"op {where!r} reads a tf.cond's kept values outside the branch of a gradient If")
    return side


def _forward_branch(library, op, kept=None):
    """The forward Branch whose kept values `op` (IfKeptValue, or IfKeptGradient given the `kept` it
    differentiates) reads."""
    side = _side_of(library, op.graph, op.name)
    t = op.inputs[0] if kept is None else kept
    while True:
        producer = t._op
        if producer is None:
            raise ExportError(f"op {op.name!r} reads kept values that no If returned")
        if producer.type == "Placeholder":
            outer = _captured_from(t)
            if outer is None:
                raise ExportError(f"op {op.name!r} reads kept values passed in as an argument, not from an If")
            t = outer
        elif producer.type in _IFS and t is producer.outputs[-1]:
            return producer.attrs[f"{side}_branch"]
        elif producer.type == "IfKeptValue":  # a conditional nested in a branch: its kept variant was kept too
            outer = _forward_branch(library, producer)
            t = outer.with_intermediates().intermediates[producer.attrs["position"]]
        else:
            raise ExportError(f"op {op.name!r} reads kept values computed by {producer.type} {producer.name!r} "
                              f"(a third-order tf.cond gradient does not export yet)")


def _read_all(builder, op, optional, branch):
    """OptionalGetValue of every value `branch` keeps, out of `optional` (its kept values or their
    gradient, which has their layout); returns (positions, component Values)."""
    positions = kept_positions(branch)
    intermediates = branch.with_intermediates().intermediates
    kept = [intermediates[p] for p in positions]
    components = [Value(t.dtype) for t in kept]
    shapes = [t.shape if t.dtype is not _dt.variant else TensorShape([]) for t in kept]
    emit(builder, op, "OptionalGetValue", [optional], {"output_types": [t.dtype for t in kept],
                                                        "output_shapes": shapes}, components)
    return positions, components


def export_kept_value(builder, op):
    """IfKeptValue: one component of the Optional its forward branch returned (OptionalGetValue)."""
    branch = _forward_branch(builder.library, op)
    position = op.attrs["position"]
    if position not in kept_positions(branch):
        _stand_in(builder, op)
        return
    positions, components = _read_all(builder, op, op.inputs[0], branch)
    builder.set_ref(op.outputs[0], components[positions.index(position)].ref)


def export_kept_gradient(builder, op):
    """IfKeptGradient (second order): the gradient of the kept Optional, as TensorFlow's gradient of
    an Optional is: an Optional holding a gradient for each component, here `g` for this one and
    zeros for the others (several such add up with AddN, component by component)."""
    g, kept = op.inputs
    branch = _forward_branch(builder.library, op, kept)
    position = op.attrs["position"]
    if position not in kept_positions(branch):  # read for its shape only: no gradient flows through it
        emit(builder, op, "ZerosLike", [kept], {}, [op.outputs[0]])
        return
    positions, components = _read_all(builder, op, kept, branch)
    grads = []
    for p, component in zip(positions, components):
        if p == position:
            grads.append(g)
            continue
        zero = Value(component.dtype)
        emit(builder, op, "ZerosLike", [component], {}, [zero], base=f"{op.name}/zeros")
        grads.append(zero)
    emit(builder, op, "OptionalFromValue", grads, {}, [op.outputs[0]])


def export_kept_seed(builder, op):
    """IfKeptSeed: one kept value's gradient out of the gradient of the kept Optional."""
    seeds, like = op.inputs
    reader = like._op
    if reader is None or reader.type != "IfKeptValue" or reader.graph is not op.graph:
        raise ExportError(f"op {op.name!r} seeds a value that is not a kept value of its branch")
    branch = _forward_branch(builder.library, reader)
    positions, components = _read_all(builder, op, seeds, branch)
    if op.attrs["position"] not in positions:
        raise ExportError(f"op {op.name!r} seeds a value its forward branch does not keep")
    builder.set_ref(op.outputs[0], components[positions.index(op.attrs["position"])].ref)


def _stand_in(builder, op):
    """A read of a value the forward does not keep: the gradient's generated code needs at most its
    static shape (a Shape it folded), so zeros of that shape stand in for it; a value of unknown
    shape cannot be read that way."""
    shape, dtype = op.attrs["spec"]
    shape = TensorShape(shape)
    if not shape.is_fully_defined() or dtype is _dt.variant or dtype is _dt.resource:
        raise ExportError(f"op {op.name!r} reads a value the tf.cond's forward does not keep for its gradient")
    dims = const(builder, f"{op.name}/shape", np.asarray(shape.as_list(), np.int64))
    zero = const(builder, f"{op.name}/zero", np.zeros((), dtype.as_numpy_dtype), dtype)
    emit(builder, op, "Fill", [dims, zero], {}, [op.outputs[0]], base=op.name)
