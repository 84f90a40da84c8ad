"""Code templates: a converter writes the Python it produces, with placeholders, and `replace` fills them.

    replace('''
        def body_name(params):
            body
            return outputs
        ''', body_name="if_true", params=["x", "y"], body=stmts, outputs=["x", "y"])

A placeholder is a bare name in the template. It is replaced by:
- a str: a name (in a def's name, an argument list, a Name node, a Store target);
- a list of str in an argument list: that many parameters; in an expression: a tuple of names;
- an AST expression: that expression; a list of statements: those statements (for a statement
  that is just the placeholder).
Every node the template itself produces takes the source location of `at`, so errors map to the user's line;
what fills a placeholder keeps its own.
"""
from __future__ import annotations

import ast
import copy
import textwrap

from . import ast_guard


def _names_tuple(names, ctx):
    return ast.Tuple(elts=[ast.Name(id=n, ctx=ctx()) for n in names], ctx=ctx())


class _Filler(ast.NodeTransformer):
    def __init__(self, repl):
        self.repl = repl

    def visit_FunctionDef(self, node):
        if node.name in self.repl:
            node.name = self.repl[node.name]
        args = []
        for a in node.args.args:
            value = self.repl.get(a.arg, a.arg)
            for n in ([value] if isinstance(value, str) else value):
                args.append(ast.arg(arg=n))
        node.args.args = args
        self.generic_visit(node)
        return node

    def visit_Expr(self, node):
        if isinstance(node.value, ast.Name) and node.value.id in self.repl:
            value = self.repl[node.value.id]
            if isinstance(value, list) and (not value or isinstance(value[0], ast.stmt)):
                return _placed(copy.deepcopy(value)) if value else [ast.Pass()]
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if node.id not in self.repl:
            return node
        value = self.repl[node.id]
        if isinstance(value, str):
            return ast.Name(id=value, ctx=node.ctx)
        if isinstance(value, list):
            return _names_tuple(value, type(node.ctx))
        return _placed(copy.deepcopy(value))


def _placed(value):
    """Marks nodes filled into a template: they keep the location they have (a converted `if` inside a loop
    body stays at the `if`'s line, not the loop's)."""
    for item in value if isinstance(value, list) else [value]:
        for n in ast.walk(item):
            n.ag_placed = True
    return value


def replace(template, at=None, **repl):
    """The statements of `template` with the placeholders filled (see the module docstring)."""
    tree = ast_guard.parse(textwrap.dedent(template))
    tree = _Filler(repl).visit(tree)
    out = tree.body
    if at is not None:
        end = _header_end(at)
        for stmt in out:
            for n in ast.walk(stmt):  # template nodes take the user's line; user nodes keep theirs
                if "lineno" in n._attributes and not getattr(n, "ag_user", False) and not (
                        getattr(n, "ag_placed", False) and hasattr(n, "lineno")):
                    ast.copy_location(n, at)
                    n.end_lineno, n.end_col_offset = end
    return out


def _header_end(at):
    """Where the first line of statement `at` ends (`if x > 0`, `for i in tf.range(n)`).

    Generated code spans only that line: CPython reports a call `ag__.if_stmt(...)` at the line
    its attribute ends on, so spanning the whole block would name the block's last line in
    tracebacks instead of the user's `if`/`for`/`while`."""
    head = getattr(at, "test", None) or getattr(at, "iter", None)
    if isinstance(at, (ast.If, ast.While, ast.For)) and head is not None:
        return head.end_lineno, head.end_col_offset
    if getattr(at, "end_lineno", None) == at.lineno:
        return at.end_lineno, at.end_col_offset
    return at.lineno, at.col_offset


def replace_expr(template, at=None, **repl):
    stmt = replace(template, at, **repl)[0]
    return stmt.value


def mark_user(tree):
    """Marks every node of the user's tree so template filling keeps its locations."""
    for n in ast.walk(tree):
        n.ag_user = True
    return tree
