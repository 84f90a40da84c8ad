"""A graph's cond and while_loop written as Python `if` and `while` statements in the generated function.

Why inline rather than call a kernel: the branches and the loop body then run as plain statements
of the same function (no nested program call per iteration), and under a recording tape they keep
the values their gradients read (the `kept` output of If, the history of While). pycode.py's
emitter calls these for If/StatelessIf/While/StatelessWhile; WhileGrad is loop_gradient.py's.
"""
from __future__ import annotations

from ..core.variant import VariantValue


def emit_if(em, op, args, var, indent):
    """`if pred:` over the branches' code. The op's last output (`kept`) holds, under a recording
    tape, the taken branch's values that the gradient reads; otherwise it is a constant."""
    attrs = op.attrs
    if em.recording and op.opdef.record_attrs is not None:
        attrs = op.opdef.record_attrs(attrs)
    keep = attrs.get("keep_intermediates", False)
    pred, externals = args[0], args[1:]
    *outputs, kept_out = op.outputs
    names = [em.namer(f"{op.name}_{i}") for i in range(len(outputs))]
    for t, n in zip(outputs, names):
        var[id(t)] = n
    kept = em.namer(f"{op.name}_kept")
    if keep:
        variant = em.namer("VariantValue")
        em.env[variant] = VariantValue
    else:
        em.env[kept] = VariantValue(None)
    var[id(kept_out)] = kept
    em.emit(indent, f"if {pred}:", op)
    for branch_key, header in (("then_branch", None), ("else_branch", "else:")):
        if header:
            em.emit(indent, header, None)
        before = len(em.lines)
        branch = attrs[branch_key]
        targets, values = list(names), None
        if keep:  # the branch's full variant; control flow nested inside it keeps its values too
            positions = branch.kept_for_gradient  # known once the gradient was built (None: all)
            full = branch.with_intermediates(positions)
            saved, em.recording = em.recording, True
            try:
                outs = em.sub_block(full, [], externals, indent + 1)
            finally:
                em.recording = saved
            outs, values = outs[:len(names)], outs[len(names):]
            where = em.namer(f"{op.name}_{branch_key.split('_')[0]}_kept_positions")
            em.env[where] = None if positions is None else tuple(positions)
            targets.append(kept)
            outs.append(f"{variant}(({where}, ({', '.join(values)}{',' if len(values) == 1 else ''})))")
        else:
            outs = em.sub_block(branch, [], externals, indent + 1)
        if targets:
            em.emit(indent + 1, f"{', '.join(targets)}{',' if len(targets) == 1 else ''} = "
                                f"{', '.join(outs)}{',' if len(outs) == 1 else ''}", None)
        elif len(em.lines) == before:  # a branch with no code and no outputs
            em.emit(indent + 1, "pass", None)


def emit_while(em, op, args, var, indent):
    attrs = op.attrs
    if em.recording and op.opdef.record_attrs is not None:
        attrs = op.opdef.record_attrs(attrs)
    n = attrs["n_vars"]
    externals = args[n:]
    loop = [em.namer(f"{op.name}_var{i}") for i in range(n)]
    if n:
        em.emit(indent, f"{assignment_targets(loop)} = {assignment_targets(args[:n])}", op)
    history = em.namer(f"{op.name}_history") if attrs.get("keep_history") else None
    if history:
        em.emit(indent, f"{history} = []", None)
    limit = attrs.get("maximum_iterations", -1)
    counter = em.namer(f"{op.name}_iteration") if limit >= 0 else None
    if counter:
        em.emit(indent, f"{counter} = 0", None)
    em.emit(indent, "while True:", None)
    if counter:
        em.emit(indent + 1, f"if {counter} >= {limit}: break", None)
    (keep_going,) = em.sub_block(attrs["cond"], loop, externals, indent + 1)
    em.emit(indent + 1, f"if not {keep_going}: break", None)
    if history:  # what the gradient needs: the loop variables and the body's intermediates
        keep = attrs["body"].kept_for_gradient  # known once the loop's gradient was built
        full = attrs["body"].with_intermediates(keep)
        saved, em.recording = em.recording, True  # control flow nested in the body keeps its values too
        try:
            outs = em.sub_block(full, loop, externals, indent + 1)
        finally:
            em.recording = saved
        kept = outs[n:]
        em.emit(indent + 1, f"{history}.append((({', '.join(loop)},), ({', '.join(kept)}{',' if kept else ''})))",
                None)
        outs = outs[:n]
    else:
        outs = em.sub_block(attrs["body"], loop, externals, indent + 1)
    if n:
        em.emit(indent + 1, f"{assignment_targets(loop)} = {assignment_targets(outs)}", None)
    if counter:
        em.emit(indent + 1, f"{counter} += 1", None)
    names = em.outputs(op, var)
    variant = em.namer("VariantValue")
    em.env[variant] = VariantValue
    if history:
        kept_positions = em.namer(f"{op.name}_kept")
        em.env[kept_positions] = None if keep is None else tuple(keep)
        payload = f"({kept_positions}, {history})"
    else:
        payload = "None"
    em.emit(indent, f"{', '.join(names)} = {''.join(v + ', ' for v in loop)}{variant}({payload})", None)


def assignment_targets(names):
    """`a, b` / `a,` for one: an assignment's side for a non-empty list of names."""
    return f"{', '.join(names)}{',' if len(names) == 1 else ''}"
