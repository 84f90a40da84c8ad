"""Dead-code pruning: keep the ops an output needs, and every stateful op (prints, asserts,
variable writes, random draws) with what it needs, in program order.

Liveness follows the substitutions: an op whose outputs were all replaced (a forwarded Identity,
a folded or merged op) is dead unless something still reads it directly. Pruning decides by
liveness only, never by op type, so it is correct whether or not other passes ran before it.
"""


def prune(program):
    needed = set()
    stack = [program.resolve(t)._op for t in program.outputs]
    stack += [op for op in program.ops if op.opdef.stateful]
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed.add(id(op))
        for t in op.inputs:
            stack.append(program.resolve(t)._op)
        for dep in op.control_inputs:
            stack.append(dep)
    removed = [op for op in program.ops if id(op) not in needed]
    program.ops = [op for op in program.ops if id(op) in needed]
    _forget_replacements(program, removed)


def _forget_replacements(program, removed):
    """A pass-made op that turned out dead goes with its substitutions (nothing reads them), except
    where its output was itself replaced: the graph tensor then stands for that replacement."""
    replaced = getattr(program, "replaced", None)
    if not replaced:
        return
    for op in program.ops:  # pass-made ops are ours to edit: they read resolved tensors from now on
        if id(op) in replaced:
            op.inputs = tuple(program.resolve(t) for t in op.inputs)
    for op in removed:
        if replaced.pop(id(op), None) is not None:
            # An output merged into another op's (CSE) keeps the graph tensor's link to that op.
            onward = {id(t): program.subst.pop(id(t), None) for t in op.outputs}
            for key in [k for k, v in program.subst.items() if id(v) in onward]:
                target = onward[id(program.subst[key])]
                if target is None:
                    del program.subst[key]
                else:
                    program.subst[key] = target
