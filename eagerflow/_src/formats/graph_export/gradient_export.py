"""A loop's gradient (`WhileGrad`) written as TensorFlow's `SymbolicGradient`: the gradient of a
function with respect to its inputs, for given gradients of its outputs.

eagerflow differentiates a while loop by keeping, per iteration, what the gradient reads (the
loop's history, a variant output TensorFlow's While has no counterpart for) and running the traced
gradient of one iteration backwards over it. TensorFlow's files have no such value, so the export
states the gradient at the level TensorFlow's ops do: a FunctionDef holding the forward loop alone
(the loop's inputs in, its results out) and a SymbolicGradient node of that function, fed the
loop's inputs and the gradients of its results. A reader derives the gradient from the forward
function again (eagerflow's loader with its own autodiff, which keeps the history as before)."""
from __future__ import annotations

from ...core import dtypes as _dt
from .attr_values import ExportError
from .control_flow_export import export_while
from .function_def import FunctionBuilder, Value
from .generic_op import emit

_LOOPS = ("While", "StatelessWhile")


def _gradient_dtype(t):
    """The dtype of a gradient for `t`: a variable handle's value dtype."""
    if t.dtype is _dt.resource:
        spec = t._op.attrs.get("variable_spec") if t._op is not None and t._op.type == "Placeholder" else None
        if spec is None:
            raise ExportError(f"the gradient for {t.name} is the gradient of a resource whose variable is unknown")
        return spec[1]
    return t.dtype


def _forward_function(builder, loop):
    """The FunctionDef computing the loop's results from its inputs; returns its name (one per
    loop: the forward call and the gradient name the same function)."""
    known = builder.library.forward_functions.get(loop)
    if known is not None:
        return known
    sub = FunctionBuilder(builder.library, builder.library.unique_name(f"{loop.name}_forward"))
    for i, t in enumerate(loop.inputs):
        spec = t._op.attrs.get("variable_spec") if t._op is not None and t._op.type == "Placeholder" else None
        shape = None if t.dtype is _dt.resource else t.shape
        sub.set_ref(t, sub.add_arg(f"input_{i}", t.dtype, shape, (spec[0], spec[1]) if spec else None))
    export_while(sub, loop)
    n = loop.attrs["n_vars"]
    for k, t in enumerate(loop.outputs[:n]):
        sub.add_output(f"output_{k}", sub.ref(t), t.dtype)
    name = builder.library.forward_functions[loop] = builder.library.add(sub)
    return name


def export_kept_while(builder, op):
    """A loop that keeps its history for a gradient: a call of its forward function (the loop
    itself runs inside it), so that the gradient's SymbolicGradient names the very computation the
    graph runs and a reader can differentiate the loop it already built."""
    if not op.attrs.get("keep_history"):
        return export_while(builder, op)
    forward = _forward_function(builder, op)
    n = op.attrs["n_vars"]
    call = "StatefulPartitionedCall" if op.type == "While" else "PartitionedCall"
    emit(builder, op, call, list(op.inputs), {"f": forward, "Tin": [t.dtype for t in op.inputs],
                                              "Tout": [t.dtype for t in op.outputs[:n]]}, list(op.outputs[:n]))
    builder.set_ref(op.outputs[n], None)  # the history: read by the gradient's SymbolicGradient only


def export_while_grad(builder, op):
    if op.attrs.get("seed_positions") is not None:
        raise ExportError(f"op {op.name!r} differentiates a loop's gradient again (a second-order loop gradient), "
                          f"which TensorFlow's SymbolicGradient of the forward loop does not state yet")
    history = op.inputs[0]
    loop = history._op
    if loop is None or loop.type not in _LOOPS or loop.graph is not op.graph or history is not loop.outputs[-1]:
        raise ExportError(f"op {op.name!r} reads a loop history that is not the output of a loop in its graph")
    n = loop.attrs["n_vars"]
    loop_inputs = list(loop.inputs)
    externals = loop_inputs[n:]
    given = list(op.inputs[1:1 + len(externals)])
    seeds = list(op.inputs[1 + len(externals):])
    if len(given) != len(externals) or any(a is not b for a, b in zip(given, externals)) or len(seeds) != n:
        raise ExportError(f"op {op.name!r} does not take its loop's captured values and one gradient per result")
    forward = _forward_function(builder, loop)
    grads = [Value(_gradient_dtype(t)) for t in loop_inputs]
    emit(builder, op, "SymbolicGradient", loop_inputs + seeds,
         {"f": forward, "Tin": [t.dtype for t in loop_inputs + seeds], "Tout": [g.dtype for g in grads]}, grads)
    wanted = list(range(n)) + [n + j for j in op.attrs["ext_index"]]
    for out, position in zip(op.outputs, wanted):
        builder.set_ref(out, grads[position].ref)
