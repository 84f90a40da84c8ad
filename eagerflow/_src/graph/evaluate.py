"""The reference interpreter: replays a graph's ops one at a time through `bind`.

It is the meaning of a graph. Because each op goes through `bind`, replaying under a GradientTape
records every op (so a traced function called under a tape is differentiable, to any order), and
replaying while another graph is being traced inlines the function into that graph.
"""
from __future__ import annotations

from ..core import nest
from ..core.context import state
from .sites import inlined_site
from ..ops.registry import bind


def evaluate(graph, param_tensors, outputs_template=None, capture_values=None, record=None):
    """Runs `graph` on tensors for its parameter placeholders; returns its structured outputs.
    `capture_values` (aligned with `graph.captures`) replaces what the graph captured, e.g. a
    branch replayed where its enclosing graph's values have other tensors standing for them.
    `record`, a list: gets (op, its output tensors) for every op run, in order (the parity
    check's search for the first op that differs, trace/parity_locate.py)."""
    env = {}
    if capture_values is None:
        captured = {id(internal): external for external, internal in graph.captures}
    else:
        captured = {id(internal): value for (_, internal), value in zip(graph.captures, capture_values)}
    params = [ph for ph in graph.inputs if id(ph) not in captured]
    if len(params) != len(param_tensors):
        raise TypeError(f"graph {graph.name} takes {len(params)} inputs, got {len(param_tensors)}")
    for ph, t in zip(params, param_tensors):
        env[id(ph)] = t
    for ph in graph.inputs:
        if id(ph) in captured:
            env[id(ph)] = captured[id(ph)]
    building = state.graph if hasattr(state.graph, "_ops") else None
    base = getattr(graph, "base_stack", ())
    for op in graph.get_operations():
        if op.type == "Placeholder":
            continue
        inputs = [env[id(t)] for t in op.inputs]
        if building is None:
            result = bind(op.opdef, inputs, op.attrs)
        else:  # inlined into a trace: the new ops keep the user's line of the op they replay
            added = len(building._ops)
            result = bind(op.opdef, inputs, op.attrs)
            for new in building._ops[added:]:
                new.source = inlined_site(new.source, op.source, base)
        outs = result if op.opdef.multi_output else [result]
        for sym, value in zip(op.outputs, outs):
            env[id(sym)] = value
        if record is not None:
            record.append((op, outs))
    flat = [env[id(t)] for t in graph.outputs]
    template = graph.structured_outputs if outputs_template is None else outputs_template
    if template is None:
        return None
    return nest.pack_sequence_as(template, flat, expand_composites=True)
