"""Graph -> Program: the passes that run before code generation, in order, top to bottom.

A Program is a view of a graph: an ordered op list, the output tensors, and a substitution map
(`subst[id(tensor)] = replacement`) that passes extend instead of rewriting the graph, so the
user-visible graph (`concrete_function.graph`) stays exactly what was traced.

Debug mode: with `EAGERFLOW_VERIFY=1` in the environment (or `pipeline.VERIFY = True`), the graph
is checked before the first pass and the program after every pass (graph/verify.py), so a broken
invariant is reported by the pass that broke it rather than by the generated code.
"""
from __future__ import annotations

import os

from .cse import eliminate_common_subexpressions
from .fold import fold_constants
from .index import simplify_scalar_index
from .prune import prune
from .reshapes import simplify_reshapes
from .simplify import forward_identities
from .strength import reduce_strength

VERIFY = os.environ.get("EAGERFLOW_VERIFY", "") not in ("", "0")


class Program:
    """`ops` in run order, `inputs` and `outputs` (graph tensors), `subst` (id(tensor) -> its
    replacement) and `replaced`: id(new op) -> the graph op it stands for, where a pass swapped an
    op for simpler ones (passes/index.py, passes/strength.py); the verifier checks the new op where
    the old one was. (A plain class: `dataclasses` would be imported on the first traced call.)"""

    __slots__ = ("ops", "inputs", "outputs", "subst", "replaced")

    def __init__(self, ops, inputs, outputs, subst=None, replaced=None):
        self.ops = ops
        self.inputs = inputs
        self.outputs = outputs
        self.subst = {} if subst is None else subst
        self.replaced = {} if replaced is None else replaced

    def __repr__(self):
        return f"<Program of {len(self.ops)} ops, {len(self.subst)} substitutions>"

    def replace(self, position, new_op):
        """Puts `new_op` in place of the op at `position`; its outputs stand for the old op's."""
        old = self.ops[position]
        self.ops[position] = new_op
        self.replaced[id(new_op)] = old
        for mine, theirs in zip(old.outputs, new_op.outputs):
            self.subst[id(mine)] = theirs

    def resolve(self, tensor):
        """The tensor that stands for `tensor` after substitutions."""
        seen = 0
        while id(tensor) in self.subst and seen < 10_000:
            tensor = self.subst[id(tensor)]
            seen += 1
        return tensor

    def as_text(self) -> str:
        from ..graph.printer import program_as_text
        return program_as_text(self)


PASSES = (
    ("forward identities", forward_identities),
    ("fold constants", fold_constants),
    ("reduce strength", reduce_strength),
    ("simplify scalar indexing", simplify_scalar_index),
    ("simplify reshapes", simplify_reshapes),
    ("eliminate common subexpressions", eliminate_common_subexpressions),
    ("prune", prune),
)


def program_of(graph, outputs=None) -> Program:
    """The unoptimized Program of a graph computing `outputs` (default: the graph's own): all its
    ops, no substitutions."""
    return Program(ops=list(graph.get_operations()), inputs=list(graph.inputs),
                   outputs=list(graph.outputs if outputs is None else outputs))


def optimize(graph, passes=None, *, outputs=None) -> Program:
    """Runs `passes` (default: PASSES, in order) on a fresh Program view of `graph` computing
    `outputs` (default: the graph's own outputs; a traced function's gradient variant asks for
    those plus intermediates, of the same graph)."""
    program = program_of(graph, outputs)
    verify = VERIFY
    if verify:
        from ..graph.verify import verify_graph, verify_program
        wanted = list(program.outputs)  # the passes may replace the program's list; the graph's stays
        verify_graph(graph, outputs=wanted)
    for name, run in PASSES if passes is None else passes:
        run(program)
        if verify:
            verify_program(program, graph, after=name, outputs=wanted)
    return program
