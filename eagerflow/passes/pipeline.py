"""Graph -> Program: the passes that run before code generation, in order, top to bottom.

A Program is a view of a graph: an ordered op list, the output tensors, and a substitution map
(`subst[id(tensor)] = replacement`) that passes extend instead of rewriting the graph, so the
user-visible graph (`concrete_function.graph`) stays exactly what was traced.
"""
from __future__ import annotations

import dataclasses

from .cse import eliminate_common_subexpressions
from .fold import fold_constants
from .prune import prune
from .simplify import forward_identities


@dataclasses.dataclass
class Program:
    ops: list
    inputs: list
    outputs: list
    subst: dict = dataclasses.field(default_factory=dict)

    def resolve(self, tensor):
        """The tensor that stands for `tensor` after substitutions."""
        seen = 0
        while id(tensor) in self.subst and seen < 10_000:
            tensor = self.subst[id(tensor)]
            seen += 1
        return tensor


PASSES = (
    ("forward identities", forward_identities),
    ("fold constants", fold_constants),
    ("eliminate common subexpressions", eliminate_common_subexpressions),
    ("prune", prune),
)


def optimize(graph) -> Program:
    program = Program(ops=list(graph.get_operations()), inputs=list(graph.inputs), outputs=list(graph.outputs))
    for _name, run in PASSES:
        run(program)
    return program
