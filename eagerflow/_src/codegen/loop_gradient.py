"""A loop's gradient (`WhileGrad`) written out as a Python `for` over the loop's history, reversed.

The kernel (control_flow/while_loop.py) calls the body gradient's generated function once per
iteration and sums what reaches the externals with a new array per step. Written inline, the body
gradient's statements run in the enclosing function's frame (no call with dozens of arguments,
no per-iteration list building), and each external's gradient is summed into one buffer, the way
backpropagation through time is written by hand:

    WhileGrad_entries = history_entries(StatelessWhile_2, (3, 6, 8))
    WhileGrad_grad0, WhileGrad_grad1 = c_ZerosLike_folded, c_BroadcastTo_folded
    WhileGrad_3 = np.zeros_like(var_wx._array)
    for (WhileGrad_var0, WhileGrad_var1), (WhileGrad_kept3, WhileGrad_kept6, WhileGrad_kept8) in reversed(WhileGrad_entries):
        mul = k_Mul(WhileGrad_kept8, WhileGrad_kept8)
        ...
        np.add(WhileGrad_3, MatMul_1, out=WhileGrad_3)
        WhileGrad_grad0, WhileGrad_grad1 = c_ZerosLike_folded, MatMul

The kernel stays the one definition of what WhileGrad computes (the reference interpreter runs it,
and so does generated code wherever this form does not apply: under a recording tape, for a
higher-order gradient's seeds, or when a gradient is a variant such as a TensorList's).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt


def can_inline(op, recording) -> bool:
    """Whether the inline form computes exactly what the kernel does for this WhileGrad."""
    attrs = op.attrs
    body_grad, body = attrs.get("body_grad"), attrs.get("body")
    if recording or attrs.get("seed_positions") is not None or body is None:
        return False
    if getattr(body_grad, "program", None) is None or body_grad.graph.internal_captures:
        return False
    if any(t.dtype is _dt.variant for t in op.outputs):
        return False
    return _reads_only_kept(op)


def _positions(op):
    """The intermediates the forward loop keeps per iteration, in the order it keeps them (every
    gradient of the body has registered what it reads by the time code is generated)."""
    return tuple(op.attrs["body"].kept_for_gradient or ())


def _kept_placeholders(op):
    """The body gradient's inputs for the body's intermediates: they follow the loop variables and
    the externals (control_flow/while_loop.py, _body_gradient)."""
    body_grad, n = op.attrs["body_grad"], op.attrs["n_vars"]
    start = n + (len(op.inputs) - 1 - n)
    return body_grad.explicit[start:start + body_grad.n_intermediates]


def _reads_only_kept(op) -> bool:
    """The body gradient reads no intermediate the forward loop does not keep."""
    program = op.attrs["body_grad"].program
    read = {id(program.resolve(t)) for o in program.ops for t in o.inputs}
    read |= {id(program.resolve(t)) for t in program.outputs}
    kept = set(_positions(op))
    return all(p in kept for p, ph in enumerate(_kept_placeholders(op)) if id(ph) in read)


def emit_while_grad(em, op, args, var, indent):
    attrs = op.attrs
    body_grad, n, wanted = attrs["body_grad"], attrs["n_vars"], attrs["ext_index"]
    positions = _positions(op)
    history, rest = args[0], args[1:]
    externals, seeds = rest[:len(rest) - n], rest[len(rest) - n:]
    name = op.name
    helper = em.namer("history_entries")
    em.env[helper] = history_entries
    entries = em.namer(f"{name}_entries")
    em.emit(indent, f"{entries} = {helper}({history}, {positions!r})", op)
    grads = [em.namer(f"{name}_grad{i}") for i in range(n)]
    em.emit(indent, f"{_tuple(grads)} = {_tuple(seeds)}", None)
    out_names = em.outputs(op, var)
    for j, i in enumerate(wanted):  # one buffer per external, summed into (what the kernel adds up)
        value = f"{externals[i]}._array" if op.inputs[1 + i].dtype is _dt.resource else externals[i]
        em.emit(indent, f"{out_names[n + j]} = np.zeros_like({value})", None)
    loop_vars = [em.namer(f"{name}_var{i}") for i in range(n)]
    kept = {p: em.namer(f"{name}_kept{p}") for p in positions}
    em.emit(indent, f"for ({_tuple(loop_vars)}), ({_tuple(kept.values())}) in reversed({entries}):", None)
    # An intermediate the forward loop does not keep is never read (can_inline checked): its
    # placeholder is bound to a name that is never used.
    kept_args = [kept.get(p, "None") for p in range(body_grad.n_intermediates)]
    outs = em.sub_block(body_grad, loop_vars + list(externals) + kept_args + grads, [], indent + 1)
    program = body_grad.program
    for j, out in enumerate(outs[n:]):
        if _is_zero_constant(program.resolve(program.outputs[n + j])):
            continue  # nothing reaches this external from one iteration
        em.emit(indent + 1, f"np.add({out_names[n + j]}, {out}, out={out_names[n + j]})", None)
    em.emit(indent + 1, f"{_tuple(grads)} = {_tuple(outs[:n])}", None)
    em.emit(indent, f"{_tuple(out_names[:n])} = {_tuple(grads)}", None)
    em.emit(indent, f"del {entries}", None)


def history_entries(history, positions):
    """A loop's history as (loop variables, kept values) per iteration, the kept values those at
    `positions` among the body's intermediates, in that order: what the inline form walks. The forward loop's generated code keeps exactly these; a loop
    run by its kernel keeps them all, and is picked from here."""
    if history.payload is None:
        raise RuntimeError("tf.while_loop ran without keeping the history its gradient needs")
    stored, entries = history.payload
    if stored is not None and tuple(stored) == positions:
        return entries
    where = list(positions) if stored is None else [list(stored).index(p) for p in positions]
    return [(loop_vars, tuple(kept[i] for i in where)) for loop_vars, kept in entries]


def _is_zero_constant(tensor):
    op = tensor._op
    if op.type != "Const" or op.inputs:
        return False
    value = op.attrs["value"]
    return isinstance(value, np.ndarray) and value.dtype != object and not np.any(value)


def _tuple(names):
    names = list(names)
    if not names:
        return "()"
    return ", ".join(names) + ("," if len(names) == 1 else "")
