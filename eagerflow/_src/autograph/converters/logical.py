"""`a and b`, `a or b`, `not a`, `x if c else y` -> calls that pick tensor ops or Python at run time.

The right operand of `and`/`or` and both arms of a conditional expression become lambdas, so
Python operands keep Python's short-circuit evaluation (`x is not None and x > 0` still works)."""
from __future__ import annotations

import ast

from ..templates import replace_expr


class _Logical(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        fn = "ag__.and_" if isinstance(node.op, ast.And) else "ag__.or_"
        result = node.values[-1]
        for left in reversed(node.values[:-1]):
            result = replace_expr(f"{fn}(a, lambda: b)", at=node, a=left, b=result)
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return replace_expr("ag__.not_(a)", at=node, a=node.operand)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return replace_expr("ag__.if_exp(c, lambda: a, lambda: b)", at=node, c=node.test, a=node.body,
                            b=node.orelse)


def convert(func, ctx):
    t = _Logical()
    func.body = [t.visit(s) for s in func.body]
