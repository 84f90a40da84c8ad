"""A loop's gradient (`WhileGrad`) written as TensorFlow's `SymbolicGradient`: the gradient of a
function with respect to its inputs, for given gradients of its outputs.

eagerflow differentiates a while loop by keeping, per iteration, what the gradient reads (the
loop's history, a variant output TensorFlow's While has no counterpart for) and running the traced
gradient of one iteration backwards over it. TensorFlow's files have no such value, so the export
states the gradient at the level TensorFlow's ops do: a FunctionDef holding the forward loop alone
(the loop's inputs in, its results out) and a SymbolicGradient node of that function, fed the
loop's inputs and the gradients of its results. A reader derives the gradient from the forward
function again (eagerflow's loader with its own autodiff, which keeps the history as before).

A second order (the gradient of that gradient, control_flow/loop_history.py) is stated the same
way one level up: a FunctionDef computing the first-order gradient (a SymbolicGradient of the
forward function) and a SymbolicGradient of it, which gives the whole second-order gradient for the
loop's inputs and output gradients; the ops eagerflow built for it (the loop's history walked back
as a loop of its own) are left out. TensorFlow 2.21 loads such a file; its runtime has no gradient
for While, so only eagerflow runs these gradients."""
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
        return _export_seeded_while_grad(builder, op)
    loop, loop_inputs, seeds, forward = _first_order_parts(builder, op)
    grads = _symbolic_gradient(builder, op, forward, loop_inputs, seeds)
    builder.library.while_grads[op] = (forward, loop_inputs, seeds, grads)
    n = loop.attrs["n_vars"]
    wanted = list(range(n)) + [n + j for j in op.attrs["ext_index"]]
    for out, position in zip(op.outputs, wanted):
        builder.set_ref(out, grads[position].ref)


def _first_order_parts(builder, op, seeded=False):
    """(the loop, its inputs, the output gradients, its forward function) of a WhileGrad."""
    history = op.inputs[0]
    loop = history._op
    if loop is None or loop.type not in _LOOPS or loop.graph is not op.graph or history is not loop.outputs[-1]:
        raise ExportError(f"op {op.name!r} reads a loop history that is not the output of a loop in its graph")
    n = loop.attrs["n_vars"]
    loop_inputs = list(loop.inputs)
    externals = loop_inputs[n:]
    rest = list(op.inputs[1:-1] if seeded else op.inputs[1:])
    given, seeds = rest[:len(externals)], rest[len(externals):]
    if len(given) != len(externals) or any(a is not b for a, b in zip(given, externals)) or len(seeds) != n:
        raise ExportError(f"op {op.name!r} does not take its loop's captured values and one gradient per result")
    return loop, loop_inputs, seeds, _forward_function(builder, loop)


def _symbolic_gradient(builder, op, function, inputs, seeds, base=None):
    """A SymbolicGradient node of `function`; returns one Value per input (its gradient)."""
    grads = [Value(_gradient_dtype(t)) for t in inputs]
    emit(builder, op, "SymbolicGradient", inputs + seeds,
         {"f": function, "Tin": [t.dtype for t in inputs + seeds], "Tout": [g.dtype for g in grads]}, grads,
         base=base)
    return grads


def _gradient_function(builder, op, forward, loop_inputs, seeds):
    """A FunctionDef computing the first-order loop gradient `op` from the loop's inputs and the
    output gradients: what a second-order gradient differentiates."""
    library = builder.library
    sub = FunctionBuilder(library, library.unique_name(f"{op.name}_gradient"))
    args = []
    for i, t in enumerate(loop_inputs + seeds):
        spec = t._op.attrs.get("variable_spec") if t._op is not None and t._op.type == "Placeholder" else None
        shape = None if t.dtype is _dt.resource else t.shape
        args.append(Value(t.dtype, sub.add_arg(f"input_{i}", t.dtype, shape, (spec[0], spec[1]) if spec else None)))
    grads = [Value(_gradient_dtype(t)) for t in loop_inputs]
    emit(sub, op, "SymbolicGradient", args, {"f": forward, "Tin": [t.dtype for t in args],
                                             "Tout": [g.dtype for g in grads]}, grads)
    for k, g in enumerate(grads):
        sub.add_output(f"output_{k}", g.ref, g.dtype)
    return library.add(sub)


def export_second_order(builder, first, record):
    """The gradient of a first-order loop gradient `first` (control_flow/loop_history.py's
    `while_grad_grad`, whose ops the caller leaves out): TensorFlow's SymbolicGradient of the
    function computing `first`, fed the loop's inputs, `first`'s output gradients and the gradients
    of its results. It gives the whole gradient for each loop input (the part eagerflow routes
    through the forward loop's history included: the history's gradient is kept here for the
    WhileGrad that reads it, _export_seeded_while_grad) and for each output gradient."""
    output_grads, result, built = record
    known = builder.library.while_grads.get(first)
    if known is None:
        from .coverage import NOT_EXPORTED
        raise ExportError(f"op {first.name!r} of function {first.graph.name!r} is a third-order loop gradient (its "
                          f"LoopHistory* ops differentiate a second-order one), which does not export: "
                          f"{NOT_EXPORTED['LoopHistoryStack']}")
    forward, loop_inputs, seeds, values = known
    n = len(seeds)
    wanted = list(range(n)) + [n + j for j in first.attrs["ext_index"]]
    results_grads = []
    for p, value in enumerate(values):
        g = output_grads[wanted.index(p)] if p in wanted else None
        if g is None:
            g = Value(value.dtype)
            emit(builder, first, "ZerosLike", [value], {}, [g], base=f"{first.name}/zeros")
        results_grads.append(g)
    function = _gradient_function(builder, first, forward, loop_inputs, seeds)
    second = [Value(_gradient_dtype(t)) for t in loop_inputs + seeds]
    emit(builder, first, "SymbolicGradient", loop_inputs + seeds + results_grads,
         {"f": function, "Tin": [t.dtype for t in loop_inputs + seeds] + [g.dtype for g in results_grads],
          "Tout": [g.dtype for g in second]}, second, base=f"{first.name}/second_order")
    built = set(built)
    externals = len(loop_inputs) - n
    history_seeded = _seeded_loop_gradient(first, result[0] if result else None)
    through_history = set()
    if history_seeded is not None:
        through_history = {n + j for j in history_seeded.attrs["ext_index"]}
    for k, t in enumerate(result):
        if t is None or k == 0:
            continue
        if t._op not in built:
            raise ExportError(f"the gradient of op {first.name!r} returns a value it did not compute")
        position = n + k - 1 if k <= externals else len(loop_inputs) + k - 1 - externals
        if position in through_history:  # its whole gradient goes out through the loop's gradient below
            zero = Value(second[position].dtype)
            emit(builder, first, "ZerosLike", [second[position]], {}, [zero], base=f"{first.name}/counted_below")
            builder.set_ref(t, zero.ref)
        else:
            builder.set_ref(t, second[position].ref)
    if history_seeded is not None:
        builder.library.history_gradients[(result[0]._op, result[0].value_index)] = (
            first, {p: second[p] for p in list(range(n)) + sorted(through_history)})


def _seeded_loop_gradient(first, history_gradient):
    """The WhileGrad of `first`'s loop that takes `history_gradient` as its history's gradient."""
    if history_gradient is None:
        return None
    for op in first.graph.get_operations():
        if op.type == "WhileGrad" and op.attrs.get("seed_positions") is not None and op.inputs[0] is first.inputs[0] \
                and op.inputs[-1] is history_gradient:
            return op
    return None


def _export_seeded_while_grad(builder, op):
    """The loop's gradient given its history's gradient too: the part of it that the history's
    gradient adds is already in the SymbolicGradient of the first-order gradient that gave it
    (export_second_order); here the loop's gradient for the other output gradients, plus, for the
    loop variables, that SymbolicGradient's share."""
    history_seed = op.inputs[-1]
    found = builder.library.history_gradients.get((history_seed._op, history_seed.value_index))
    if found is None:
        raise ExportError(f"op {op.name!r} differentiates a loop's gradient again in a way that TensorFlow's "
                          f"SymbolicGradient does not state yet (a third-order loop gradient)")
    first, second_parts = found
    loop, loop_inputs, seeds, forward = _first_order_parts(builder, op, seeded=True)
    if first.inputs[0] is not op.inputs[0]:
        raise ExportError(f"op {op.name!r} seeds a loop's history with another loop's gradient")
    grads = _symbolic_gradient(builder, op, forward, loop_inputs, seeds)
    n = loop.attrs["n_vars"]
    wanted = list(range(n)) + [n + j for j in op.attrs["ext_index"]]
    for out, position in zip(op.outputs, wanted):
        if position in second_parts:
            total = Value(grads[position].dtype)
            emit(builder, op, "AddV2", [grads[position], second_parts[position]], {}, [total],
                 base=f"{op.name}/with_history")
            builder.set_ref(out, total.ref)
        else:
            builder.set_ref(out, grads[position].ref)
