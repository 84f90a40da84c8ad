"""`return` inside branches and loops, reshaped so each converted `if` either returns on every
path or not at all.

1. A `return` inside a loop sets `retval_` and `do_return`, then breaks; after the loop,
   `if do_return: return retval_` (break_continue.py then turns the `break` into a flag), or
   just `return retval_` when the loop ends the function.
   In a tensor loop TensorFlow's rule holds: the return value is a loop variable the first
   iteration must define, so a `return` in one branch of a tensor `if` (or under a Python
   condition not taken) is refused (NotImplementedError), and a loop that ran no iteration
   fails at run time ("loop must iterate at least once ...", operators.py / loop_checks.py).
2. In a block, an `if` holding a `return` takes the statements after it into the branches that
   can fall through (guard clauses read as `if c: return a` / `else: <rest>`); at the end of the
   function a branch that still falls through gets `return None`. Such an `if` is marked
   `ag_returns`, and conditionals.py turns it into `return ag__.if_stmt(...)`, so for a tensor
   condition both branches must return values of the same structure and dtypes (TF's rule).
   A branch that falls off the end returns `ag__.NO_RETURN`, not None, so a tensor `if` can say
   which branch lacks a return ("the else branch must also have a return statement.") apart
   from one that returns None ("'retval_' is None at the end of the else branch."), as
   TensorFlow does; the function's own last `return` turns NO_RETURN back into None.
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
        after[0].ag_loop_return = True
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


class _ReturnToFlag(ast.NodeTransformer):
    """`return v` -> `retval_ = v; do_return = True` (loops and nested functions keep theirs)."""

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_For = visit_While = visit_FunctionDef

    def visit_Return(self, node):
        value = node.value if node.value is not None else ast.Constant(None)
        return replace("retval_ = VALUE__\ndo_return = True", at=node, VALUE__=value)


def _flagged(stmts, i, at_end):
    """An `if` holding a `return` where neither branch returns on every path: TensorFlow's shape,
    `return` sets `retval_` / `do_return` and the statements after the `if` run under
    `if do_return: return retval_ / else: <rest>`. Through a tensor condition a branch that left
    `retval_` unset fails as in TensorFlow ("the else branch must also have a return statement.",
    operators.py); under a Python condition it is Python's behaviour."""
    stmt, rest = stmts[i], stmts[i + 1:]
    for field in ("body", "orelse"):
        block = _normalize(getattr(stmt, field), False)
        setattr(stmt, field, [x for s in block for x in _as_list(_ReturnToFlag().visit(s))])
    before = replace("do_return = False\nretval_ = None", at=stmt)
    guard = replace("if do_return:\n    return retval_", at=stmt)[0]
    return _normalize(stmts[:i] + before + [stmt, guard] + rest, at_end)


def _as_list(node):
    return node if isinstance(node, list) else [node]


def _normalize(stmts, at_end):
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.If) and analysis.contains([stmt], (ast.Return,)):
            rest = stmts[i + 1:]
            if (not analysis.always_returns(stmt.body) and not analysis.always_returns(stmt.orelse)
                    and not getattr(stmt, "ag_loop_return", False)):
                return _flagged(stmts, i, at_end)
            for field in ("body", "orelse"):
                block = getattr(stmt, field)
                if not analysis.always_returns(block):
                    block = block + copy.deepcopy(rest)
                block = _normalize(block, at_end)
                if at_end and not analysis.always_returns(block):  # falls off the end: no return value
                    block = block + replace("return ag__.NO_RETURN", at=stmt)
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
    if body and getattr(body[-1], "ag_loop_return", False):
        # The loop ends the function: `return retval_` whether or not it returned (retval_ is still
        # None if it did not), so a tensor loop's return value needs no `if` with a None branch.
        body[-1] = replace("return retval_", at=body[-1])[0]
    func.body = body


def guard_undefined(func):
    """After control flow: the function's own `return`s that read a name an `if`/loop may have left
    without a value (it got `name = ag__.Undefined('name')`) go through `ag__.function_return`, which
    raises TensorFlow's UnboundLocalError ("'y' is used before assignment") instead of handing the
    placeholder to the caller. Only those returns: the output stays plain elsewhere."""
    undefined, returns = set(), []

    def visit(n):
        for child in ast.iter_child_nodes(n):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue  # generated branch and loop functions return state, which may be undefined
            if (isinstance(child, ast.Assign) and isinstance(child.value, ast.Call)
                    and isinstance(child.value.func, ast.Attribute) and child.value.func.attr == "Undefined"):
                undefined.update(t.id for t in child.targets if isinstance(t, ast.Name))
            if isinstance(child, ast.Return) and child.value is not None:
                returns.append(child)
            visit(child)
    visit(func)
    for ret in returns:
        if undefined & set(analysis.loads(ret.value)) and not _is_call_to(ret.value, "function_return"):
            ret.value = ast.copy_location(ast.Call(
                func=ast.Attribute(value=ast.Name(id="ag__", ctx=ast.Load()), attr="function_return", ctx=ast.Load()),
                args=[ret.value], keywords=[]), ret.value)
            ast.fix_missing_locations(ret)


def _is_call_to(node, name):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name


def normalize(func, ctx):
    func.body = _normalize(func.body, True)
    last = func.body[-1] if func.body else None
    if getattr(last, "ag_returns", False):
        last.ag_returns_top = True  # conditionals.py: the function returns None for NO_RETURN
