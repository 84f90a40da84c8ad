"""Control flow under jit_compile=True: `If` -> `lax.cond`, `While` -> `lax.scan` (trip count known at
trace time, codegen/xla_trip_count.py) or `lax.while_loop`, `WhileGrad` -> a reverse scan.

Under a recording tape a loop keeps its history (the loop variables and the values its gradient
reads, per iteration) as the scan's stacked outputs, and an If keeps both branches' values (zeros
for the branch not taken, as TensorFlow's cond_v2): the gradient ops read them back, nothing is
recomputed. Variables flow through as part of every carry.
"""
from __future__ import annotations

import numpy as np

from ..core.errors import InvalidArgumentError
from .xla_run import SPECIAL, Slot, known, like, run_branch, run_program
from .xla_trip_count import static_trip_count


class _History:
    """What a loop kept for its gradient: the loop variables and kept values, stacked per iteration."""

    def __init__(self, positions, var_stacks, kept_stacks):
        self.positions, self.var_stacks, self.kept_stacks = positions, var_stacks, kept_stacks


class _Kept:
    """What an If under a recording tape kept for its gradient: each branch's kept values (zeros
    for the branch not taken, as TensorFlow's cond_v2 has them), by branch."""

    def __init__(self, then_side, else_side):
        self.sides = {"then_branch": then_side, "else_branch": else_side}  # (positions, values) or None


class _KeptSide:
    """A _Kept as the gradient If's branch for one forward branch sees it (IfKeptValue reads it)."""

    def __init__(self, positions, values):
        self.positions, self.values = positions, values

    def value(self, position):
        return self.values[position if self.positions is None else self.positions.index(position)]


def _if(op, args, state):
    import jax
    from jax import lax
    from jax import numpy as jnp
    attrs = op.attrs
    keep = attrs.get("keep_intermediates", False)
    pred, externals = args[0], args[1:]
    n = len(op.outputs) - 1
    branches = {key: attrs[key] for key in ("then_branch", "else_branch")}
    programs = {key: (b.with_intermediates(b.kept_for_gradient).program if keep else b.program)
                for key, b in branches.items()}

    def side_externals(key):  # a gradient If's branch reads the kept values of its own forward branch
        return [e.sides[key] and _KeptSide(*e.sides[key]) if isinstance(e, _Kept) else e for e in externals]

    def run(key):
        def fn(values):
            inner = state.fork(values)
            outs = run_branch(branches[key], (), side_externals(key), inner, programs[key])
            return (tuple(jnp.asarray(o) for o in outs[:n]), tuple(jnp.asarray(o) for o in outs[n:]),
                    tuple(inner.values))
        return fn
    if known([pred]):
        key = "then_branch" if bool(pred) else "else_branch"
        outs, kept, values = run(key)(tuple(state.values))
        sides = {key: (branches[key].kept_for_gradient, list(kept))}
    elif not keep:
        outs, _, values = lax.cond(jnp.reshape(pred, ()).astype(bool), run("then_branch"), run("else_branch"),
                                   tuple(state.values))
        sides = {}
    else:  # each branch returns its kept values and zeros shaped as the other's
        shapes = {key: jax.eval_shape(run(key), tuple(state.values))[1] for key in branches}

        def padded(key):
            other = "else_branch" if key == "then_branch" else "then_branch"

            def fn(values):
                outs, kept, new = run(key)(values)
                zeros = tuple(jnp.zeros(s.shape, s.dtype) for s in shapes[other])
                return outs, ((kept, zeros) if key == "then_branch" else (zeros, kept)), new
            return fn
        outs, (then_kept, else_kept), values = lax.cond(jnp.reshape(pred, ()).astype(bool), padded("then_branch"),
                                                        padded("else_branch"), tuple(state.values))
        sides = {"then_branch": (branches["then_branch"].kept_for_gradient, list(then_kept)),
                 "else_branch": (branches["else_branch"].kept_for_gradient, list(else_kept))}
    state.values = list(values)
    kept = _Kept(sides.get("then_branch"), sides.get("else_branch")) if keep else None
    return list(outs) + [kept]


def _kept_value(op, args, state):
    side = args[0]
    if not isinstance(side, _KeptSide):
        raise InvalidArgumentError(None, None, f"{op.name}: the If's kept values are read outside its gradient")
    return [side.value(op.attrs["position"])]


def _while(op, args, state):
    from jax import lax
    from jax import numpy as jnp
    attrs = op.attrs
    n = attrs["n_vars"]
    init, externals = [jnp.asarray(a) for a in args[:n]], args[n:]
    cond, body = attrs["cond"], attrs["body"]
    limit = attrs.get("maximum_iterations", -1)
    keep = attrs.get("keep_history", False)
    trips = static_trip_count(cond, body, args[:n], externals, limit)
    if trips is None:
        if keep:
            raise InvalidArgumentError(
                None, None, f"XLA compilation of the gradient of {op.name} needs its trip count at trace time "
                            f"(a tf.range loop over a constant, or maximum_iterations); this loop's depends on "
                            f"the data.")
        return _while_loop(cond, body, init, externals, limit, state)
    program = body.with_intermediates(body.kept_for_gradient).program if keep else body.program

    def step(carry, _):
        loop, values = carry
        inner = state.fork(values)
        outs = run_branch(body, loop, externals, inner, program)
        new = tuple(like(o, v) for o, v in zip(outs[:n], loop))
        kept = (tuple(loop), tuple(jnp.asarray(o) for o in outs[n:])) if keep else None
        return (new, tuple(inner.values)), kept
    (final, values), kept = lax.scan(step, (tuple(init), tuple(state.values)), None, length=trips)
    state.values = list(values)
    history = _History(body.kept_for_gradient, list(kept[0]), list(kept[1])) if keep else None
    return list(final) + [history]


def _while_loop(cond, body, init, externals, limit, state):
    from jax import lax
    from jax import numpy as jnp

    def keep_going(carry):
        i, loop, values = carry
        (go,) = run_branch(cond, loop, externals, state.fork(values))
        go = jnp.reshape(go, ()).astype(bool)
        return go if limit < 0 else jnp.logical_and(go, i < limit)

    def step(carry):
        i, loop, values = carry
        inner = state.fork(values)
        outs = run_branch(body, loop, externals, inner)
        return i + 1, tuple(like(o, v) for o, v in zip(outs, loop)), tuple(inner.values)
    _, final, values = lax.while_loop(keep_going, step, (jnp.asarray(0, np.int64), tuple(init), tuple(state.values)))
    state.values = list(values)
    return list(final) + [None]


def _while_grad(op, args, state):
    """WhileGrad (control_flow/while_loop.py) over a scan's stacked history: a reverse scan running
    the traced gradient of one body iteration, summing the externals' gradients."""
    from jax import lax
    from jax import numpy as jnp
    attrs = op.attrs
    if attrs.get("seed_positions") is not None:
        raise InvalidArgumentError(None, None, f"XLA compilation of {op.name}: gradients of a loop's gradient "
                                               f"(third order through tf.while_loop) are not supported yet")
    n, body_grad, wanted = attrs["n_vars"], attrs["body_grad"], attrs["ext_index"]
    history, rest = args[0], args[1:]
    externals, seeds = rest[:len(rest) - n], rest[len(rest) - n:]
    k = body_grad.n_intermediates
    positions = history.positions

    def ext_value(v):
        return state.values[v.index] if isinstance(v, Slot) else v
    acc0 = tuple(jnp.zeros_like(jnp.asarray(ext_value(externals[i]))) for i in wanted)

    def step(carry, xs):
        grads, acc = carry
        loop, kept = xs
        full = list(kept) if positions is None else [None] * k
        if positions is not None:
            for p, v in zip(positions, kept):
                full[p] = v
        values = list(loop) + list(externals) + full + list(grads)
        env = {id(ph): v for ph, v in zip(body_grad.graph.inputs, values)}
        outs = run_program(body_grad.program, env, state.fork(state.values))
        new_grads = tuple(like(o, g) for o, g in zip(outs[:n], grads))
        return (new_grads, tuple(like(a + o, a) for a, o in zip(acc, outs[n:]))), None
    (grads, acc), _ = lax.scan(step, (tuple(jnp.asarray(s) for s in seeds), acc0),
                               (tuple(history.var_stacks), tuple(history.kept_stacks)), reverse=True)
    return list(grads) + list(acc)


SPECIAL.update({"IfKeptValue": _kept_value, "If": _if, "StatelessIf": _if, "While": _while,
                "StatelessWhile": _while, "WhileGrad": _while_grad})
