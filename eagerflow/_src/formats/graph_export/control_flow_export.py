"""If/StatelessIf and While/StatelessWhile as TensorFlow writes them: the branches, condition and
body as FunctionDefs over the op's inputs. eagerflow's control-flow ops take their sub-graphs'
captured values as their last inputs and have one more output (the history a gradient may keep);
TensorFlow's While carries every input through the loop, so the body returns the captured values
unchanged, and a `maximum_iterations` bound becomes a counter carried as one more loop variable."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .attr_values import ExportError
from .cond_gradient_export import add_kept_output, keeps_for_gradient
from .function_def import FunctionBuilder, Value
from .function_export import add_outputs, write_body
from .generic_op import emit
from .rewrites import const


def _as_seen_by(graph, tensor):
    """`tensor` as `graph` sees it: itself, or the placeholder that captured it."""
    if getattr(tensor, "_op", None) is not None and tensor._op.graph is graph:
        return tensor
    for external, internal in graph.captures:
        if external is tensor:
            return internal
    return tensor


def _arg_shape(t):
    return TensorShape([]) if t.dtype is _dt.resource else t.shape


def _branch_builder(builder, op, branch, kind, tensors, explicit=()):
    """A FunctionBuilder for `branch` taking one argument per tensor of `tensors` (the op's inputs
    it sees): its explicit placeholders are the first arguments, its captures the arguments at the
    positions of the values they captured.

    A control-flow op copied out of a called tf.function (the call inlined where a tape recorded
    it) keeps its branches, whose captures name the callee's tensors, while its inputs are the
    copies: those captures are placed by where the op passes them (`Branch.index`, positions among
    the op's inputs after its loop variables), as the kernel does."""
    sub = FunctionBuilder(builder.library, builder.library.unique_name(f"{op.name}_{kind}"))
    refs = [sub.add_arg(f"arg_{i}", t.dtype, _arg_shape(t), _outer_handle(t)) for i, t in enumerate(tensors)]
    for ph, ref in zip(explicit, refs):
        sub.set_ref(ph, ref)
    index = branch.index or ()
    for j, (external, internal) in enumerate(branch.graph.captures):
        here = _as_seen_by(op.graph, external)
        position = next((i for i, t in enumerate(tensors) if t is here), None)
        if position is None and j < len(index) and len(explicit) + index[j] < len(tensors) \
                and tensors[len(explicit) + index[j]].dtype is external.dtype:
            position = len(explicit) + index[j]
        if position is None:
            raise ExportError(f"a sub-graph of {op.name!r} captures {external.name}, which is not an input of the op")
        sub.set_ref(internal, refs[position])
    write_body(sub, branch.graph, branch.get_operations())
    return sub, refs


def _outer_handle(t):
    spec = t._op.attrs.get("variable_spec") if t._op is not None and t._op.type == "Placeholder" else None
    return (spec[0], spec[1]) if spec else None


def _unusable_history(builder, op, output):
    """The history output exists for gradients only; a graph reading it does not export."""
    builder.set_ref(output, None)


def export_if(builder, op):
    """An If over its branches' FunctionDefs. One recorded for a gradient also returns, from each
    branch, the Optional of the values that branch's gradient reads (cond_gradient_export.py)."""
    specs = op.attrs["output_specs"]
    keeps = keeps_for_gradient(op)
    inputs = list(op.inputs[1:])
    names = {}
    for kind in ("then_branch", "else_branch"):
        branch = op.attrs[kind]
        builder.library.branch_sides[branch.graph] = kind.split("_")[0]
        sub, _ = _branch_builder(builder, op, branch, kind.split("_")[0], inputs)
        results = list(branch.outputs) + ([add_kept_output(sub, op, branch)] if keeps else [])
        add_outputs(sub, results)
        names[kind] = builder.library.add(sub)
    types, shapes = [d for _, d in specs], [s for s, _ in specs]
    outputs = list(op.outputs[:len(specs)])
    if keeps:
        types, shapes, outputs = types + [_dt.variant], shapes + [TensorShape([])], outputs + [op.outputs[-1]]
    else:
        _unusable_history(builder, op, op.outputs[-1])
    emit(builder, op, op.type, [op.inputs[0]] + inputs, {**names, "Tout": types, "output_shapes": shapes}, outputs)
    _lowered(builder)


def export_while(builder, op):
    n = op.attrs["n_vars"]
    bound = op.attrs.get("maximum_iterations", -1)
    bound = -1 if bound is None else bound
    inputs = list(op.inputs)
    if bound >= 0:
        counter_start = const(builder, f"{op.name}/iterations", np.int32(0))
        counter_start.ref  # written before the loop node
    cond, body = op.attrs["cond"], op.attrs["body"]
    carried = inputs + ([_CounterSpec()] if bound >= 0 else [])

    sub, refs = _branch_builder(builder, op, cond, "cond", carried, cond.explicit)
    predicate = cond.outputs[0]
    if bound >= 0:
        limit = const(sub, "limit", np.int32(bound))
        below = Value(_dt.bool_)
        emit(sub, op, "Less", [Value(_dt.int32, refs[-1]), limit], {}, [below], base="below_limit")
        both = Value(_dt.bool_)
        emit(sub, op, "LogicalAnd", [below, predicate], {}, [both], base="and_limit")
        predicate = both
    add_outputs(sub, [predicate])
    cond_name = builder.library.add(sub)

    sub, refs = _branch_builder(builder, op, body, "body", carried, body.explicit)
    results = list(body.outputs[:n]) + [Value(t.dtype, r) for t, r in zip(carried[n:], refs[n:])]
    if bound >= 0:
        counter = Value(_dt.int32)
        emit(sub, op, "AddV2", [Value(_dt.int32, refs[-1]), const(sub, "one", np.int32(1))], {}, [counter],
             base="next_iteration")
        results[-1] = counter
    add_outputs(sub, results)
    body_name = builder.library.add(sub)

    loop_inputs = inputs + ([counter_start] if bound >= 0 else [])
    shapes = [s for s, _ in op.attrs["output_specs"]] + [_arg_shape(t) for t in carried[n:]]
    outputs = list(op.outputs[:n]) + [Value(t.dtype) for t in carried[n:]]
    emit(builder, op, op.type, loop_inputs, {"cond": cond_name, "body": body_name, "output_shapes": shapes},
         outputs)
    _lowered(builder)
    _unusable_history(builder, op, op.outputs[n])


def _lowered(builder):
    """Marks the node just written `_lower_using_switch_merge`, as TensorFlow marks the If and While nodes its
    tf.cond and tf.while_loop write: TensorFlow's runtime then runs them as Switch/Merge graphs, whose Switch
    refuses a predicate that is not a scalar ("The second input must be a scalar") where the unlowered While
    kernel would take any non-empty predicate as true and never stop."""
    builder.nodes[-1]["attr"]["_lower_using_switch_merge"] = {"b": True}


class _CounterSpec:
    """The iteration counter carried through a bounded loop (an int32 scalar)."""
    dtype = _dt.int32
    shape = TensorShape([])
    _op = None
