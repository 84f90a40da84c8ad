"""Attributes and constant subscripts (`self.total`, `xs[0]`, `d["k"]`) assigned in a tensor loop
or branch are state, as local names are (TensorFlow carries them too). Each gets a plain local
name (`ag_comp_`, ...) that flows through the generated functions like any loop variable:

    o.v += x                        ag_comp_ = ag__.get_composite(lambda: o.v, 'o.v')
                                    def loop_body(ag_comp_):
                                        if not ag__.is_undefined(ag_comp_): o.v = ag_comp_
                                        o.v += x
                                        ag_comp_ = ag__.get_composite(lambda: o.v, 'o.v')
                                        return (ag_comp_,)
                                    ag_comp_, = ag__.for_stmt(...)
                                    if not ag__.is_undefined(ag_comp_): o.v = ag_comp_

Without this, the object would keep a tensor of the loop body's (or branch's) graph after the
loop, and the first read of it would fail (a tensor of another graph)."""
from __future__ import annotations

import ast
import copy

from .. import analysis


class Composite:
    def __init__(self, label, var, expr):
        self.label, self.var, self.expr = label, var, expr


def plan(stmts, ctx, rebound=()):
    return [Composite(text, ctx.fresh(analysis.COMPOSITE_PREFIX), expr)
            for text, expr in analysis.composite_stores(stmts, rebound)]


def _located(nodes, at):
    for stmt in nodes:
        for n in ast.walk(stmt):
            if "lineno" in n._attributes:
                ast.copy_location(n, at)
    return nodes


def _with_ctx(expr, ctx):
    expr = copy.deepcopy(expr)
    expr.ctx = ctx()
    return expr


def read(comps, at):
    """`var = ag__.get_composite(lambda: expr, label)` for each (Undefined if it has no value)."""
    out = []
    for c in comps:
        call = ast.Call(
            func=ast.Attribute(value=ast.Name(id="ag__", ctx=ast.Load()), attr="get_composite", ctx=ast.Load()),
            args=[ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                             body=_with_ctx(c.expr, ast.Load)), ast.Constant(c.label)],
            keywords=[])
        out.append(ast.Assign(targets=[ast.Name(id=c.var, ctx=ast.Store())], value=call))
    return _located(out, at)


def write(comps, at):
    """`if not ag__.is_undefined(var): expr = var` for each, else `ag__.forget_composite(...)`:
    an attribute or item with no value before the `if` is removed again at the start of each
    branch, so the else branch does not see what the main branch set on the shared object (and
    TensorFlow's "'b.v' must also be initialized in the else branch" can be said)."""
    out = []
    for c in comps:
        test = ast.UnaryOp(op=ast.Not(), operand=ast.Call(
            func=ast.Attribute(value=ast.Name(id="ag__", ctx=ast.Load()), attr="is_undefined", ctx=ast.Load()),
            args=[ast.Name(id=c.var, ctx=ast.Load())], keywords=[]))
        assign = ast.Assign(targets=[_with_ctx(c.expr, ast.Store)], value=ast.Name(id=c.var, ctx=ast.Load()))
        forget = ast.Expr(ast.Call(
            func=ast.Attribute(value=ast.Name(id="ag__", ctx=ast.Load()), attr="forget_composite", ctx=ast.Load()),
            args=[ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                             body=_remover(c.expr))], keywords=[]))
        out.append(ast.If(test=test, body=[assign], orelse=[forget]))
    return _located(out, at)


def _remover(expr):
    """`delattr(obj, 'v')` for `obj.v`, `xs.__delitem__(k)` for `xs[k]` (a `del` as an expression)."""
    if isinstance(expr, ast.Attribute):
        return ast.Call(func=ast.Name(id="delattr", ctx=ast.Load()),
                        args=[_with_ctx(expr.value, ast.Load), ast.Constant(expr.attr)], keywords=[])
    return ast.Call(func=ast.Attribute(value=_with_ctx(expr.value, ast.Load), attr="__delitem__", ctx=ast.Load()),
                    args=[copy.deepcopy(expr.slice)], keywords=[])
