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


def static_trip_count(cond, body, init, externals, limit, cap=1_000_000, watch=None):
    """How many times the loop runs, when that follows from values known at trace time: the
    loop variables the condition reads start known and the body computes their next values from
    known values only (a counter and its constant limit). None otherwise.
    `watch(env)`: called once per iteration with the body's values known at trace time then
    (id(tensor) -> value; codegen/xla_lists.py reads the indices a growing list is written at)."""
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
    values = list(init)
    cap = cap if limit < 0 else min(cap, limit)
    count = 0
    with np.errstate(all="ignore"):
        while count < cap:
            go = _numpy_branch(cond, values, externals, static)[0]
            if not bool(go):
                return count
            env = _numpy_env(body, values, externals, static)
            if watch is not None:
                watch(env)
            outs = _outputs(body.program, env)
            values = [outs[i] if i in static else values[i] for i in range(len(values))]
            count += 1
    return count if limit >= 0 else None


def _numpy_branch(branch, values, externals, static):
    """A branch's outputs that depend on known values only, by the NumPy kernels (None elsewhere)."""
    return _outputs(branch.program, _numpy_env(branch, values, externals, static))


def _numpy_env(branch, values, externals, static):
    """id(tensor) -> value for a branch's tensors that depend on known values only (NumPy kernels)."""
    env = {}
    for i, ph in enumerate(branch.explicit):
        if i in static:
            env[id(ph)] = values[i]
    for j, ph in enumerate(branch.graph.internal_captures):
        v = externals[branch.index[j]]
        if known([v]):
            env[id(ph)] = v
    program = branch.program
    for op in program.ops:
        if op.type in ("Placeholder", "Const"):
            continue
        try:
            args = [value_of(program, env, t) for t in op.inputs]
        except KeyError:
            continue
        out = op.opdef.kernel(*args, **op.attrs)
        for t, v in zip(op.outputs, list(out) if op.opdef.multi_output else [out]):
            env[id(t)] = v
    return env


def _outputs(program, env):
    result = []
    for t in program.outputs:
        try:
            result.append(value_of(program, env, t))
        except KeyError:
            result.append(None)
    return result


