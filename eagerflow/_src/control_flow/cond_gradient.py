"""The gradient of an If from the values its forward pass kept: nothing is run twice.

When a recording tape sees an If, the taken branch also returns the values it computed (its
intermediates; positions index `Branch.with_intermediates().intermediates`), packed in the op's
last output, a variant (`kept`). TensorFlow's cond_v2 makes them extra outputs of the If, the
branch not taken returning zeros for the other's; one variant holding the taken branch's values
is the same idea without zeros of unknown shapes.

A gradient branch replays its forward branch's ops as tape records (trace/gradient.py
`records_of`) in which every forward value is an `IfKeptValue` read from `kept`: grad rules read
the very values the forward computed (a dropout mask, a random draw) and user code, random ops and
side effects never run again. Reads nothing uses are pruned from the gradient branch; the
positions left are what the forward keeps from then on (`Branch.kept_for_gradient`).

Higher orders: `IfKeptValue`'s gradient packs a value's gradient into a variant
(`IfKeptGradient`), which reaches the forward If as the gradient of `kept`; its gradient branch
then also seeds those intermediates (`IfKeptSeed`: one value's gradient out of that variant, zeros
when none arrived). `IfKeptGradient` also takes the `kept` variant it differentiates: its kernel
does not read it, but TensorFlow's form of the gradient (an Optional holding a gradient for every
kept value, graph_export/cond_gradient_export.py) needs the other kept values' zeros (at a third
order, the variant given is the kept values' gradient, which has their layout).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape
from ..core.variant import VariantValue
from ..ops.registry import Spec, bind, defop
from . import subgraph

NOTHING_KEPT = VariantValue(None)  # what an If that kept nothing returns as `kept`


class KeptGradients(VariantValue):
    """The gradient of an If's `kept` variant: {position: gradient of that kept value}. Gradients
    from several readers add up position by position."""
    __slots__ = ()

    def __add__(self, other):
        theirs = getattr(other, "payload", None)
        if not theirs:
            return self
        total = dict(self.payload)
        for position, g in theirs.items():
            total[position] = total[position] + g if position in total else g
        return KeptGradients(total)

    __radd__ = __add__


def _kept_value_kernel(kept, position, spec):
    if kept.payload is None:
        raise RuntimeError("tf.cond ran without keeping the values its gradient reads (no recording tape saw it)")
    positions, values = kept.payload
    return values[position] if positions is None else values[positions.index(position)]


def _kept_gradient_kernel(g, kept, position):
    return KeptGradients({position: g})


def _kept_seed_kernel(seeds, like, position):
    found = (getattr(seeds, "payload", None) or {}).get(position)  # a zero gradient may be a plain 0
    return np.zeros_like(like) if found is None else found


IfKeptValue = defop(
    "IfKeptValue", inputs=("kept",), kernel=_kept_value_kernel,
    infer=lambda inputs, attrs: [Spec(*attrs["spec"])],
    grad=lambda op, g: [bind(IfKeptGradient, (g, op.inputs[0]), {"position": op.attrs["position"]})],
    doc="One value the taken branch of an If computed in the forward pass, read by its gradient.")
IfKeptGradient = defop(
    "IfKeptGradient", inputs=("gradient", "kept"), kernel=_kept_gradient_kernel,
    infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.variant)],
    grad=lambda op, g: [bind(IfKeptSeed, (g, op.inputs[0]), {"position": op.attrs["position"]}), None],
    doc="The gradient of one kept value, as a gradient of the If's kept variant.")
IfKeptSeed = defop(
    "IfKeptSeed", inputs=("gradients", "like"), kernel=_kept_seed_kernel,
    infer=lambda inputs, attrs: [Spec(inputs[1].shape, inputs[1].dtype)],
    grad=lambda op, g: [bind(IfKeptGradient, (g, op.inputs[0]), {"position": op.attrs["position"]}), None],
    doc="The gradient reaching one kept value, out of the kept variant's gradient (zeros if none).")


def _zeros_like(t):
    from ..ops.array.basic import zeros_like
    return zeros_like(t)


def gradient_branch(branch, externals, kept, seeds, kept_seeds, wanted):
    """A branch computing the gradients of `externals[i]` for i in `wanted` (the If's inputs after
    the predicate), given the output gradients `seeds` and, at higher orders, `kept_seeds` (the
    gradient of `kept`, or None), from the values the forward `branch` kept."""
    from ..autodiff.tape import backprop
    from ..ops.variables.resource import ReadVariableOp
    from ..trace.gradient import records_of
    intermediates = branch.with_intermediates().intermediates
    seeded = [p for p in (branch.kept_for_gradient or ()) if intermediates[p].dtype.is_differentiable] \
        if kept_seeds is not None else []

    def grad_fn():
        env = {id(ph): externals[branch.index[j]] for j, ph in enumerate(branch.graph.internal_captures)}
        for position, t in enumerate(intermediates):  # the ones no rule reads are pruned
            env[id(t)] = bind(IfKeptValue, (kept,), {"position": position, "spec": (t.shape, t.dtype)},
                              name=t._op.name)
        records = records_of(branch, env)  # its live ops: each output a kept value
        targets = [env[id(t)] for t in branch.outputs]
        output_grads = list(seeds)
        for position in seeded:
            value = env[id(intermediates[position])]
            targets.append(value)
            output_grads.append(bind(IfKeptSeed, (kept_seeds, value), {"position": position}))
        sources = [externals[i] for i in wanted]
        found = backprop(records, targets, sources, output_grads)
        result = []
        for t in sources:
            g = found.get(id(t))
            if g is None:
                g = _zeros_like(bind(ReadVariableOp, (t,)) if t.dtype is _dt.resource else t)
            result.append(g)
        return result

    grad = subgraph.trace(grad_fn, [], f"{branch.name}_grad")
    reads = {op.attrs["position"] for op in grad.program.ops if op.opdef is IfKeptValue}
    branch.kept_for_gradient = sorted(reads | set(branch.kept_for_gradient or ()))  # every gradient's needs
    return grad
