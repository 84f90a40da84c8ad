"""`tf.control_dependencies`, `tf.no_op`, `tf.group`, `tf.tuple`, `tf.timestamp` and
`tf.inside_function`.

In a graph being traced, `control_dependencies(deps)` makes every op created inside the block a
dependant of the ops behind `deps` (Operation.control_inputs): pruning then keeps those ops
whenever a dependant runs, and they come earlier in program order, so they run first. Eagerly
everything already ran in order: the block does nothing, as in TensorFlow. `no_op`/`group` give,
in a graph, a ControlGroup (TensorFlow's NoOp stand-in) that control_dependencies accepts.
"""
from __future__ import annotations

import builtins
import contextlib
import time

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.shape import TensorShape
from ..registry import NO_GRADIENT, Spec, bind, defop


class ControlGroup:
    """What tf.no_op / tf.group return in a graph: a handle on the ops that must run (type NoOp)."""

    __slots__ = ("graph", "control_inputs", "name")
    type = "NoOp"

    def __init__(self, graph, ops, name=None):
        self.graph, self.control_inputs, self.name = graph, list(ops), name or "NoOp"

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type=NoOp>"


def _ops_of(items, graph):
    ops = []
    for item in items:
        if item is None:
            continue
        if isinstance(item, ControlGroup):
            ops.extend(item.control_inputs)
            continue
        op = getattr(item, "op", None) if getattr(item, "is_symbolic", False) else None
        if op is None and hasattr(item, "control_inputs") and hasattr(item, "opdef"):
            op = item  # an Operation
        if op is not None and getattr(op, "graph", None) is graph:
            ops.append(op)
    return ops


@contextlib.contextmanager
def _depending_on(graph, deps):
    start = len(graph.get_operations())
    try:
        yield
    finally:
        for op in graph.get_operations()[start:]:
            for dep in deps:
                if dep is not op and dep not in op.control_inputs:
                    op.control_inputs.append(dep)


class _NullContext:
    """The eager block: enters and leaves, swallowing nothing (TensorFlow's NullContextmanager)."""

    def __enter__(self):
        return None

    def __exit__(self, *exc_info):
        return False


def control_dependencies(control_inputs):
    """`tf.control_dependencies`: ops created in the block run after `control_inputs` (tensors,
    operations, groups). Eagerly a context that does nothing."""
    graph = state.graph
    if graph is None or control_inputs is None:
        return _NullContext()
    if callable(control_inputs) and not hasattr(control_inputs, "__iter__"):
        return _NullContext()  # TensorFlow: a function is called eagerly; in a graph it waits
    return _depending_on(graph, _ops_of(list(control_inputs), graph))


def no_op(name=None):
    """`tf.no_op`: nothing; None eagerly, a NoOp handle in a graph."""
    graph = state.graph
    return None if graph is None else ControlGroup(graph, [], name)


def group(*inputs, **kwargs):
    """`tf.group`: one handle that depends on all of `inputs` (None eagerly)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Unknown keyword arguments: {list(kwargs)}")
    graph = state.graph
    if graph is None:
        return None
    flat = []
    for item in inputs:
        flat.extend(item if isinstance(item, (list, builtins.tuple)) else [item])
    return ControlGroup(graph, _ops_of(flat, graph), name)


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001 - TensorFlow's name
    """`tf.tuple`: the tensors, each passed on only after all of them (and `control_inputs`) are
    computed; eagerly they are all computed already."""
    from ..array.basic import identity
    tensors = list(tensors)
    if state.graph is None:
        return tensors
    deps = [t for t in tensors if t is not None] + list(control_inputs or [])
    with control_dependencies(deps):
        return [None if t is None else identity(t) for t in tensors]


Timestamp = defop("Timestamp", inputs=(), kernel=lambda: np.float64(time.time()), stateful=True, grad=NO_GRADIENT,
                  infer=lambda inputs, attrs: [Spec(TensorShape([]), _dt.float64)],
                  doc="Seconds since the epoch when the op runs (float64).")


def timestamp(name=None):
    """`tf.timestamp`: the time the op runs, in seconds since the epoch; inside tf.function it is
    read on every call (a stateful op, never folded)."""
    return bind(Timestamp, (), name=name)


def inside_function():
    """`tf.inside_function`: True while a function is being traced into a graph."""
    return state.graph is not None
