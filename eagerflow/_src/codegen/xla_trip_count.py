"""How many times a loop runs, when values known at trace time decide it (the `for t in
tf.range(T)` case): then XLA gets a `lax.scan` of that length, which can keep per-iteration values
for a gradient (a `lax.while_loop` cannot)."""
from __future__ import annotations

import numpy as np

from .xla_run import SPECIAL, known, value_of


def _dependencies(program, tensor, memo):
    """(placeholder ids `tensor` depends on, whether it depends on a stateful op or a sub-graph op)."""
    tensor = program.resolve(tensor)
    key = id(tensor)
    if key in memo:
        return memo[key]
    op = tensor._op
    if op.type == "Placeholder":
        result = ({key}, False)
    elif op.type == "Const":
        result = (set(), False)
    else:
        memo[key] = (set(), True)  # a cycle guard; graphs have none
        ids, impure = set(), op.opdef.stateful or op.type in SPECIAL
        for t in op.inputs:
            sub, bad = _dependencies(program, t, memo)
            ids |= sub
            impure = impure or bad
        result = (ids, impure)
    memo[key] = result
    return result


def _sources(branch):
    """id(placeholder) -> ("loop", i) or ("external", j) for a cond or body branch."""
    where = {id(ph): ("loop", i) for i, ph in enumerate(branch.explicit)}
    for j, ph in enumerate(branch.graph.internal_captures):
        where[id(ph)] = ("external", branch.index[j])
    return where


def static_trip_count(cond, body, init, externals, limit, cap=1_000_000, watch=None, reads=()):
    """How many times the loop runs, when that follows from values known at trace time: the
    loop variables the condition reads start known and the body computes their next values from
    known values only (a counter and its constant limit). None otherwise.

    The run computes only what it needs, by the NumPy kernels: the condition, the loop variables
    it depends on, the scalar loop variables known at trace time (codegen/xla_counters.py watches
    them) and the body tensors in `reads`, not every known value: an RNN over constant weights
    has a known hidden state too, and computing it T times here cost more than tracing the loop.
    `watch(env)`: called once per iteration with the body's values computed then (id(tensor) ->
    value: the loop variables and `reads`; codegen/xla_lists.py reads the indices a growing list
    is written at)."""
    known_ext = {j for j, v in enumerate(externals) if known([v])}
    static = {i for i, v in enumerate(init) if known([v])}
    body_where, body_memo = _sources(body), {}
    deps = []
    for out in body.program.outputs:
        ids, impure = _dependencies(body.program, out, body_memo)
        deps.append((None if impure else [body_where.get(p) for p in ids]))
    changed = True
    while changed:
        changed = False
        for i in sorted(static):
            d = deps[i]
            if d is None or any(s is None or (s[0] == "loop" and s[1] not in static)
                                or (s[0] == "external" and s[1] not in known_ext) for s in d):
                static.discard(i)
                changed = True
    cond_ids, impure = _dependencies(cond.program, cond.program.outputs[0], {})
    cond_where = _sources(cond)
    for p in cond_ids:
        s = cond_where.get(p)
        if impure or s is None or (s[0] == "loop" and s[1] not in static) or (
                s[0] == "external" and s[1] not in known_ext):
            return None
    wanted = {s[1] for s in map(cond_where.get, cond_ids) if s[0] == "loop"}
    wanted |= {i for i in static if np.size(init[i]) == 1}
    for t in reads:
        wanted |= {s[1] for s in map(body_where.get, _dependencies(body.program, t, body_memo)[0])
                   if s is not None and s[0] == "loop"}
    wanted = _closed(wanted, deps) & static
    run_cond = _Runner(cond, _ops_for(cond.program, [cond.program.outputs[0]]), externals, wanted)
    body_outs = {i: body.program.outputs[i] for i in sorted(wanted)}
    run_body = _Runner(body, _ops_for(body.program, list(body_outs.values()) + list(reads)), externals, wanted)
    values = list(init)
    cap = cap if limit < 0 else min(cap, limit)
    count = 0
    with np.errstate(all="ignore"):
        while count < cap:
            if not bool(value_of(cond.program, run_cond(values), cond.program.outputs[0])):
                return count
            env = run_body(values)
            if watch is not None:
                watch(env)
            for i, t in body_outs.items():
                values[i] = value_of(body.program, env, t)
            count += 1
    return count if limit >= 0 else None


def _closed(positions, deps):
    """`positions` and every loop variable their next values are computed from."""
    positions, stack = set(positions), list(positions)
    while stack:
        for s in deps[stack.pop()] or ():
            if s is not None and s[0] == "loop" and s[1] not in positions:
                positions.add(s[1])
                stack.append(s[1])
    return positions


def _ops_for(program, tensors):
    """The ops of `program` (in program order) that `tensors` are computed from."""
    needed, stack = set(), [program.resolve(t) for t in tensors]
    while stack:
        op = stack.pop()._op
        if op is None or id(op) in needed or op.type in ("Placeholder", "Const"):
            continue
        needed.add(id(op))
        stack.extend(program.resolve(t) for t in op.inputs)
    return [op for op in program.ops if id(op) in needed]


class _Runner:
    """`runner(values)`: id(tensor) -> value of `ops`' outputs in a branch by the NumPy kernels, from
    the loop variables in `wanted` and the known externals (that part of the environment made once:
    the loop's run calls it every iteration). Ops that need anything else are left out, and stateful
    ones (a random draw, a variable read) are never run at trace time."""

    def __init__(self, branch, ops, externals, wanted):
        self._program, self._ops = branch.program, [op for op in ops if op.opdef.may_run_early]
        self._explicit = [(i, id(ph)) for i, ph in enumerate(branch.explicit) if i in wanted]
        self._base = {}
        for j, ph in enumerate(branch.graph.internal_captures):
            v = externals[branch.index[j]]
            if known([v]):
                self._base[id(ph)] = v

    def __call__(self, values):
        env = dict(self._base)
        for i, key in self._explicit:
            env[key] = values[i]
        program = self._program
        for op in self._ops:
            try:
                args = [value_of(program, env, t) for t in op.inputs]
            except KeyError:  # computed from a value known only at run time (a read of `reads`)
                continue
            out = op.opdef.kernel(*args, **op.attrs)
            for t, v in zip(op.outputs, list(out) if op.opdef.multi_output else [out]):
                env[id(t)] = v
        return env
