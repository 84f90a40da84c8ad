"""Invariant checks on a Graph and on a Program (the passes' view of a graph).

Passes rewrite a Program through a substitution map instead of editing the graph, so a bug in a
pass shows up far away: as a NameError in generated code, a wrong value, or a lost `tf.print`.
These checks catch it at the pass that broke it. `passes/pipeline.py` runs them after every pass
when `EAGERFLOW_VERIFY=1` (or `pipeline.VERIFY = True`); the test suite turns them on.

Each check returns a list of problems; `verify_graph` / `verify_program` raise one
`VerificationError` listing all of them, so a single run shows everything that is wrong.
"""
from __future__ import annotations

from ..core.context import graph_scope
from ..core.shape import TensorShape


class VerificationError(AssertionError):
    """A graph or program broke an invariant the passes and code generator rely on."""


def _tensor_label(t) -> str:
    try:
        return t.name
    except Exception:  # a foreign object: say what it is
        return repr(t)


# --- shared: an op's outputs agree with re-running its shape rule -----------------------------------

def _check_infer(op, inputs, problems, where=""):
    """Re-runs `infer` on `inputs` (the op's own, or the ones a Program substituted) and checks the
    recorded outputs are still compatible: same count, same dtypes, shapes that can agree."""
    if op.type == "Placeholder":
        return
    try:
        with graph_scope(getattr(op, "graph", None)):  # the rule judges as while building (ops/shape_rules.py)
            specs = op.opdef.infer(list(inputs), op.attrs)
    except Exception as exc:  # noqa: BLE001 - any failure of the rule is the finding
        problems.append(f"op {op.name!r} ({op.type}){where}: re-running its shape rule failed: "
                        f"{type(exc).__name__}: {exc}")
        return
    if len(specs) != len(op.outputs):
        problems.append(f"op {op.name!r} ({op.type}){where}: shape rule gives {len(specs)} outputs, the op has "
                        f"{len(op.outputs)}")
        return
    for out, spec in zip(op.outputs, specs):
        if spec.dtype is not out.dtype:
            problems.append(f"op {op.name!r} ({op.type}){where}: output {out.value_index} has dtype "
                            f"{out.dtype.name}, its shape rule says {spec.dtype.name}")
        if not TensorShape(spec.shape).is_compatible_with(out.shape):
            problems.append(f"op {op.name!r} ({op.type}){where}: output {out.value_index} has shape {out.shape}, "
                            f"its shape rule says {spec.shape}")


# --- Graph ---------------------------------------------------------------------------------------

def _home(ops):
    """The Graph the ops were recorded in. `graph` arguments here may be a duck-typed view
    (`get_operations`, `inputs`, `outputs`), so membership is judged against the ops' own graph."""
    return ops[0].graph if ops else None


def _name(graph):
    return getattr(graph, "name", None) or getattr(_home(graph.get_operations()), "name", "graph")


def graph_problems(graph, check_shapes=True, outputs=None) -> list:
    """Everything wrong with a finished (traced and named) graph, or a view of one, computing
    `outputs` (default: the graph's own)."""
    problems = []
    ops = graph.get_operations()
    home = _home(ops)
    position = {}
    names = {}
    for i, op in enumerate(ops):
        if id(op) in position:
            problems.append(f"op {op.name!r} is listed twice")
        position[id(op)] = i
        if op.graph is not home:
            problems.append(f"op {op.name!r} belongs to another graph")
        if op.name == "<unnamed>":
            problems.append(f"op {i} ({op.type}) was never named")
        elif op.name in names:
            problems.append(f"name {op.name!r} is used by two ops")
        names[op.name] = op
        for j, out in enumerate(op.outputs):
            if out.op is not op or out.value_index != j:
                problems.append(f"output {j} of op {op.name!r} does not point back at it")
    produced = {}  # id(tensor) -> position of its producer
    for i, op in enumerate(ops):
        for j, t in enumerate(op.inputs):
            if not hasattr(t, "op") or t.op.graph is not home:
                problems.append(f"op {op.name!r} input {j} ({_tensor_label(t)}) is not a tensor of this graph")
            elif id(t) not in produced:
                where = "later" if id(t.op) in position else "by no op of the graph"
                problems.append(f"op {op.name!r} input {j} ({t.name}) is produced {where}: used before it exists")
        for dep in op.control_inputs:
            if position.get(id(dep), len(ops)) >= i:
                problems.append(f"op {op.name!r} has control input {dep.name!r} that does not run before it")
        for out in op.outputs:
            produced[id(out)] = i
        if check_shapes:
            _check_infer(op, op.inputs, problems)
    for t in graph.inputs:
        if id(t) not in produced or t.op.type != "Placeholder":
            problems.append(f"graph input {_tensor_label(t)} is not a Placeholder of this graph")
    for _external, internal in getattr(graph, "captures", ()):
        if not any(internal is t for t in graph.inputs):
            problems.append(f"capture placeholder {internal.name} is not among the graph inputs")
    for t in graph.outputs if outputs is None else outputs:
        if id(t) not in produced:
            problems.append(f"graph output {_tensor_label(t)} is not produced by this graph")
    return problems


def verify_graph(graph, check_shapes=True, outputs=None):
    """Raises VerificationError listing every broken invariant of `graph` computing `outputs`
    (default: the graph's own)."""
    problems = list(dict.fromkeys(graph_problems(graph, check_shapes, outputs)))
    if problems:
        raise VerificationError(f"graph {_name(graph)!r} is invalid:\n  " + "\n  ".join(problems))


# --- Program ---------------------------------------------------------------------------------------

def _resolve_checked(program, tensor, problems):
    """`program.resolve`, but a substitution cycle is reported instead of looping."""
    seen = set()
    while id(tensor) in program.subst:
        if id(tensor) in seen:
            problems.append(f"substitutions form a cycle through {_tensor_label(tensor)}")
            return None
        seen.add(id(tensor))
        tensor = program.subst[id(tensor)]
    return tensor


def program_problems(program, graph, check_shapes=True, outputs=None) -> list:
    """Everything wrong with `program`, a pass-rewritten view of `graph` computing `outputs`
    (default: the graph's own).

    Invariants: the program's ops are the graph's, each once, in graph order; every input of an op
    resolves (through the substitutions) to a tensor available at that point: an earlier op's output,
    a program input, or a constant (folding makes constants no op list holds); outputs resolve to
    available tensors; every substitution maps a graph tensor to one of the same dtype and a
    compatible shape, without cycles, and targets something that exists; the graph's stateful ops
    all survive, in their original order; shape rules re-run on substituted inputs still agree.
    """
    problems = []
    graph_ops = graph.get_operations()
    home = _home(graph_ops)
    graph_pos = {id(op): i for i, op in enumerate(graph_ops)}
    graph_tensors = {id(t): t for op in graph_ops for t in op.outputs}
    replaced = getattr(program, "replaced", {})  # ops a pass swapped in, standing for graph ops
    for op in program.ops:
        if id(op) in replaced:
            graph_tensors.update({id(t): t for t in op.outputs})

    if [id(t) for t in program.inputs] != [id(t) for t in graph.inputs]:
        problems.append("program inputs differ from the graph inputs")
    available = {id(t) for t in program.inputs}

    def usable(t):
        return id(t) in available or (t.op.type == "Const" and not t.op.inputs)

    listed = set()
    last_pos = -1
    names = set()
    for op in program.ops:
        if id(op) in listed:
            problems.append(f"op {op.name!r} appears twice in the program")
        listed.add(id(op))
        pos = graph_pos.get(id(op))
        if pos is None and id(op) in replaced:
            pos = graph_pos.get(id(replaced[id(op)]))
        if pos is None:
            if op.type != "Const":
                problems.append(f"op {op.name!r} ({op.type}) is not an op of graph {_name(graph)!r}")
        elif pos < last_pos:
            problems.append(f"op {op.name!r} runs out of its graph order")
        else:
            last_pos = pos
        if op.name in names:
            problems.append(f"name {op.name!r} is used by two ops of the program")
        names.add(op.name)
        resolved = []
        for j, t in enumerate(op.inputs):
            r = _resolve_checked(program, t, problems)
            if r is None:
                continue
            resolved.append(r)
            if not hasattr(r, "op"):
                problems.append(f"op {op.name!r} input {j} resolves to a non-tensor {r!r}")
            elif not usable(r):
                problems.append(f"op {op.name!r} input {j} ({t.name}) resolves to {r.name}, which is not computed "
                                f"before it")
        if check_shapes and len(resolved) == len(op.inputs) and all(hasattr(r, "op") for r in resolved):
            _check_infer(op, resolved, problems, " (with substituted inputs)")
        for out in op.outputs:
            available.add(id(out))

    wanted = graph.outputs if outputs is None else outputs
    if len(program.outputs) != len(wanted):
        problems.append(f"program has {len(program.outputs)} outputs, the graph {len(wanted)}")
    for t in program.outputs:
        r = _resolve_checked(program, t, problems)
        if r is not None and (not hasattr(r, "op") or not usable(r)):
            problems.append(f"output {_tensor_label(t)} resolves to {_tensor_label(r)}, which the program does not "
                            f"compute")

    for key, target in list(program.subst.items()):
        source = graph_tensors.get(key)
        if source is None:
            problems.append(f"substitution for an unknown tensor (id {key}) -> {_tensor_label(target)}: dangling")
            continue
        if not hasattr(target, "op") or not hasattr(target, "dtype"):
            problems.append(f"substitution {source.name} -> {target!r}: the target is not a tensor")
            continue
        if target.op.graph is not home:
            problems.append(f"substitution {source.name} -> {target.name}: the target belongs to another graph")
        if id(target) not in graph_tensors and target.op.type != "Const":
            problems.append(f"substitution {source.name} -> {target.name}: the target is produced by no op")
        if target.dtype is not source.dtype:
            problems.append(f"substitution {source.name} -> {target.name} changes dtype "
                            f"{source.dtype.name} -> {target.dtype.name}")
        if not target.shape.is_compatible_with(source.shape):
            problems.append(f"substitution {source.name} -> {target.name} changes shape "
                            f"{source.shape} -> {target.shape}")
        _resolve_checked(program, source, problems)

    kept = [op for op in program.ops if op.opdef.stateful]
    expected = [op for op in graph_ops if op.opdef.stateful]
    if [id(op) for op in kept] != [id(op) for op in expected]:
        lost = [op.name for op in expected if id(op) not in listed]
        detail = f"lost {lost}" if lost else "reordered"
        problems.append(f"stateful ops were not kept in program order: {detail}")
    return problems


def verify_program(program, graph, after=None, check_shapes=True, outputs=None):
    """Raises VerificationError listing every broken invariant; `after` names the pass just run;
    `outputs`: what the program computes (default: the graph's outputs)."""
    problems = list(dict.fromkeys(program_problems(program, graph, check_shapes, outputs)))
    if problems:
        step = f" after pass {after!r}" if after else ""
        raise VerificationError(f"program for graph {_name(graph)!r} is invalid{step}:\n  " + "\n  ".join(problems))
