"""The gradient of a traced function, as another traced function.

The forward graph's operations are used as tape records: each grad rule runs, symbolically, in a
new (backward) graph whose inputs are the forward parameters, every forward output and intermediate
(returned by the forward call, so nothing is recomputed), and the gradients of the user outputs.
The backward function is an ordinary ConcreteFunction, so calling it under an outer tape records it
as a call op too, and higher-order gradients follow.
"""
from __future__ import annotations

from ..autodiff.tape import backprop
from ..core.convert import convert_to_tensor
from ..core.tensor import TensorSpec
from ..ops.registry import UNREGISTERED_GRADIENT, OpRecord

_NO_CODE = ("Placeholder", "Const")


def intermediates_of(graph):
    """Every op output a gradient rule might read (all values the forward graph computes)."""
    out = []
    seen = {id(t) for t in graph.outputs}
    for op in graph.get_operations():
        if op.type in _NO_CODE:
            continue
        for t in op.outputs:
            if id(t) not in seen:
                seen.add(id(t))
                out.append(t)
    return out


def records_of(graph, env):
    """The graph's differentiable ops as tape records over other tensors: `env` maps each forward
    tensor (placeholders, and the op outputs that were computed and kept) to what stands for it
    where the gradient is being built. Constants are re-created there."""
    records = []
    for op in graph.get_operations():
        if op.type == "Placeholder":
            continue
        if op.type == "Const":
            env[id(op.outputs[0])] = convert_to_tensor(op.attrs["value"])
            continue
        if not op.opdef.differentiable:
            continue
        inputs = tuple(env.get(id(t), t) for t in op.inputs)
        outputs = tuple(env[id(t)] for t in op.outputs)
        record = (OpRecord if op.opdef.grad is not UNREGISTERED_GRADIENT else _NamedRecord)(
            op.opdef, inputs, op.attrs, outputs)
        if type(record) is _NamedRecord:  # its LookupError names the forward op, as TensorFlow's does
            record.name = op.name
        records.append(record)
    return records


class _NamedRecord(OpRecord):
    """A record of a forward op with no registered gradient, keeping the op's name for the error."""

    __slots__ = ("name",)


def build_backward(cf, all_outputs=False):
    """(backward ConcreteFunction, mask over the call op's inputs of which get a gradient).

    `cf` is an intermediates-returning ConcreteFunction (`cf.with_intermediates()`). The backward
    function takes gradients for the user outputs, or with `all_outputs` for the intermediates too
    (they receive gradients when a higher-order gradient flows back through a backward call)."""
    from .function import Function
    graph = cf.graph
    captured_ids = {id(t) for t in graph.internal_captures}
    params = [ph for ph in graph.inputs if id(ph) not in captured_ids]
    captures = graph.captures  # (external, internal)
    forward_values = cf.outputs  # user outputs, then intermediates
    user_outputs = forward_values[:cf.n_user_outputs]
    seeded = forward_values if all_outputs else user_outputs
    n_params, n_values = len(params), len(forward_values)

    def backward(*flat):
        env = {}
        for ph, t in zip(params, flat[:n_params]):
            env[id(ph)] = t
        for external, internal in captures:
            env[id(internal)] = external
        for sym, t in zip(forward_values, flat[n_params:n_params + n_values]):
            env[id(sym)] = t
        records = records_of(graph, env)
        targets = [env[id(t)] for t in seeded]
        sources = list(flat[:n_params]) + [external for external, _ in captures]
        grads = backprop(records, targets, sources, list(flat[n_params + n_values:]))
        return [grads.get(id(s)) for s in sources]

    specs = ([TensorSpec(ph.shape, ph.dtype) for ph in params]
             + [TensorSpec(t.shape, t.dtype) for t in forward_values]
             + [TensorSpec(t.shape, t.dtype) for t in seeded])
    backward.__name__ = f"{cf.name}_backward" + ("_all" if all_outputs else "")
    bwd = Function(backward, name=backward.__name__).get_concrete_function(*specs)
    mask = [g is not None for g in (bwd.structured_outputs or [])]
    if not any(mask):
        return None, mask
    return bwd, mask
