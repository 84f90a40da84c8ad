"""The converters run over one parsed function, in order: the tree-to-tree half of conversion.

Why its own module: the order of the converters is the one delicate piece of AutoGraph's design
(each converter leaves the tree in the shape the next one expects), and keeping it apart from the
parsing (`parse.py`) and the compiling and caching (`transform.py`) keeps that order in one place.
A nested `def` is converted as its own scope, innermost first, before the function holding it.
Pure standard library.
"""
from __future__ import annotations

import ast

from . import analysis
from .converters import asserts, break_continue, calls, conditionals, logical, loops, returns

# The order matters: calls first (appends become assignments the analysis sees), returns in loops
# before break/continue (they become breaks), and control flow last, on the annotated tree.
PIPELINE = (
    ("calls", calls.convert),
    ("asserts", asserts.convert),
    ("returns in loops", returns.convert),
    ("break and continue", break_continue.convert),
    ("returns in branches", returns.normalize),
    ("logical expressions", logical.convert),
)

# Names the converters generate; never branch outputs or loop variables.
RESERVED = frozenset({"ag__", "if_true", "if_false", "loop_test", "loop_body", "itr"})


class _ControlFlow(ast.NodeTransformer):
    """Bottom-up: inner statements are converted before the statement holding them."""

    def __init__(self, ctx, excluded):
        self.ctx, self.excluded = ctx, excluded

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_If(self, node):
        self.generic_visit(node)
        return conditionals.convert(node, self.ctx, self.excluded)

    def visit_While(self, node):
        self.generic_visit(node)
        return loops.convert(node, self.ctx, self.excluded)

    visit_For = visit_While


def convert_scope(func, ctx, pipeline=PIPELINE):
    """Every converter of `pipeline` over `func`'s own statements, then its control flow."""
    for stage, step in pipeline:
        step(func, ctx)
    for n in ast.walk(func):
        if isinstance(n, ast.Global):
            ctx.declared_global.update(n.names)
        elif isinstance(n, ast.Nonlocal):
            ctx.declared_nonlocal.update(n.names)
    excluded = set(RESERVED) | analysis.declared(func)
    analysis.annotate(func, excluded)
    t = _ControlFlow(ctx, excluded)
    body = []
    for s in func.body:
        r = t.visit(s)
        body += r if isinstance(r, list) else [r]
    func.body = body
    returns.guard_undefined(func)


def convert_tree(func, ctx):
    """`func` and every function defined inside it, innermost first (each as its own scope)."""
    for inner in _nested_first(func):
        convert_scope(inner, ctx)
    convert_scope(func, ctx)


def _nested_first(func):
    """Function definitions inside `func`, innermost first (each is converted as its own scope)."""
    out = []

    def visit(n, top):
        for child in ast.iter_child_nodes(n):
            visit(child, False)
        if isinstance(n, ast.FunctionDef) and not top:
            out.append(n)
    visit(func, True)
    return out


def reads_runtime(func):
    """Whether the converted tree calls the runtime (`ag__`): if not, conversion changed nothing."""
    return any(isinstance(n, ast.Name) and n.id == "ag__" for n in ast.walk(func))
