"""`tf.gradients`: symbolic gradients inside a graph being traced (TensorFlow 1's API, still used
inside `tf.function`).

Why it is short: a graph's Operations carry the same attributes as tape records (opdef, inputs,
attrs, outputs), so the ops traced so far are the tape, and `backprop` runs their gradient rules
into the same graph.
"""
from __future__ import annotations

from ..core import nest
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.tensor import Tensor
from .tape import UnconnectedGradients, backprop, check_unconnected


def _source_in(graph, x):
    """What stands for `x` in `graph`: the tensor, or for a variable its handle as the graph sees it."""
    tensor = x if isinstance(x, Tensor) else getattr(x, "handle", None)
    if tensor is None:
        raise TypeError(f"tf.gradients: expected a tensor or variable in `xs`, got {x!r}")
    if getattr(tensor, "graph", None) is graph:  # a tensor of this graph, or a Variable argument's placeholder
        return tensor
    for external, internal in graph.captures:  # an outside tensor or variable, as the graph sees it
        if external is tensor:
            return internal
    return tensor  # never used in this graph: no gradient reaches it


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
    """The symbolic partial derivatives of sum(ys) with respect to each x in xs (a list)."""
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    unconnected = check_unconnected(unconnected_gradients)
    flat_ys = [y if isinstance(y, Tensor) else convert_to_tensor(y) for y in nest.flatten(ys, expand_composites=True)]
    flat_xs = nest.flatten(xs, expand_composites=True)
    sources = [_source_in(graph, x) for x in flat_xs]
    seeds = None
    if grad_ys is not None:
        seeds = nest.flatten(grad_ys, expand_composites=True)
        if len(seeds) != len(flat_ys):
            raise ValueError(f"Passed {len(seeds)} grad_ys for {len(flat_ys)} ys")
    stopped = (set() if stop_gradients is None
               else {id(t) for t in nest.flatten(stop_gradients, expand_composites=True)})
    records = [op for op in graph.get_operations()
               if op.inputs and op.opdef.differentiable and not any(id(t) in stopped for t in op.outputs)]
    grads = backprop(records, flat_ys, sources, seeds, keep_slices=True)
    out = []
    for x, source in zip(flat_xs, sources):
        g = grads.get(id(source))
        if g is None and unconnected is UnconnectedGradients.ZERO:
            from ..ops.array.basic import zeros_like
            g = zeros_like(x if isinstance(x, Tensor) else x.value())
        out.append(g)
    return out
