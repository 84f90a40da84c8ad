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
from .function_export import add_outputs, nested_tables, saved_mutable_table, static_table_of, write_body
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


class TableArg(Value):
    """A static table's handle a control-flow op passes into its sub-graphs as one more input (as
    TensorFlow passes a captured table handle): `ref` is its reference in the enclosing function."""
    __slots__ = ("table",)
    _op = None
    shape = TensorShape([])

    def __init__(self, table, ref):
        super().__init__(_dt.resource, ref)
        self.table = table


def _table_args(builder, op):
    """A TableArg per static table the lookups inside `op`'s sub-graphs read, whose handle this function has."""
    tables = nested_tables(builder.library, [op]) if builder.table_refs else []
    return [TableArg(t, builder.table_refs[id(t)]) for t in tables if id(t) in builder.table_refs]


def _arg_shape(t):
    return TensorShape([]) if t.dtype is _dt.resource else t.shape


def _branch_builder(builder, op, branch, kind, tensors, explicit=(), dropped=frozenset()):
    """A FunctionBuilder for `branch` taking one argument per tensor of `tensors` (the op's inputs
    it sees) but those at the positions `dropped` (a table's contents, read through its handle only):
    its explicit placeholders are the first arguments, its captures the arguments at the positions of
    the values they captured.

    A control-flow op copied out of a called tf.function (the call inlined where a tape recorded
    it) keeps its branches, whose captures name the callee's tensors, while its inputs are the
    copies: those captures are placed by where the op passes them (`Branch.index`, positions among
    the op's inputs after its loop variables), as the kernel does."""
    sub = FunctionBuilder(builder.library, builder.library.unique_name(f"{op.name}_{kind}"))
    refs = [None if i in dropped else sub.add_arg(f"arg_{i}", t.dtype, _arg_shape(t), _outer_handle(builder.library, t))
            for i, t in enumerate(tensors)]
    for ph, ref in zip(explicit, refs):
        sub.set_ref(ph, ref)
    sub.table_refs = {id(t.table): ref for t, ref in zip(tensors, refs) if isinstance(t, TableArg)}
    for internal, position in _capture_positions(op, branch, tensors, len(explicit)):
        if position is None:
            raise ExportError(f"a sub-graph of {op.name!r} captures {internal.name}, which is not an input of the op")
        sub.set_ref(internal, refs[position] if position not in dropped else "^table-contents-not-passed")
    write_body(sub, branch.graph, branch.get_operations())
    return sub, refs


def _capture_positions(op, branch, tensors, n_explicit):
    """[(capture placeholder, the position among `tensors` of the value it captures, or None)]."""
    index = branch.index or ()
    out = []
    for j, (external, internal) in enumerate(branch.graph.captures):
        here = _as_seen_by(op.graph, external)
        position = next((i for i, t in enumerate(tensors) if t is here), None)
        if position is None and j < len(index) and n_explicit + index[j] < len(tensors) \
                and tensors[n_explicit + index[j]].dtype is external.dtype:
            position = n_explicit + index[j]
        out.append((internal, position))
    return out


def _read_through_handles(builder, op, branches, tensors, first):
    """The positions (from `first`) of inputs that every branch reads only as the keys or values of lookups
    in tables whose handles it receives: those tensors need not be passed (TensorFlow passes the handle
    alone). `branches`: [(Branch, its explicit placeholders)]."""
    if not builder.table_refs:
        return frozenset()
    positions = {i for i in range(first, len(tensors)) if not isinstance(tensors[i], TableArg)}
    for branch, explicit in branches:
        lookups_only = {}  # placeholder op -> whether every use is a table lookup's keys or values
        for inner in branch.get_operations():
            table = static_table_of(builder.library, inner)
            through_handle = table is not None and id(table) in builder.table_refs
            for k, t in enumerate(inner.inputs):
                lookups_only[t._op] = lookups_only.get(t._op, True) and through_handle and k < 2
        for t in branch.outputs:
            lookups_only[t._op] = False
        for internal, position in _capture_positions(op, branch, tensors, len(explicit)):
            if not lookups_only.get(internal._op, True):
                positions.discard(position)
    return frozenset(positions)


def _outer_handle(library, t):
    """(shape, dtype) of the variable a resource input points to; None for a mutable table's handle,
    which stands for its two variables (saved_model/tf_format/mutable_tables.py)."""
    if saved_mutable_table(library, t) is not None:
        return None
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
    inputs = list(op.inputs[1:]) + _table_args(builder, op)
    dropped = frozenset() if keeps else _read_through_handles(
        builder, op, [(op.attrs["then_branch"], ()), (op.attrs["else_branch"], ())], inputs, 0)
    names, stateful = {}, False
    for kind in ("then_branch", "else_branch"):
        branch = op.attrs[kind]
        builder.library.branch_sides[branch.graph] = kind.split("_")[0]
        sub, _ = _branch_builder(builder, op, branch, kind.split("_")[0], inputs, dropped=dropped)
        results = list(branch.outputs) + ([add_kept_output(sub, op, branch)] if keeps else [])
        add_outputs(sub, results)
        stateful = stateful or _reads_a_table(sub)
        names[kind] = builder.library.add(sub)
    types, shapes = [d for _, d in specs], [s for s, _ in specs]
    outputs = list(op.outputs[:len(specs)])
    if keeps:
        types, shapes, outputs = types + [_dt.variant], shapes + [TensorShape([])], outputs + [op.outputs[-1]]
    else:
        _unusable_history(builder, op, op.outputs[-1])
    passed = [t for i, t in enumerate(inputs) if i not in dropped]
    emit(builder, op, _stateful_kind(op.type, stateful), [op.inputs[0]] + passed,
         {**names, "Tout": types, "output_shapes": shapes}, outputs)
    _lowered(builder)


def export_while(builder, op):
    n = op.attrs["n_vars"]
    bound = op.attrs.get("maximum_iterations", -1)
    bound = -1 if bound is None else bound
    inputs = list(op.inputs) + _table_args(builder, op)  # tables: loop-invariant, carried through unchanged
    if bound >= 0:
        counter_start = const(builder, f"{op.name}/iterations", np.int32(0))
        counter_start.ref  # written before the loop node
    cond, body = op.attrs["cond"], op.attrs["body"]
    carried = inputs + ([_CounterSpec()] if bound >= 0 else [])
    dropped = _read_through_handles(builder, op, [(cond, cond.explicit), (body, body.explicit)], inputs, n)
    kept = [i for i in range(n, len(carried)) if i not in dropped]  # the loop-invariant values passed

    sub, refs = _branch_builder(builder, op, cond, "cond", carried, cond.explicit, dropped)
    predicate = cond.outputs[0]
    if bound >= 0:
        limit = const(sub, "limit", np.int32(bound))
        below = Value(_dt.bool_)
        emit(sub, op, "Less", [Value(_dt.int32, refs[-1]), limit], {}, [below], base="below_limit")
        both = Value(_dt.bool_)
        emit(sub, op, "LogicalAnd", [below, predicate], {}, [both], base="and_limit")
        predicate = both
    add_outputs(sub, [predicate])
    stateful = _reads_a_table(sub)
    cond_name = builder.library.add(sub)

    sub, refs = _branch_builder(builder, op, body, "body", carried, body.explicit, dropped)
    results = list(body.outputs[:n]) + [Value(carried[i].dtype, refs[i]) for i in kept]
    if bound >= 0:
        counter = Value(_dt.int32)
        emit(sub, op, "AddV2", [Value(_dt.int32, refs[-1]), const(sub, "one", np.int32(1))], {}, [counter],
             base="next_iteration")
        results[-1] = counter
    add_outputs(sub, results)
    stateful = stateful or _reads_a_table(sub)
    body_name = builder.library.add(sub)

    loop_inputs = [t for i, t in enumerate(inputs) if i not in dropped] + ([counter_start] if bound >= 0 else [])
    shapes = [s for s, _ in op.attrs["output_specs"]] + [_arg_shape(carried[i]) for i in kept]
    outputs = list(op.outputs[:n]) + [Value(carried[i].dtype) for i in kept]
    emit(builder, op, _stateful_kind(op.type, stateful), loop_inputs,
         {"cond": cond_name, "body": body_name, "output_shapes": shapes},
         outputs)
    _lowered(builder)
    _unusable_history(builder, op, op.outputs[n])


def _reads_a_table(sub):
    """Whether a written sub-graph uses a table resource (TensorFlow's table ops are stateful)."""
    return bool(sub.table_refs) or any(n["op"].startswith("LookupTable") for n in sub.nodes)


def _stateful_kind(op_type, stateful):
    """If / While where a sub-graph uses a table resource, whose ops TensorFlow's registry marks stateful,
    as TensorFlow's cond and while_loop choose; else the op's own type."""
    return {"StatelessIf": "If", "StatelessWhile": "While"}.get(op_type, op_type) if stateful else op_type


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
