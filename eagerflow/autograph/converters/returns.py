"""`return` inside branches and loops, reshaped so each converted `if` either returns on every
path or not at all.

1. A `return` inside a loop sets `retval_` and `do_return`, then breaks; after the loop,
   `if do_return: return retval_` (break_continue.py then turns the `break` into a flag).
2. In a block, an `if` holding a `return` takes the statements after it into the branches that
   can fall through (guard clauses read as `if c: return a` / `else: <rest>`); at the end of the
   function a branch that still falls through gets `return None`. Such an `if` is marked
   `ag_returns`, and conditionals.py turns it into `return ag__.if_stmt(...)`, so for a tensor
   condition both branches must return values of the same structure and dtypes (TF's rule).
"""
from __future__ import annotations

import ast
import copy

from .. import analysis
from ..templates import replace


class _LoopReturns(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def _loop(self, node):
        self.generic_visit(node)
        if not analysis.contains(node.body, (ast.Return,)):
            return node
        node.body = [_ReturnToBreak().visit(s) for s in node.body]
        node.body = [x for s in node.body for x in (s if isinstance(s, list) else [s])]
        before = replace("do_return = False\nretval_ = None", at=node)
        after = replace("if do_return:\n    return retval_", at=node)
        return before + [node] + after

    visit_For = visit_While = _loop


class _ReturnToBreak(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_For(self, node):  # inner loops were handled already (their returns are gone)
        return node

    visit_While = visit_For

    def visit_Return(self, node):
        value = node.value if node.value is not None else ast.Constant(None)
        return replace("retval_ = VALUE__\ndo_return = True\nbreak", at=node, VALUE__=value)


def _normalize(stmts, at_end):
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.If) and analysis.contains([stmt], (ast.Return,)):
            rest = stmts[i + 1:]
            for field in ("body", "orelse"):
                block = getattr(stmt, field)
                if not analysis.always_returns(block):
                    block = block + copy.deepcopy(rest)
                block = _normalize(block, at_end)
                if at_end and not analysis.always_returns(block):
                    block = block + replace("return None", at=stmt)
                setattr(stmt, field, block)
            stmt.ag_returns = at_end
            return stmts[:i] + [stmt]
    return stmts


def convert(func, ctx):
    t = _LoopReturns()
    body = []
    for s in func.body:
        r = t.visit(s)
        body += r if isinstance(r, list) else [r]
    func.body = body


def normalize(func, ctx):
    func.body = _normalize(func.body, True)
