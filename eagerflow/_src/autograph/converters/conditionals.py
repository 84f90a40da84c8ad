"""`if` statements -> `ag__.if_stmt`, which runs Python's `if` or binds tf.cond at trace time.

    if x > 0:                    def if_true():
        y = x * 2                    y = x * 2
    else:                            return (y,)
        y = -x                   def if_false():
                                     y = -x
                                     return (y,)
                                 y, = ag__.if_stmt(x > 0, if_true, if_false, ('y',))

Outputs are the names a branch assigns that are live after the `if`; names whose incoming
value a branch reads become parameters (passed as `inputs`). An `if` whose branches `return`
(returns.py made every path end in one) becomes `return ag__.if_stmt(..., None)`.
"""
from __future__ import annotations

import ast

from .. import analysis
from . import composites
from ..templates import replace


def convert(node, ctx, excluded):
    if not hasattr(node, "ag_live_out"):
        ctx.skip(node, "this `if` is inside a try/with block; it stays a Python `if`")
        return node
    returning = getattr(node, "ag_returns", False)
    if not returning and analysis.contains(node.body + node.orelse, (ast.Return,)):
        ctx.skip(node, "a `return` here could not be moved to the end of the function; it stays a Python `if`")
        return node
    state = analysis.state_names(node, excluded)
    comps = [] if returning else composites.plan(node.body + node.orelse, ctx)
    params = [n for n in state if n in node.ag_body_live_in]
    outputs = [] if returning else [n for n in state if n in node.ag_live_out]
    out = ctx.undefined_inits(list(dict.fromkeys(params + outputs)), node) + composites.read(comps, node)
    params += [c.var for c in comps]
    labels = outputs + [c.label for c in comps]
    outputs += [c.var for c in comps]
    ret = [] if returning else (composites.read(comps, node) +
                                replace("return OUTPUTS__", at=node, OUTPUTS__=outputs))
    restore = composites.write(comps, node)  # each branch starts from the values before the `if`
    for fname, block in (("if_true", node.body), ("if_false", node.orelse)):
        out += ctx.function(fname, params, restore + block + ret, node)
    inputs = f", ({', '.join(params)},)" if params else ""
    call = f"ag__.if_stmt(TEST__, if_true, if_false, {'None' if returning else repr(tuple(labels))}{inputs})"
    if returning and getattr(node, "ag_returns_top", False):  # a branch may fall off the end
        out += replace(f"return ag__.function_return({call})", at=node, TEST__=node.test)
    elif returning:
        out += replace(f"return {call}", at=node, TEST__=node.test)
    elif outputs:
        out += replace(f"OUTPUTS__ = {call}", at=node, TEST__=node.test, OUTPUTS__=outputs)
    else:
        out += replace(call, at=node, TEST__=node.test)
    return out + composites.write(comps, node)
