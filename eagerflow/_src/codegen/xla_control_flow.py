"""Control flow under jit_compile=True: `If` -> `lax.cond`, `While` -> `lax.scan` (trip count known at
trace time, codegen/xla_trip_count.py) or `lax.while_loop`, `WhileGrad` -> a reverse scan.

Under a recording tape a loop keeps its history (the loop variables and the values its gradient
reads, per iteration) as the scan's stacked outputs, and an If keeps both branches' values (zeros
for the branch not taken, as TensorFlow's cond_v2): the gradient ops read them back, nothing is
recomputed. Control flow inside a kept branch or body keeps its own (State.attrs): a body's If or
loop is stacked per iteration as a pytree, and a branch's nested If is one of the branch's kept
values, a pytree too (zeros of its shape from the branch not taken) (codegen/xla_higher_order.py,
with the ops of higher-order gradients). Variables flow through as part of every carry.
"""
from __future__ import annotations

import numpy as np

from ..core.errors import InvalidArgumentError
from .xla_counters import Counters
from .xla_higher_order import (HistorySeeds, KeptGradients, aligned_cond, branch_output, carried, carried_like,
                               carried_select, register_pytrees, select, zero_gradient)
from .xla_lists import as_value, conformed, grown_for_loop, with_buffers, zeros_like, zeros_of
from .xla_lists import select as select_value
from .xla_run import SPECIAL, CompilerVariant, Slot, known, like, run_branch, run_program
from .xla_trip_count import static_trip_count


class _History(CompilerVariant):
    """What a loop kept for its gradient: the loop variables and kept values, stacked per iteration.
    `invariant`: kept position -> the value itself, for kept values the body passes through from
    outside the loop (a weight read before it): stacking those would copy them once per iteration
    (a [T, 64, 64] stack of the RNN's Wh cost 35% of its forward+backward)."""

    def __init__(self, positions, var_stacks, kept_stacks, invariant=None, active=None):
        self.positions, self.var_stacks, self.kept_stacks = positions, var_stacks, kept_stacks
        self.invariant = invariant or {}
        self.active = active  # per iteration, whether it ran (a maximum_iterations scan), or None

    def kept(self, stacked):
        """All kept values of one iteration: the stacked ones' slices and the invariant ones."""
        if not self.invariant:
            return list(stacked)
        it = iter(stacked)
        return [self.invariant[i] if i in self.invariant else next(it)
                for i in range(len(self.kept_stacks) + len(self.invariant))]


class _Kept(CompilerVariant):
    """What an If under a recording tape kept for its gradient: each branch's kept values (zeros
    for the branch not taken, as TensorFlow's cond_v2 has them), by branch."""

    def __init__(self, then_side, else_side):
        self.sides = {"then_branch": then_side, "else_branch": else_side}  # (positions, values) or None


class _KeptSide(CompilerVariant):
    """A _Kept as the gradient If's branch for one forward branch sees it (IfKeptValue reads it)."""

    def __init__(self, positions, values):
        self.positions, self.values = positions, values

    def value(self, position):
        return self.values[position if self.positions is None else self.positions.index(position)]


def _if(op, args, state):
    import jax
    from jax import lax
    from jax import numpy as jnp
    attrs = state.attrs(op)
    keep = attrs.get("keep_intermediates", False)
    pred, externals = args[0], args[1:]
    n = len(op.outputs) - 1
    variants = any(t.dtype.name == "variant" for t in op.outputs[:n])  # a kept values' gradient: aligned_cond
    branches = {key: attrs[key] for key in ("then_branch", "else_branch")}
    programs = {key: (b.with_intermediates(b.kept_for_gradient).program if keep else b.program)
                for key, b in branches.items()}

    def side_externals(key):  # a gradient If's branch reads the kept values (and their gradients) of its own
        return [e.sides[key] and _KeptSide(*e.sides[key]) if isinstance(e, _Kept)  # forward branch
                else e.for_branch(key) if isinstance(e, KeptGradients) else e for e in externals]

    def run(key):
        def fn(values):
            inner = state.fork(values, keep or None)
            outs = run_branch(branches[key], (), side_externals(key), inner, programs[key])
            return (tuple(branch_output(o, key) if isinstance(o, KeptGradients) else as_value(o) for o in outs[:n]),
                    tuple(_kept_by_branch(o) for o in outs[n:]),
                    tuple(inner.values))
        return fn
    runs = {key: run(key) for key in branches}
    if not known([pred]) and any(t.dtype.name == "variant" for t in op.outputs[:n]):
        runs = conformed(runs, tuple(state.values))  # a list written in one branch only
    if known([pred]):
        key = "then_branch" if bool(pred) else "else_branch"
        outs, kept, values = runs[key](tuple(state.values))
        sides = {key: (branches[key].kept_for_gradient, list(kept))}
    elif not keep:
        outs, _, values = aligned_cond(jnp.reshape(pred, ()).astype(bool), runs["then_branch"], runs["else_branch"],
                                       tuple(state.values), variants)
        sides = {}
    else:  # each branch returns its kept values and zeros shaped as the other's
        shapes = {key: jax.eval_shape(runs[key], tuple(state.values))[1] for key in branches}

        def padded(key):
            other = "else_branch" if key == "then_branch" else "then_branch"

            def fn(values):
                outs, kept, new = runs[key](values)
                zeros = tuple(_zeros_shaped(s) for s in shapes[other])
                return outs, ((kept, zeros) if key == "then_branch" else (zeros, kept)), new
            return fn
        outs, (then_kept, else_kept), values = aligned_cond(jnp.reshape(pred, ()).astype(bool), padded("then_branch"),
                                                            padded("else_branch"), tuple(state.values), variants)
        sides = {"then_branch": (branches["then_branch"].kept_for_gradient, list(then_kept)),
                 "else_branch": (branches["else_branch"].kept_for_gradient, list(else_kept))}
    state.values = list(values)
    kept = _Kept(sides.get("then_branch"), sides.get("else_branch")) if keep else None
    return list(outs) + [kept]


def _kept_by_branch(value):
    """One value a kept branch returns for the gradient: an array, or what a cond or loop nested in
    the branch kept (a pytree, padded with zeros in the other branch)."""
    if isinstance(value, (_Kept, _History, KeptGradients)):
        register_pytrees()
        return value
    return as_value(value)


def _zeros_shaped(spec):
    """Zeros shaped as one kept value of the branch not taken (jax.eval_shape's result)."""
    if isinstance(spec, (_Kept, _History, KeptGradients)):
        import jax
        from jax import numpy as jnp
        return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), spec)
    return zeros_of(spec)


def _kept_value(op, args, state):
    side = args[0]
    if not isinstance(side, _KeptSide):
        raise InvalidArgumentError(None, None, f"{op.name}: the If's kept values are read outside its gradient")
    return [side.value(op.attrs["position"])]


def _while(op, args, state):
    from jax import lax
    from jax import numpy as jnp
    attrs = state.attrs(op)
    n = attrs["n_vars"]
    init, externals = [carried(a) for a in args[:n]], args[n:]
    cond, body = attrs["cond"], attrs["body"]
    # a TensorList first written in the body enters the loop with its buffer, a growing one with its
    # final size when the indices are known at trace time (codegen/xla_lists.py)
    init = grown_for_loop(init, args[:n], cond, body, externals, attrs.get("maximum_iterations", -1))
    init = with_buffers(init, lambda loop: run_branch(body, loop, externals, state.fork(tuple(state.values)))[:n],
                        body)
    limit = attrs.get("maximum_iterations", -1)
    keep = attrs.get("keep_history", False)
    counters = Counters(body, args[:n])  # loop counters the scan's step number gives (xla_counters.py)
    trips = static_trip_count(cond, body, args[:n], externals, limit, watch=counters.watch)
    masked = trips is None and keep and limit >= 0  # a scan of maximum_iterations steps, the rest masked
    if trips is None and not masked:
        if keep and not op.attrs.get("keep_history", False):
            keep = False  # kept only as nested in a kept body (State.attrs): nothing may read its history
        if keep:
            # TensorFlow 2.21 refuses the same loop under jit_compile=True with InvalidArgumentError
            # "XLA compilation requires a fixed tensor list size. Set the max number of elements. ...
            # set maximum_iteration to a suitable value." (its gradient accumulators need a size),
            # and compiles it when maximum_iterations is set (as the masked scan here does).
            raise InvalidArgumentError(
                None, None, f"XLA compilation of the gradient of {op.type} {op.name!r} needs its trip count at "
                            f"trace time: the gradient keeps every iteration's values in buffers of a size fixed "
                            f"at compile time, and this loop's trip count is unknown at compile time (its "
                            f"condition depends on the data). XLA compilation requires a fixed tensor list "
                            f"size, as in TensorFlow's XLA: set maximum_iterations, loop over tf.range of a "
                            f"constant, or take the gradient outside the jit_compile=True function.")
        return _while_loop(cond, body, init, externals, limit, state)
    program = body.with_intermediates(body.kept_for_gradient).program if keep else body.program
    invariant = {}  # kept position -> value from outside the loop (see _History)
    outer_values = tuple(state.values)
    if not masked:
        counters.settle(trips)

    def step(carry, _):
        carried, values, active, k = carry
        loop = counters.loop(carried, k)
        if masked:  # past the condition's end, an iteration changes nothing and is marked inactive
            (go,) = run_branch(cond, loop, externals, state.fork(values))
            active = jnp.logical_and(active, jnp.reshape(go, ()).astype(bool))
        inner = state.fork(values, keep or None)
        outs = run_branch(body, loop, externals, inner, program)
        new = tuple(carried_like(o, v) for o, v in zip(outs[:n], loop))
        new_values = tuple(inner.values)
        if masked:
            new = tuple(carried_select(active, a, b) for a, b in zip(new, loop))
            new_values = tuple(jnp.where(active, a, b) for a, b in zip(new_values, values))
        if not keep:
            return (counters.carried(new), new_values, active, k + 1), None
        stacked = []
        for i, o in enumerate(outs[n:]):
            outside = _from_outside(o, externals, values, inner.values, outer_values)
            if outside is not None:
                invariant[i] = outside[0]
            elif isinstance(o, (_Kept, _History, KeptGradients)):  # a cond or loop in the body: what it kept
                # (or the gradient of what a cond kept, in a differentiable backward walk), stacked as a pytree
                register_pytrees()
                stacked.append(o)
            elif o is None or isinstance(o, CompilerVariant):
                raise InvalidArgumentError(
                    None, None, f"XLA compilation of the gradient of {op.type} {op.name!r}: its body keeps a "
                                f"variant for the gradient ({type(o).__name__}) that a compiled loop cannot stack "
                                f"per iteration yet; take the gradient outside the jit_compile=True function.")
            else:
                stacked.append(as_value(o))
        return (counters.carried(new), new_values, active, k + 1), (tuple(loop), tuple(stacked), active)
    (final, values, _, _), kept = lax.scan(step, (counters.carried(init), tuple(state.values), jnp.asarray(True),
                                                  jnp.asarray(0, np.int64)), None, length=limit if masked else trips)
    final = counters.final(final)
    state.values = list(values)
    history = _History(body.kept_for_gradient, list(kept[0]), list(kept[1]), invariant,
                       kept[2] if masked else None) if keep else None
    return list(final) + [history]


def _from_outside(value, externals, entry_values, exit_values, outer_values):
    """(the value outside the loop,) when a body's kept `value` is the same in every iteration: one
    of the loop's externals, or a variable the body reads and does not assign; else None."""
    for e in externals:
        if value is e:
            return (e,)
    for i, v in enumerate(entry_values):
        if value is v and exit_values[i] is v:
            return (outer_values[i],)
    return None


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
    n, body_grad, wanted = attrs["n_vars"], attrs["body_grad"], attrs["ext_index"]
    history, rest = args[0], args[1:]
    var_seeds = kept_seeds = None  # at higher orders: gradients reaching the history (HistorySeeds)
    zero_seeds = ()  # ... or zeros for the body gradient's seed inputs, when nothing reached it
    if attrs.get("seed_positions") is not None:
        rest, history_seeds = rest[:-1], rest[-1]
        if history_seeds.var_stacks is None:
            extra = body_grad.graph.inputs[len(body_grad.graph.inputs) - len(attrs["seed_positions"]):]
            zero_seeds = [KeptGradients({}) if ph.dtype.name == "variant" else
                          jnp.zeros(ph.shape.as_list(), ph.dtype.np_dtype) for ph in extra]
        else:
            var_seeds, kept_seeds = tuple(history_seeds.var_stacks), tuple(history_seeds.kept_stacks)
    externals, seeds = rest[:len(rest) - n], rest[len(rest) - n:]
    k = body_grad.n_intermediates
    positions = history.positions

    def ext_value(v):
        return state.values[v.index] if isinstance(v, Slot) else v
    ext_values = [ext_value(externals[i]) for i in wanted]
    acc0 = tuple(HistorySeeds() if isinstance(v, _History) else  # its structure: from one step (below)
                 zero_gradient(v) if isinstance(v, (_Kept, KeptGradients)) else zeros_like(v)  # lists too
                 for v in ext_values)

    def step(carry, xs):
        grads, acc = carry
        loop, kept, active, seeds_in = xs
        kept = history.kept(kept)
        full = list(kept) if positions is None else [None] * k
        if positions is not None:
            for p, v in zip(positions, kept):
                full[p] = v
        values = list(loop) + list(externals) + full + list(grads) + list(seeds_in[1] if seeds_in else zero_seeds)
        env = {id(ph): v for ph, v in zip(body_grad.graph.inputs, values)}
        outs = run_program(body_grad.program, env, state.fork(state.values))
        new_grads = tuple(carried_like(o, g) for o, g in zip(outs[:n], grads))
        if seeds_in:  # gradients reaching the loop variables entering this iteration directly
            new_grads = tuple(carried_like(o + s, g) for o, s, g in zip(new_grads, seeds_in[0], grads))
        added = outs[n:]
        if active is not None:  # an iteration that did not run passes the gradients through
            new_grads = tuple(carried_select(active, o, g) for o, g in zip(new_grads, grads))  # lists too

        def accumulate(a, o):
            if isinstance(o, (KeptGradients, HistorySeeds)):  # a cond's kept values in the body (stacked), a
                # loop's history read by the body (a fourth order): pytrees
                return a + o if active is None else select(active, a + o, a)
            return like(a + (o if active is None else select_value(active, o, zeros_like(o))), a)
        return (new_grads, tuple(accumulate(a, o) for a, o in zip(acc, added))), None
    xs = (tuple(history.var_stacks), tuple(history.kept_stacks), history.active,
          (var_seeds, kept_seeds) if var_seeds is not None else None)
    init = (tuple(carried(s) for s in seeds), acc0)
    if any(isinstance(v, _History) for v in ext_values):
        # An external that is another loop's history (a fourth order's backward walk reads the
        # third order's backward loop's): its gradient's stacks are what one step gives it.
        import jax
        register_pytrees()
        first = jax.tree_util.tree_map(lambda a: a[0], xs)
        shapes = jax.eval_shape(lambda: step(init, first)[0][1])
        init = (init[0], tuple(_zeros_of_shapes(sh) if isinstance(v, _History) else a
                                for v, a, sh in zip(ext_values, acc0, shapes)))
    (grads, acc), _ = lax.scan(step, init, xs, reverse=True)
    return list(grads) + list(acc)


def _zeros_of_shapes(shapes):
    """Zeros shaped as jax.eval_shape's result (a pytree: a HistorySeeds of stacks)."""
    import jax
    from jax import numpy as jnp
    return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes)


SPECIAL.update({"IfKeptValue": _kept_value, "If": _if, "StatelessIf": _if, "While": _while,
                "StatelessWhile": _while, "WhileGrad": _while_grad})

