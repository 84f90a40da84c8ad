"""Branches and loop bodies: Python callables traced into sub-graphs and compiled.

A Branch is a sub-graph (with the graph it was traced in as `outer`), its flat outputs, and its
generated code. The generated function takes the branch's explicit inputs (loop variables; none
for a cond branch) followed by the values of what it captured, in capture order; the op that runs
it passes those captured values as its own inputs, so the enclosing graph sees every dependency.
"""
from __future__ import annotations

from ..codegen import program as _program
from ..core import nest
from ..core.context import graph_scope, state
from ..core.convert import convert_to_tensor
from ..core.tensor import Tensor


class Branch:
    """A traced sub-graph and its Executable (codegen/program.py); constructing one never compiles
    (`Branch.from_graph` compiles, then constructs).

    A variant returning intermediates too (`with_intermediates`) shares its base's graph, live ops,
    and where its captures sit (`index`, set on the base by `bind_externals`)."""

    def __init__(self, graph, explicit, structure, name, executable, intermediates=(), base=None):
        self.graph = graph
        self.name = name
        self.explicit = explicit  # the placeholders for explicit inputs (loop variables)
        self.executable = executable
        self.outputs = executable.outputs  # flat symbolic outputs (a variant's: then its intermediates)
        self.structure = structure  # the Python structure the callable returned (tensors inside)
        self.externals = graph.external_captures  # outer tensors, in capture order
        self._base = base
        self.operations = _live_operations(graph, self.outputs) if base is None else base.operations
        self.fn = executable.fn
        self._index = None  # positions of self.externals among the op's external inputs
        self.intermediates = list(intermediates)
        self._full = {}  # which intermediates are kept (None: all) -> Branch returning them
        # Positions (among all intermediates) the loop gradient reads, once it has been built:
        # generated code then keeps only those per iteration.
        self.kept_for_gradient = None if base is None else base.kept_for_gradient

    @classmethod
    def from_graph(cls, graph, explicit, outputs, structure, name):
        """Compiles `graph` computing `outputs` (compile_program; its captured values are arguments
        after the explicit inputs, so no captures are bound) and wraps it."""
        return cls(graph, explicit, structure, name, _program.compile_program(graph, outputs, {}, name=name))

    @property
    def program(self):
        """The graph after the passes: also what the enclosing function's generated code inlines."""
        return self.executable.program

    @property
    def generated(self):
        return self.executable.generated

    @property
    def index(self):
        return self._index if self._base is None else self._base.index

    def with_intermediates(self, keep=None) -> "Branch":
        """This branch also returning, after its outputs, the values it computes (all of them, or
        the positions `keep` among them): what a loop keeps per iteration, and a cond for its taken
        branch, when a gradient will be taken, so the backward never recomputes."""
        if self._base is not None:
            return self._base.with_intermediates(keep)
        key = None if keep is None else tuple(keep)
        if key not in self._full:
            every = [t for op in self.operations if op.type not in ("Placeholder", "Const")
                     for t in op.outputs if t.dtype.name != "resource"]
            extra = every if key is None else [every[i] for i in key]
            name = self.name + "_with_intermediates"
            # recording: control flow nested in this branch keeps what its own gradient reads
            executable = _program.compile_program(self.graph, list(self.outputs) + extra, {}, name=name,
                                                  options=_program.RECORDING)
            self._full[key] = Branch(self.graph, self.explicit, self.structure, self.name, executable,
                                     intermediates=every, base=self)
        return self._full[key]

    def get_operations(self):
        """The graph's ops that the outputs or side effects need, in program order: what a
        gradient replays as records, and (with their outputs) the values a kept variant may hold.
        A dead op is never computed, so nothing may read it as a kept value."""
        return list(self.operations)

    def bind_externals(self, all_externals):
        """Records where each of this branch's captured values sits among the op's inputs."""
        positions = {id(t): i for i, t in enumerate(all_externals)}
        self._index = [positions[id(t)] for t in self.externals]

    def run(self, explicit_values, external_values):
        return self.fn(*explicit_values, *[external_values[i] for i in self.index])

    @property
    def code(self) -> str:
        return self.generated.source

    def __repr__(self):
        return f"<Branch {self.name}: {len(self.graph.get_operations())} ops>"


def _live_operations(graph, outputs):
    """`graph`'s ops reachable from `outputs` or from a stateful op (prune's rule, on the graph as
    traced), in program order."""
    ops = graph.get_operations()
    needed = set()
    stack = [t._op for t in outputs if t._op.graph is graph] + [op for op in ops if op.opdef.stateful]
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed.add(id(op))
        stack.extend(t._op for t in op.inputs if t._op.graph is graph)
        stack.extend(op.control_inputs)
    return [op for op in ops if id(op) in needed]


def share_externals(*branches):
    """The outer values the branches capture, each once, in first-capture order (the control-flow
    op's inputs after its own), with every branch told where its captures sit; and whether any
    branch has side effects or reads a variable (the op is then the stateful variant)."""
    externals, seen = [], set()
    for branch in branches:
        for t in branch.externals:
            if id(t) not in seen:
                seen.add(id(t))
                externals.append(t)
    for branch in branches:
        branch.bind_externals(externals)
    # As in TensorFlow, reading a variable makes a branch or body stateful (If/While, not the
    # Stateless* ops): its value depends on when the op runs, so no pass may merge or move it.
    stateful = any(op.opdef.stateful or op.type == "ReadVariableOp"
                   for b in branches for op in b.graph.get_operations())
    return externals, stateful


def trace(fn, specs, name, convert_outputs=True):
    """Traces `fn(*placeholders)` into a sub-graph of the current graph (or of none, eagerly).

    `specs` are TensorSpec-likes for the explicit inputs. Returns a Branch."""
    from ..graph.graph import Graph
    from ..ops.array.basic import identity
    graph = Graph(name, outer=state.graph if state.graph is not None else _EAGER_OUTER)
    saved_tapes = state.tapes
    state.tapes = []  # the sub-graph's own ops are not the outer tapes' business
    try:
        with graph_scope(graph):
            explicit = [graph.placeholder(s.dtype, s.shape, f"{name}_input_{i}", getattr(s, "variable_spec", None))
                        for i, s in enumerate(specs)]
            result = fn(*explicit)
            flat = nest.flatten(result, expand_composites=True)
            outputs = []
            for value in flat:
                if value is None:
                    raise ValueError(f"{name} returned None; every branch output must be a tensor")
                t = value if isinstance(value, Tensor) else convert_to_tensor(value)
                # An outer tensor (or an input) returned as is passes through an Identity of the branch.
                outputs.append(t if _belongs(t, graph) and t._op.type != "Placeholder" else identity(t))
    finally:
        state.tapes = saved_tapes
    _watch_captured_variables(graph, saved_tapes)
    graph.outputs = outputs
    graph.finalize_names()
    return Branch.from_graph(graph, explicit, outputs, result, name)


def _watch_captured_variables(graph, tapes):
    """A branch or body reading a trainable variable accesses it for the tapes outside (they were
    hidden while it was traced), as if the read happened where the control-flow op is."""
    if not tapes:
        return
    for external in graph.external_captures:
        var = _variable_behind(external)
        if var is not None and var.trainable:
            for tape in tapes:
                if tape.recording:
                    tape._watch_variable(var)


def _variable_behind(handle):
    """The Variable a resource handle refers to, following captures out of enclosing graphs."""
    from ..core import dtypes as _dt
    if handle.dtype is not _dt.resource:
        return None
    from ..state.variables import variable_of
    var = variable_of(handle)  # an eager handle, or a traced function's Variable-argument placeholder
    if var is not None:
        return var
    graph = getattr(getattr(handle, "_op", None), "graph", None)
    while graph is not None:
        for external, internal in graph.captures:
            if internal is handle:
                return _variable_behind(external)
        graph = getattr(graph, "outer", None) if not isinstance(getattr(graph, "outer", None), _EagerOuter) else None
    return None


def _belongs(t, graph):
    op = getattr(t, "_op", None)
    return op is not None and op.graph is graph


class _EagerOuter:
    """Stands for "no enclosing graph": a branch traced eagerly may still capture eager tensors."""


_EAGER_OUTER = _EagerOuter()
