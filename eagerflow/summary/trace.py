"""tf.summary.trace_on / trace_export / trace_off, and tf.summary.graph: graphs for TensorBoard.

`trace_on(graph=True)` collects the graph of every tf.function traced from then on (a difference
from TensorFlow, which collects the graphs of functions *run* while tracing is on: here a function
already traced before `trace_on` is not collected; call `trace_on` before the first call, as
TensorFlow's examples do). `trace_export(name, step)` writes what was collected to the default
writer as a GraphDef event (the graph TensorBoard's Graphs dashboard shows) and stops collecting.

The GraphDef has one NodeDef per op with TensorFlow's node names, inputs (`name:1` for a second
output), `T`/`dtype` and `_output_shapes`; the ops of a cond branch or loop body are listed under
their op's name (`StatelessWhile/body/add`), so TensorBoard draws them inside it. Several functions
are prefixed with their names.
"""
from __future__ import annotations

import threading
import warnings

from .._src.graph import listeners
from .._src.graph.view import sub_graphs
from . import messages
from .writer import state

_lock = threading.Lock()
_collected = None  # [(name, graph)] while tracing is on, else None


def _collect(graph, name):
    with _lock:
        if _collected is not None:
            _collected.append((name, graph))


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts collecting the graphs of functions traced from now on."""
    global _collected
    if profiler:
        warnings.warn("tf.summary.trace_on(profiler=True): eagerflow has no profiler; only graphs are collected",
                      stacklevel=2)
    with _lock:
        _collected = [] if graph else None
    if graph:
        listeners.add(_collect)


def trace_off():
    """Stops collecting and drops what was collected."""
    global _collected
    listeners.remove(_collect)
    with _lock:
        _collected = None


def trace_export(name, step=None, profiler_outdir=None):
    """Writes the collected graphs to the default writer (if any) and stops tracing."""
    with _lock:
        collected = list(_collected) if _collected is not None else None
    if collected is None:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    writer = state.writer
    step = state.step if step is None else step
    if writer is not None and step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    trace_off()
    if writer is None or not collected:
        return
    prefix = len(collected) > 1
    nodes = []
    for fn_name, graph in collected:
        nodes += graph_nodes(graph, f"{fn_name}/" if prefix else "")
    writer.write_event(_step_value(step), graph_def=messages.graph_def(nodes))


def graph(graph_data):
    """Writes a graph (a Graph, or a ConcreteFunction's) to the default writer as a GraphDef event;
    returns whether it was written."""
    graph_data = getattr(graph_data, "graph", graph_data)
    writer = state.writer
    if writer is None:
        return False
    return writer.write_event(_step_value(state.step or 0), graph_def=messages.graph_def(graph_nodes(graph_data)))


def _step_value(step) -> int:
    return int(step.numpy()) if hasattr(step, "numpy") else int(step)


def graph_nodes(graph, prefix="", names=None):
    """Serialized NodeDefs of `graph` and of its sub-graphs, names under `prefix`."""
    names = {} if names is None else names  # id(op) -> node name; lives for one export only
    for external, placeholder in graph.captures:
        outer = getattr(external, "op", None)
        if outer is not None and id(outer) in names:
            names[id(placeholder.op)] = names[id(outer)]  # a sub-graph's capture is its outer tensor
    out = []
    for op in graph.get_operations():
        if id(op) in names:
            continue
        node_name = prefix + op.name
        names[id(op)] = node_name
        inputs = [_ref(t, names) for t in op.inputs]
        attrs = {"_output_shapes": messages.attr_shapes([_dims(t.shape) for t in op.outputs])}
        if op.outputs:
            attrs["dtype" if op.type in ("Const", "Placeholder") else "T"] = messages.attr_type(op.outputs[0].dtype.name)
        out.append(messages.node_def(node_name, op.type, inputs, attrs))
        for attr, value in op.attrs.items():
            for sub in sub_graphs(value):
                out += graph_nodes(sub.graph, f"{node_name}/{attr}/", names)
    return out


def _ref(tensor, names):
    name = names.get(id(tensor.op), tensor.op.name)
    return name if tensor.value_index == 0 else f"{name}:{tensor.value_index}"


def _dims(shape):
    return None if shape.rank is None else [d for d in shape.as_list()]
