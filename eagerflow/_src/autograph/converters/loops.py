"""`while` and `for` -> `ag__.while_stmt` / `ag__.for_stmt`: Python loops or tf.while_loop at trace time.

    while n > 0:                 def loop_test(n, s):
        n -= 1                       return n > 0
        s += n                   def loop_body(n, s):
                                     n -= 1
                                     s += n
                                     return (n, s)
                                 n, s = ag__.while_stmt(loop_test, loop_body, (n, s), ('n', 's'))

Loop variables are the names the body assigns that are read in the loop or live after it. A
`for` body takes the iterate first. `tf.autograph.experimental.set_loop_options(...)` at the top
of a body is lifted out and passed as `opts=` (evaluated before the loop, as in TensorFlow).
"""
from __future__ import annotations

import ast

from .. import analysis
from . import composites
from ..templates import replace, replace_expr


def _lift_options(body):
    """The loop's set_loop_options call (as an `ag__.loop_options` expression), and the body without it."""
    opts, rest = None, []
    for stmt in body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "set_loop_options"):
            opts = replace_expr("ag__.loop_options()", at=stmt)
            opts.keywords = call.keywords
            continue
        rest.append(stmt)
    return opts, rest


def convert(node, ctx, excluded):
    if not hasattr(node, "ag_live_out"):
        ctx.skip(node, "this loop is inside a try/with block; it stays a Python loop")
        return node
    if analysis.contains(node.body, (ast.Return,)):
        ctx.skip(node, "a `return` inside this loop could not be converted; it stays a Python loop")
        return node
    comps = composites.plan(node.body, ctx, analysis.stores(node.target) if isinstance(node, ast.For) else ())
    user_vars = analysis.loop_vars(node, excluded)
    loop_vars = user_vars + [c.var for c in comps]
    out = ctx.undefined_inits(user_vars, node) + composites.read(comps, node)
    opts, body = _lift_options(node.body)
    restore = composites.write(comps, node)  # the body and test see the loop's current values
    ret = composites.read(comps, node) + replace("return LOOP_VARS__", at=node, LOOP_VARS__=loop_vars)
    names = repr(tuple(user_vars + [c.label for c in comps]))
    init = f"({', '.join(loop_vars)},)" if loop_vars else "()"
    extra = ""
    if isinstance(node, ast.While):
        out += ctx.function("loop_test", loop_vars, restore + replace("return TEST__", at=node, TEST__=node.test),
                            node)
        out += ctx.function("loop_body", loop_vars, restore + body + ret, node)
        call = f"ag__.while_stmt(loop_test, loop_body, {init}, {names}"
    else:
        target = node.target
        if isinstance(target, ast.Name) and target.id not in loop_vars:
            first, prologue = target.id, []
        else:
            first = "itr"
            prologue = [ast.copy_location(ast.Assign(targets=[target], value=ast.Name(id="itr", ctx=ast.Load())),
                                          node)]
        if getattr(node, "ag_extra_test", None) is not None:
            out += ctx.function("loop_test", loop_vars, [ast.copy_location(ast.Return(node.ag_extra_test), node)],
                                node)
            extra = ", extra_test=loop_test"
        out += ctx.function("loop_body", [first] + loop_vars, prologue + restore + body + ret, node)
        call = f"ag__.for_stmt(ITERABLE__, loop_body, {init}, {names}{extra}"
    appended = _appended(body, loop_vars)
    if appended:
        call += f", lists={tuple(appended)!r}"
    call += ", opts=OPTS__)" if opts is not None else ")"
    fill = {"OPTS__": opts} if opts is not None else {}
    if isinstance(node, ast.For):
        fill["ITERABLE__"] = node.iter
    if loop_vars:
        out += replace(f"LOOP_VARS__ = {call}", at=node, LOOP_VARS__=loop_vars, **fill)
    else:
        out += replace(call, at=node, **fill)
    return out + composites.write(comps, node)  # no `else:` here (parse.py refuses it)


def _appended(body, loop_vars):
    """Loop variables the body appends to (`xs = ag__.list_append(xs, v)`, from calls.py, at any
    depth): only those lists are carried stacked, as one growing tensor."""
    out = []
    for n in ast.walk(ast.Module(body=body, type_ignores=[])):
        if (isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)
                and n.value.func.attr == "list_append" and isinstance(n.value.func.value, ast.Name)
                and n.value.func.value.id == "ag__"):
            for t in n.targets:
                if isinstance(t, ast.Name) and t.id in loop_vars and t.id not in out:
                    out.append(t.id)
    return out
