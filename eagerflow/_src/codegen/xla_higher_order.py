"""Higher-order gradients through control flow under jit_compile=True: the ops a gradient of a
gradient adds around an If or a While (control_flow/cond_gradient.py, control_flow/while_loop.py),
lowered over the compiler's own values for what the NumPy kernels hold in variants.

- If: the gradient of one kept value (`IfKeptGradient`) is a `KeptGradients` {branch: {position:
  gradient}}; it leaves the second-order If's branch tagged with that branch (the branch of the
  forward If whose kept values it is the gradient of), crosses `lax.cond` as a pytree (each branch
  padded with zeros for what only the other one produced), and the first-order gradient If's
  branch reads its own side back (`IfKeptSeed`: zeros where nothing arrived).
- While: `LoopHistoryStack` hands the differentiable backward loop the scan's stacked history
  (values kept once, outside the loop, broadcast to one per iteration); its gradient,
  `LoopHistorySeeds`, is a `HistorySeeds` of stacks, and `WhileGrad` with `seed_positions` adds
  them in its reverse scan as the NumPy kernel does per iteration.
- A fourth order walks back the third order's backward loop, whose history its own backward loop
  reads as an external: that external's gradient is a HistorySeeds (a pytree) summed over the
  reverse scan, from zeros shaped as one step gives it (xla_control_flow.py, `_while_grad`).
- A third order through a loop whose body holds a cond walks back the second order's backward
  loop, which sums the gradients of the cond's kept values over its iterations: a KeptGradients
  is then a loop variable (`carried`), started from zeros for every entry (ZerosLike of kept
  values or of their gradient) so that the scan's carry keeps one structure.

A variant that is a zero gradient (ZerosLike of a kept/history variant, nothing reached it) is a
HistorySeeds without stacks, or a KeptGradients of zeros for every kept value; AddN merges them.
"""
from __future__ import annotations

import threading

from ..core.errors import InvalidArgumentError
from .xla_lists import as_value
from .xla_lists import select as select_value
from .xla_run import ON_VARIANTS, SPECIAL, CompilerVariant, like, lower


class KeptGradients(CompilerVariant):
    """Under XLA, the gradient of an If's kept values: {branch key or None: {position: array}}.
    None: made inside a branch and not yet tagged with it (`tagged`)."""

    def __init__(self, by_side):
        self.by_side = by_side

    def __add__(self, other):
        if not isinstance(other, KeptGradients):
            return self
        total = {side: dict(values) for side, values in self.by_side.items()}
        for side, values in other.by_side.items():
            mine = total.setdefault(side, {})
            for position, g in values.items():
                mine[position] = mine[position] + g if position in mine else g
        return KeptGradients(total)

    __radd__ = __add__

    def tagged(self, key):
        """The untagged entries as the gradients of branch `key`'s kept values."""
        if None not in self.by_side:
            return self
        tagged = KeptGradients({s: v for s, v in self.by_side.items() if s is not None})
        return tagged + KeptGradients({key: self.by_side[None]})

    def for_branch(self, key):
        """What the gradient If's branch for forward branch `key` reads (IfKeptSeed)."""
        return KeptGradientsSide(self.by_side.get(key, {}))


class KeptGradientsSide(CompilerVariant):
    """A KeptGradients as the gradient If's branch for one forward branch sees it: {position: array}."""

    def __init__(self, by_position):
        self.by_position = by_position


def _flatten(kept):
    keys = tuple(sorted((side, position) for side, values in kept.by_side.items() for position in values))
    return [kept.by_side[s][p] for s, p in keys], keys


def _unflatten(keys, children):
    by_side = {}
    for (side, position), value in zip(keys, children):
        by_side.setdefault(side, {})[position] = value
    return KeptGradients(by_side)


def _flatten_kept(kept):
    keys = tuple(sorted(kept.sides))
    aux, children = [], []
    for key in keys:
        side = kept.sides[key]
        aux.append(None if side is None else (key, side[0], len(side[1])))
        children.extend(() if side is None else side[1])
    return children, (keys, tuple(aux))


def _unflatten_kept(aux, children):
    from .xla_control_flow import _Kept
    keys, sides = aux
    it = iter(children)
    by_key = {key: None if side is None else (side[1], [next(it) for _ in range(side[2])])
              for key, side in zip(keys, sides)}
    return _Kept(by_key.get("then_branch"), by_key.get("else_branch"))


def _flatten_history(history):
    keys = tuple(sorted(history.invariant))
    active = () if history.active is None else (history.active,)
    children = list(history.var_stacks) + list(history.kept_stacks) + [history.invariant[k] for k in keys] + list(active)
    return children, (history.positions, len(history.var_stacks), len(history.kept_stacks), keys, bool(active))


def _unflatten_history(aux, children):
    from .xla_control_flow import _History
    positions, n_vars, n_kept, keys, has_active = aux
    children = list(children)
    var_stacks, kept_stacks = children[:n_vars], children[n_vars:n_vars + n_kept]
    invariant = dict(zip(keys, children[n_vars + n_kept:n_vars + n_kept + len(keys)]))
    return _History(positions, var_stacks, kept_stacks, invariant, children[-1] if has_active else None)


def _flatten_seeds(seeds):
    if seeds.var_stacks is None:
        return [], None
    return list(seeds.var_stacks) + list(seeds.kept_stacks), len(seeds.var_stacks)


def _unflatten_seeds(n_vars, children):
    if n_vars is None:
        return HistorySeeds()
    children = list(children)
    return HistorySeeds(children[:n_vars], children[n_vars:])


_registered = []
_register_lock = threading.Lock()  # functions compile from many threads; JAX refuses a second registration


def register_pytrees():
    """KeptGradients, an If's _Kept and a loop's _History as JAX pytrees: lax.cond returns them,
    lax.scan stacks them per iteration (a cond or loop inside a loop body) and slices them back in
    the reverse scan."""
    if _registered:
        return
    with _register_lock:
        if not _registered:
            import jax
            from .xla_control_flow import _History, _Kept
            jax.tree_util.register_pytree_node(KeptGradients, _flatten, _unflatten)
            jax.tree_util.register_pytree_node(_Kept, _flatten_kept, _unflatten_kept)
            jax.tree_util.register_pytree_node(_History, _flatten_history, _unflatten_history)
            jax.tree_util.register_pytree_node(HistorySeeds, _flatten_seeds, _unflatten_seeds)
            _registered.append(True)


def branch_output(value, key):
    """One output of an If's branch as lax.cond returns it: an array, or a KeptGradients tagged
    with the branch."""
    from jax import numpy as jnp
    if isinstance(value, KeptGradients):
        register_pytrees()
        return value.tagged(key)
    return jnp.asarray(value)


def aligned_cond(pred, then_fn, else_fn, operand, variants=True):
    """lax.cond over branches whose outputs may hold KeptGradients with different entries
    (`variants`: the If has a variant output): each branch's are padded with zeros for the entries
    only the other one has."""
    import jax
    from jax import lax
    from jax import numpy as jnp
    if not variants:
        return lax.cond(pred, then_fn, else_fn, operand)
    shapes = [jax.eval_shape(fn, operand) for fn in (then_fn, else_fn)]
    if jax.tree_util.tree_structure(shapes[0]) == jax.tree_util.tree_structure(shapes[1]):
        return lax.cond(pred, then_fn, else_fn, operand)
    union = [_union(a, b) for a, b in zip(*(jax.tree_util.tree_leaves(s, is_leaf=_is_kept) for s in shapes))]

    def padded(fn):
        def run(values):
            leaves, tree = jax.tree_util.tree_flatten(fn(values), is_leaf=_is_kept)
            out = []
            for leaf, full in zip(leaves, union):
                if full is not None:
                    leaf = leaf + KeptGradients({side: {p: _zeros_of_shape(v) for p, v in entries.items()
                                                        if p not in leaf.by_side.get(side, {})}
                                                 for side, entries in full.by_side.items()})
                out.append(leaf)
            return jax.tree_util.tree_unflatten(tree, out)
        return run
    return lax.cond(pred, padded(then_fn), padded(else_fn), operand)


def _zeros_of_shape(spec):
    """Zeros shaped as jax.eval_shape's result for one entry (nested: a cond's kept values' gradient)."""
    import jax
    from jax import numpy as jnp
    return jax.tree_util.tree_map(lambda s: jnp.zeros(s.shape, s.dtype), spec)


def _is_kept(x):
    return isinstance(x, KeptGradients)


def _union(a, b):
    if not (_is_kept(a) or _is_kept(b)):
        return None
    if not (_is_kept(a) and _is_kept(b)):
        raise InvalidArgumentError(None, None, "XLA compilation of an If: one branch returns the gradient of "
                                               "kept values where the other returns a tensor")
    by_side = {side: dict(values) for side, values in b.by_side.items()}
    for side, values in a.by_side.items():
        by_side.setdefault(side, {}).update(values)
    return KeptGradients(by_side)


def _kept_gradient(op, args, state):
    return [KeptGradients({None: {op.attrs["position"]: args[0]}})]


def _kept_seed(op, args, state):
    from jax import numpy as jnp
    seeds, like = args
    found = seeds.by_position.get(op.attrs["position"]) if isinstance(seeds, KeptGradientsSide) else None
    return [jnp.zeros_like(like) if found is None else found]


# --- loops ---

class HistorySeeds(CompilerVariant):
    """Under XLA, the gradient of a loop's history: stacks [iterations, ...] for its loop
    variables and the kept values LoopHistoryStack read (None: a zero gradient)."""

    def __init__(self, var_stacks=None, kept_stacks=None):
        self.var_stacks, self.kept_stacks = var_stacks, kept_stacks

    def __add__(self, other):
        if not isinstance(other, HistorySeeds) or other.var_stacks is None:
            return self
        if self.var_stacks is None:
            return other
        return HistorySeeds([a + b for a, b in zip(self.var_stacks, other.var_stacks)],
                            [a + b for a, b in zip(self.kept_stacks, other.kept_stacks)])

    __radd__ = __add__


def _history_stack(op, args, state):
    from jax import numpy as jnp
    from .xla_control_flow import _History
    history = args[0]
    if not isinstance(history, _History):
        raise InvalidArgumentError(None, None, f"XLA compilation of {op.name} ({op.type}): the loop's history is "
                                               f"not one a compiled loop kept")
    attrs = op.attrs
    trips = history.var_stacks[0].shape[0] if history.var_stacks else None
    stored = history.positions
    columns = []
    for p in attrs["positions"]:
        i = p if stored is None else stored.index(p)
        if i in history.invariant:
            value = jnp.asarray(history.invariant[i])
            columns.append(jnp.broadcast_to(value, (trips,) + value.shape))
        else:
            columns.append(history.kept_stacks[i - sum(1 for j in history.invariant if j < i)])
    return list(history.var_stacks) + columns


def _history_length(op, args, state):
    """The iterations that ran: the scan's length, or (a maximum_iterations scan) its active steps."""
    import numpy as np
    from jax import numpy as jnp
    history = args[0]
    if history.active is None:
        return [np.asarray(history.var_stacks[0].shape[0], np.int32)]
    return [jnp.sum(history.active).astype(np.int32)]


def _history_item(op, args, state):
    """One iteration's kept variant (a cond's _Kept in the body) out of its stacked column."""
    import jax
    stack, index = args
    return [jax.tree_util.tree_map(lambda a: a[index], stack)]


def _history_item_grad(op, args, state):
    """A column of zero gradients but at `index`: the gradient of one iteration's kept variant."""
    from jax import numpy as jnp
    g, stack, index = args
    if isinstance(g, HistorySeeds) and g.var_stacks is not None:
        raise _nested_loops_error()
    if not isinstance(g, KeptGradients):
        return [KeptGradients({})]
    import jax
    register_pytrees()
    trips = _length(stack)  # every array of g (those of a nested cond's gradient too) in a column at `index`
    return [jax.tree_util.tree_map(lambda v: jnp.zeros((trips,) + jnp.shape(v), jnp.result_type(v)).at[index].set(v),
                                   g)]


def _length(stacked):
    import jax
    leaves = jax.tree_util.tree_leaves(stacked)
    return leaves[0].shape[0] if leaves else 0


def _nested_loops_error():
    # TensorFlow 2.21 refuses it under jit_compile=True too ("Input 1 to node ... with op
    # EmptyTensorList must be a compile-time constant").
    return InvalidArgumentError(
        None, None, "XLA compilation of a second-order gradient through a loop nested in a loop is not supported "
                    "(TensorFlow's XLA refuses it too: the inner loop's gradient buffers need a size known at "
                    "compile time); take the higher-order gradient outside the jit_compile=True function.")


def zero_gradient(value):
    """The zero a gradient accumulates from for `value`: zeros shaped like it, or for an If's
    kept values (a cond in a loop body, stacked), a KeptGradients of zeros for every kept value."""
    from jax import numpy as jnp
    from .xla_control_flow import _History, _Kept
    if isinstance(value, _History):
        raise _nested_loops_error()
    if isinstance(value, KeptGradients):  # the gradient of kept values is itself differentiated (a third order)
        return KeptGradients({side: {p: zero_gradient(v) for p, v in values.items()}
                              for side, values in value.by_side.items()})
    if isinstance(value, _Kept):  # a kept value may be what a cond nested in the branch kept: zeros for it too
        return KeptGradients({key: {p: zero_gradient(v) for p, v in zip(
            side[0] if side[0] is not None else range(len(side[1])), side[1])}
            for key, side in value.sides.items() if side is not None})
    return jnp.zeros_like(jnp.asarray(value))


def select(active, a, b):
    """`a` where `active` else `b`, over arrays or KeptGradients with the same entries."""
    import jax
    from jax import numpy as jnp
    return jax.tree_util.tree_map(lambda x, y: jnp.where(active, x, y), a, b)


# A loop variable may be a KeptGradients: the differentiable backward walk of a loop whose body
# holds a cond sums the gradients of the cond's kept values over the iterations (a third order).

def carried(value):
    """A loop variable's value as a compiled loop carries it."""
    if isinstance(value, KeptGradients):
        register_pytrees()
        return value
    return as_value(value)


def carried_like(new, old):
    """`new` as the carry `old` was: its dtype, or for a KeptGradients its entries (zeros for those
    `new` lacks; lax.scan needs the same structure every iteration)."""
    if isinstance(old, KeptGradients):
        missing = [(side, p) for side, values in new.by_side.items() for p in values
                   if p not in old.by_side.get(side, {})]
        if missing:
            raise InvalidArgumentError(None, None, f"XLA compilation of a loop: the gradients of kept values it "
                                                   f"carries gain entries {missing} in an iteration")
        return zero_gradient(old) + new
    return like(new, old)


def carried_select(active, a, b):
    """`a` where `active` else `b`, for any carry."""
    if isinstance(a, KeptGradients):
        return select(active, a, b)
    return select_value(active, a, b)


def _history_seed_stacks(op, args, state):
    """The stacks a HistorySeeds holds; zeros like `like` for a zero gradient."""
    seeds, like = args[0], args[1:]
    if isinstance(seeds, HistorySeeds) and seeds.var_stacks is not None:
        return list(seeds.var_stacks) + list(seeds.kept_stacks)
    return [zero_gradient(a) for a in like]


def _history_seeds(op, args, state):
    n = op.attrs["n_vars"]
    return [HistorySeeds(list(args[:n]), list(args[n:]))]


# --- variants that flow as gradients: zeros and sums ---

def _zeros_like(op, args):
    from .xla_control_flow import _History, _Kept
    if isinstance(args[0], (_History, HistorySeeds)):
        return [HistorySeeds()]
    if isinstance(args[0], (_Kept, KeptGradients)):  # every entry: it may start a loop's sum (a carry)
        return [zero_gradient(args[0])]
    return [KeptGradients({})]  # of an If's kept values or their gradient


def _add_n(op, args):
    variants = [a for a in args if isinstance(a, CompilerVariant)]
    total = variants[0]
    for v in variants[1:]:
        total = total + v
    return [total]


SPECIAL.update({"IfKeptGradient": _kept_gradient, "IfKeptSeed": _kept_seed, "LoopHistoryStack": _history_stack,
                "LoopHistoryLength": _history_length, "LoopHistorySeedStacks": _history_seed_stacks,
                "LoopHistorySeeds": _history_seeds, "LoopHistoryItem": _history_item,
                "LoopHistoryItemGrad": _history_item_grad})
ON_VARIANTS.update({"ZerosLike": _zeros_like, "AddN": _add_n})
