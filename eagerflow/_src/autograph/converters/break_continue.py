"""`break` and `continue` -> flags, so a loop body is straight-line code a loop op can run.

    for x in xs:               break_ = False
        if x > 3:              for x in xs:       # runs while `not break_` (for_stmt's extra_test)
            break                  if x > 3:
        total += x                     break_ = True
                                   if not break_:
                                       total += x

Statements after one that may set a flag are guarded by `if not flag:`. Each loop gets its own
flag names (`break_`, `break_1`, ...), since nested bodies share one Python scope. A loop with an
`else:` never gets here: as in TensorFlow, its function is left unconverted (parse.py).
"""
from __future__ import annotations

import ast

from .. import analysis
from ..templates import replace, replace_expr


class _Loops(ast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def _loop(self, node):
        self.generic_visit(node)  # inner loops first: their break/continue are theirs
        has_break = analysis.contains(node.body, (ast.Break,))
        has_continue = analysis.contains(node.body, (ast.Continue,))
        if not has_break and not has_continue:
            return node
        flags = {}
        if has_break:
            flags[ast.Break] = self.ctx.fresh("break_")
        if has_continue:
            flags[ast.Continue] = self.ctx.fresh("continue_")
        body = _guard(node.body, flags)
        if has_continue:
            body = replace("flag = False", at=node, flag=flags[ast.Continue]) + body
        node.body = body
        if not has_break:
            return node
        brk = flags[ast.Break]
        before = replace("flag = False", at=node, flag=brk)
        if isinstance(node, ast.While):
            node.test = replace_expr("not flag and test", at=node.test, flag=brk, test=node.test)
        else:
            node.ag_extra_test = replace_expr("ag__.not_(flag)", at=node, flag=brk)  # logical.py never sees it
        return before + [node]

    visit_For = visit_While = _loop


def _guard(stmts, flags):
    """The statements with `break`/`continue` (of this loop) turned into flag assignments."""
    out = []
    for i, stmt in enumerate(stmts):
        kind = type(stmt)
        if kind in flags:
            out += replace("flag = True", at=stmt, flag=flags[kind])
            return out  # the rest of the block is unreachable
        inside = [k for k in flags if analysis.contains([stmt], (k,))]
        if not inside:
            out.append(stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            if isinstance(stmt, (ast.For, ast.While)) and field == "body":
                continue
            block = getattr(stmt, field, None)
            if block:
                setattr(stmt, field, _guard(block, flags))
        for handler in getattr(stmt, "handlers", []):
            handler.body = _guard(handler.body, flags)
        out.append(stmt)
        rest = stmts[i + 1:]
        if rest:
            names = [flags[k] for k in inside]
            test = " or ".join(names)
            out += replace(f"if not ({test}):\n    rest", at=rest[0], rest=_guard(rest, flags))
        return out
    return out


def convert(func, ctx):
    t = _Loops(ctx)
    new = []
    for s in func.body:
        r = t.visit(s)
        new += r if isinstance(r, list) else [r]
    func.body = new
