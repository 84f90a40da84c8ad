"""A loop's history as tensors, for gradients of a loop's gradient (second order and up).

WhileGrad (control_flow/while_loop.py) walks the history in its kernel, which nothing can
differentiate. Its gradient (`while_grad_grad`) rebuilds that walk as an ordinary tf.while_loop
over the history's stacked values (`LoopHistoryStack`; one variant per iteration read with
`LoopHistoryItem`) and differentiates it under a tape: the history's gradient (`LoopHistorySeeds`)
reaches the forward loop's WhileGrad as seeds for its kept values, and at a third order the walk
also adds those seeds per iteration (`LoopHistorySeedStacks` unpacks them).

A cond (or a loop) in the body keeps a variant per iteration: its history column is a column of
variants (`LoopHistoryItem` reads one, `LoopHistoryItemGrad` is its gradient). At a third order the
second order's backward loop is itself walked back, and the gradient of such a column is summed
over the iterations like any external's: with AddN, which adds variants through their `+` (a
never-reached entry is a zero variant: ZerosLike of a column of variants gives one per entry, so a
fourth order, which walks the third order's backward loop back, reads a variant out of it).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape
from ..core.variant import VariantValue
from ..ops.registry import NO_GRADIENT, Spec, bind, defop


def while_grad_grad(op, *grads):
    """The gradient of a loop's gradient: the backward walk is rebuilt as an ordinary
    tf.while_loop over the stacked history (differentiable ops only) and differentiated under a
    tape; the history's gradient reaches the forward loop as seeds for its kept values."""
    from ..autodiff.tape import GradientTape
    built_from = _ops_so_far(op)
    n = op.attrs["n_vars"]
    history, rest = op.inputs[0], list(op.inputs[1:])
    seed_positions = op.attrs.get("seed_positions")
    history_seeds = None  # third order and up: the gradients that reached the history, walked back too
    if seed_positions is not None:
        rest, history_seeds = rest[:-1], rest[-1]
    externals, seeds = rest[:len(rest) - n], rest[len(rest) - n:]
    with GradientTape(watch_accessed_variables=False) as tape:
        # One tensor at two inputs (a loop variable's gradient seed that is also an external) gets
        # a gradient per input, not its total at each: a distinct Identity per repeated input.
        history, *rest = _distinct([history] + externals + seeds
                                   + ([history_seeds] if history_seeds is not None else []))
        externals, seeds = rest[:len(externals)], rest[len(externals):len(externals) + n]
        history_seeds = rest[len(externals) + n] if history_seeds is not None else None
        sources = [history] + externals + seeds + ([history_seeds] if history_seeds is not None else [])
        for t in sources:
            if t.dtype.is_differentiable or t.dtype is _dt.resource:
                tape.watch(t)
        outs = _differentiable_backward(history, op.attrs["body"], op.attrs["body_grad"], externals, seeds,
                                        op.attrs["ext_index"], op.attrs.get("maximum_iterations", -1),
                                        history_seeds, seed_positions)
    seeds_out = [g if g is not None else _zeros(o) for g, o in zip(grads, outs)]
    result = tape.gradient(outs, sources, output_gradients=seeds_out)
    _record_second_order(op, grads, result, built_from)
    return result


def _operation(op):
    """The graph Operation behind a tape's record of a WhileGrad (None eagerly)."""
    producer = getattr(op.outputs[0], "_op", None) if op.outputs else None
    return producer if getattr(producer, "graph", None) is not None else None


def _ops_so_far(op):
    operation = _operation(op)
    return None if operation is None else len(operation.graph.get_operations())


def _record_second_order(op, grads, result, built_from):
    """Notes, on the WhileGrad's graph, what its gradient was built from and returned, and which ops
    building it added (`graph.loop_second_orders`: WhileGrad Operation -> (output gradients, input
    gradients, ops)). TensorFlow's files state this gradient as the SymbolicGradient of the
    first-order gradient (graph_export/gradient_export.py), leaving those ops out."""
    operation = _operation(op)
    if operation is None or built_from is None:
        return
    graph = operation.graph
    added = graph.get_operations()[built_from:]
    if not hasattr(graph, "loop_second_orders"):
        graph.loop_second_orders = {}
    graph.loop_second_orders[operation] = (list(grads), list(result), added)


def _distinct(tensors):
    from ..ops.array.basic import identity
    seen, out = set(), []
    for t in tensors:
        out.append(identity(t) if id(t) in seen and t.dtype is not _dt.resource else t)
        seen.add(id(t))
    return out


def _differentiable_backward(history, body, body_grad, externals, seeds, wanted, maximum_iterations=-1,
                             history_seeds=None, seed_positions=None):
    """The backward walk of WhileGrad written with ordinary ops: a tf.while_loop over the history's
    stacked values running the body gradient's ops, as many iterations as the forward ran (its
    `maximum_iterations` bounds this loop too: what XLA needs to compile it). With `history_seeds`
    (a WhileGrad of a second order), each iteration also adds the gradients that reached its loop
    variables and kept values, as WhileGrad's kernel does."""
    from ..graph.evaluate import evaluate
    from ..ops.array.basic import zeros
    from ..ops.math.elementwise import cast, greater_equal
    from ..ops.variables.resource import ReadVariableOp
    n = len(body.explicit)
    positions = tuple(body.kept_for_gradient or ())
    full = body.with_intermediates()
    var_specs = [(ph.shape, ph.dtype) for ph in body.explicit]
    kept_specs = [(full.intermediates[p].shape, full.intermediates[p].dtype) for p in positions]
    stacks = bind(HistoryStack, (history,), {"n_vars": n, "positions": positions,
                                            "var_specs": var_specs, "kept_specs": kept_specs})
    var_stacks, kept_stacks = stacks[:n], stacks[n:]
    var_seeds, kept_seeds = [], []
    if history_seeds is not None:
        seed_specs = [(full.intermediates[p].shape, full.intermediates[p].dtype) for p in seed_positions]
        like = bind(HistoryStack, (history,), {"n_vars": n, "positions": tuple(seed_positions),
                                              "var_specs": var_specs, "kept_specs": seed_specs})
        unpacked = bind(HistorySeedStacks, (history_seeds, *like), {"n_vars": n})
        var_seeds, kept_seeds = unpacked[:n], unpacked[n:]
    placeholders = body_grad.graph.inputs[:len(body_grad.explicit)]
    k, m = body_grad.n_intermediates, len(externals)

    def cond(j, *rest):
        return greater_equal(j, 0)

    def step(j, *rest):
        g, acc = list(rest[:n]), list(rest[n:])
        kept = [None] * k
        for p, stack in zip(positions, kept_stacks):
            kept[p] = bind(HistoryItem, (stack, j)) if stack.dtype is _dt.variant else stack[j]
        for i in range(k):  # never read by the gradient: zeros of the placeholder's dtype (and shape, when
            if kept[i] is None:  # known: the graph's dead ops still check their input shapes)
                ph = placeholders[n + m + i]
                shape = ph.shape.as_list() if ph.shape.is_fully_defined() else []
                kept[i] = _zeros(history) if ph.dtype is _dt.variant else cast(zeros(shape), ph.dtype)
        extra = [bind(HistoryItem, (s, j)) if s.dtype is _dt.variant else s[j] for s in kept_seeds]
        outs = evaluate(body_grad.graph, [s[j] for s in var_stacks] + list(externals) + kept + g + extra,
                        body_grad.outputs)
        grads = [_sum(o, s[j]) for o, s in zip(outs[:n], var_seeds)] if var_seeds else list(outs[:n])
        new = grads + [_sum(a, b) for a, b in zip(acc, outs[n:])]
        for t, entering in zip(new, rest):  # a gradient keeps its value's shape: what the loop checks
            if entering.shape.is_compatible_with(t.shape):
                t.set_shape(entering.shape)
        return [j - 1] + new

    start_acc = [_zeros(bind(ReadVariableOp, (externals[i],)) if externals[i].dtype is _dt.resource
                        else externals[i]) for i in wanted]
    from .while_loop import while_loop
    result = while_loop(cond, step, [bind(HistoryLength, (history,)) - 1] + list(seeds) + start_acc,
                        maximum_iterations=maximum_iterations if maximum_iterations >= 0 else None)
    return list(result[1:])


def _zeros(t):
    from ..ops.array.basic import zeros_like
    return zeros_like(t)


def _sum(a, b):
    """a + b, also for variant gradients (what a cond in the body kept, stacked: AddN adds those)."""
    if a.dtype is _dt.variant or b.dtype is _dt.variant:
        from ..ops.math.elementwise import add_n
        return add_n([a, b])
    return a + b


def _stack(values, spec):
    if spec[1] is _dt.variant:  # e.g. what a cond in the body kept: one variant per iteration
        column = np.empty(len(values), dtype=object)
        for i, v in enumerate(values):
            column[i] = v
        return column
    if values:
        return np.stack([np.asarray(v) for v in values])
    shape, dtype = spec
    dims = [0 if d is None else d for d in (shape.as_list() if shape.rank is not None else [])]
    return np.zeros([0] + dims, dtype=dtype.np_dtype)


def _history_stack_kernel(history, n_vars, positions, var_specs, kept_specs):
    stored, entries = history.payload
    where = None if stored is None else {p: i for i, p in enumerate(stored)}

    def pick(kept, p):
        return kept[p] if where is None else kept[where[p]]
    var_cols = [_stack([e[0][j] for e in entries], var_specs[j]) for j in range(n_vars)]
    kept_cols = [_stack([pick(e[1], p) for e in entries], spec) for p, spec in zip(positions, kept_specs)]
    return var_cols + kept_cols


def _history_stack_infer(inputs, attrs):
    return [Spec(TensorShape([None]).concatenate(shape), dtype)
            for shape, dtype in list(attrs["var_specs"]) + list(attrs["kept_specs"])]


def _history_stack_grad(op, *grads):
    n = op.attrs["n_vars"]
    filled = [g if g is not None else _zeros(o) for g, o in zip(grads, op.outputs)]
    return [bind(HistorySeeds, tuple(filled), {"n_vars": n})]


def _history_item_kernel(stack, index):
    return stack[index]


def _history_item_grad_kernel(g, stack, index):
    out = np.empty(len(stack), dtype=object)
    for i in range(len(out)):
        out[i] = VariantValue(None)  # a zero variant gradient
    out[index] = g
    return out


class _HistoryGradient(VariantValue):
    """A loop history's gradient: (loop variable stacks, kept value stacks). Gradients reaching the
    history along several paths (a third order) add up stack by stack."""
    __slots__ = ()

    def __add__(self, other):
        theirs = getattr(other, "payload", None)
        if theirs is None:
            return self
        return _HistoryGradient(tuple([a + b for a, b in zip(mine, its)] for mine, its in zip(self.payload, theirs)))

    __radd__ = __add__


def _history_seeds_kernel(*stacks, n_vars):
    return _HistoryGradient((list(stacks[:n_vars]), list(stacks[n_vars:])))


def _history_seed_stacks_kernel(seeds, *like, n_vars):
    if seeds.payload is None:  # a zero gradient: zeros shaped as the stacks
        return [np.zeros_like(a) if a.dtype != object else _zero_column(len(a)) for a in like]
    var_seeds, kept_seeds = seeds.payload
    return [np.asarray(a) if getattr(a, "dtype", None) != object else a for a in list(var_seeds) + list(kept_seeds)]


def _zero_column(length):
    out = np.empty(length, dtype=object)
    for i in range(length):
        out[i] = VariantValue(None)
    return out


def _history_seeds_grad(op, g):
    """The gradient of the history's gradient, stack by stack (a third order and up)."""
    return list(bind(HistorySeedStacks, (g, *op.inputs), {"n_vars": op.attrs["n_vars"]}))


def _history_seed_stacks_grad(op, *grads):
    filled = [g if g is not None else _zeros(o) for g, o in zip(grads, op.outputs)]
    return [bind(HistorySeeds, tuple(filled), {"n_vars": op.attrs["n_vars"]})] + [None] * (len(op.inputs) - 1)


HistoryStack = defop("LoopHistoryStack", inputs=("history",), kernel=_history_stack_kernel,
                      infer=_history_stack_infer, grad=_history_stack_grad, multi_output=True, sparse_output_grads=True,
                      doc="A loop's kept values as stacked tensors [iterations, ...] (TensorFlow keeps them in "
                          "TensorList accumulators): what a differentiable backward loop reads.")
HistoryLength = defop("LoopHistoryLength", inputs=("history",), grad=NO_GRADIENT,
                      kernel=lambda history: np.array(len(history.payload[1]), dtype=np.int32),
                      infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.int32)],
                      doc="How many iterations a loop's history holds (under XLA: how many of a "
                          "maximum_iterations scan's steps ran): where the differentiable backward walk starts.")
HistoryItem = defop("LoopHistoryItem", inputs=("stack", "index"), kernel=_history_item_kernel,
                    infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.variant)],
                    grad=lambda op, g: [bind(HistoryItemGrad, (g, *op.inputs)), None],
                    doc="One iteration's variant out of a stacked history column (a variant a cond or loop "
                        "in the body kept): NumPy object arrays have no strided-slice gradient.")
HistoryItemGrad = defop("LoopHistoryItemGrad", inputs=("gradient", "stack", "index"),
                        kernel=_history_item_grad_kernel,
                        infer=lambda inputs, attrs: [Spec(inputs[1].shape, _dt.variant)],
                        grad=lambda op, g: [bind(HistoryItem, (g, op.inputs[2])), None, None],
                        doc="The gradient of LoopHistoryItem: a column of zero variants but at `index`.")
HistorySeeds = defop("LoopHistorySeeds", inputs=("gradients",), kernel=_history_seeds_kernel,
                     infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.variant)], grad=_history_seeds_grad,
                     doc="Gradients of a loop's stacked history, as the history's gradient (a variant).")
HistorySeedStacks = defop("LoopHistorySeedStacks", inputs=("gradients", "like"), kernel=_history_seed_stacks_kernel,
                          infer=lambda inputs, attrs: [Spec(t.shape, t.dtype) for t in inputs[1:]],
                          grad=_history_seed_stacks_grad, multi_output=True, sparse_output_grads=True,
                          doc="The stacks a loop history's gradient holds (zeros like `like` for a zero "
                              "gradient): what the backward walk of a third order adds per iteration.")
