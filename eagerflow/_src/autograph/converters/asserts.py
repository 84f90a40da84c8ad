"""`assert test, msg` -> `ag__.assert_(test, msg)`: on a tensor, a tf.debugging.Assert in the graph
(checked when the function runs); on a Python value, Python's own assert (checked while tracing).
A message that is not a literal is wrapped in a lambda: Python evaluates it only on failure.

Beyond TensorFlow on purpose: TF 2.21 converts `assert` only when asked
(`experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS`) and by
default raises OperatorNotAllowedInGraphError on a tensor test; here it is always the run-time
check, since that is what the statement means."""
from __future__ import annotations

import ast

from ..templates import replace


class _Asserts(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_Assert(self, node):
        if node.msg is None:
            return replace("ag__.assert_(test)", at=node, test=node.test)
        if isinstance(node.msg, ast.Constant):
            return replace("ag__.assert_(test, msg)", at=node, test=node.test, msg=node.msg)
        return replace("ag__.assert_(test, lambda: msg)", at=node, test=node.test, msg=node.msg)


def convert(func, ctx):
    t = _Asserts()
    func.body = [r for s in func.body for r in (lambda x: x if isinstance(x, list) else [x])(t.visit(s))]
