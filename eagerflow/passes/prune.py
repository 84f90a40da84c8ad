"""Dead-code pruning: keep the ops an output needs, and every stateful op (prints, asserts,
variable writes, random draws) with what it needs, in program order."""


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
    program.ops = [op for op in program.ops if id(op) in needed and op.type not in ("Identity", "StopGradient")]
