"""A Python function as the tree the converters work on, or `ConversionError` saying why not.

Why its own module: getting from a function object to its `def` is the part of conversion that
meets the messy outside world (no source at hand, a lambda in the middle of a larger statement, a
method's zero-argument `super()`, a construct TensorFlow refuses), and every refusal here becomes
the one-line reason `transform.convert_function` logs when it runs the function as it is. The
tree comes back with the user's line numbers and marked as the user's (`templates.mark_user`), so
tracebacks through converted code show the user's own lines. Pure standard library.
"""
from __future__ import annotations

import ast
import inspect
import textwrap

from . import ast_guard, templates
from .source import parsed_source as _parsed_source


class ConversionError(Exception):
    """Why a function runs unconverted (one line)."""


def parse_function(fn):
    """`fn`'s definition as an `ast.FunctionDef` (a lambda as `def <lambda>(...): return ...`)."""
    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        raise ConversionError("generators and coroutines are left as they are")
    if fn.__name__ == "<lambda>":
        return _parse_lambda(fn)
    try:
        lines, first, tree = _parsed_source(fn)  # inspect's answer, without its tokenizer
    except (OSError, TypeError) as err:
        raise ConversionError(f"its source code is not available ({err})") from None
    if tree is None:
        try:
            tree = ast_guard.parse(textwrap.dedent("".join(lines)))
        except SyntaxError as err:
            raise ConversionError(f"its source could not be parsed alone ({err.msg})") from None
    func = tree.body[0] if tree.body else None
    if not isinstance(func, ast.FunctionDef):
        raise ConversionError("its source is not a plain `def`")
    if "__class__" in fn.__code__.co_freevars:
        _explicit_super(func)
    _refuse_unsupported(func)
    func.decorator_list = []
    ast.increment_lineno(tree, first - 1)
    templates.mark_user(tree)
    return func


def _refuse_unsupported(func):
    """A loop with an `else:` anywhere in the function (nested functions included) leaves the whole
    function unconverted, in TensorFlow's words: TF 2.21's AutoGraph does not convert for/else
    and while/else, so a tensor loop written that way fails there as plain Python fails on a
    tensor, and so it does here."""
    for n in ast.walk(func):
        if isinstance(n, (ast.For, ast.While)) and n.orelse:
            kind = "for" if isinstance(n, ast.For) else "while"
            raise ConversionError(f"{kind}/else statement not yet supported")


def _parse_lambda(fn):
    """A lambda as `def <lambda>(args): return body`, so it converts like a function: its calls
    convert too (`ds.map(lambda x: preprocess(x))`, `tf.function(lambda x: f(x))`).

    A lambda's source is part of a larger statement, so the whole file is parsed and the lambda
    picked out by its first line, its parameters and (several on one line) the columns its code
    covers."""
    code = fn.__code__
    try:
        lines, _ = inspect.findsource(fn)
        tree = ast_guard.parse("".join(lines))
    except (OSError, TypeError, SyntaxError) as err:
        raise ConversionError(f"its source code is not available ({err})") from None
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno:
            a = node.args
            if [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs] == params:
                found.append(node)
    if len(found) > 1:
        spots = {(l, c) for l, el, c, ec in code.co_positions()  # zero-width ones are bookkeeping
                 if None not in (l, el, c, ec) and (l, c) < (el, ec)}

        def covers(node):
            body = node.body
            return all((body.lineno, body.col_offset) <= spot <= (body.end_lineno, body.end_col_offset)
                       for spot in spots)
        found = [n for n in found if covers(n)] or found
        found.sort(key=lambda n: (n.body.end_lineno - n.body.lineno, n.body.end_col_offset - n.body.col_offset))
    if not found:
        raise ConversionError("its source could not be found")
    lam = found[0]
    func = ast.FunctionDef(name="<lambda>", args=lam.args, body=[ast.Return(value=lam.body)], decorator_list=[],
                           returns=None, type_params=[])
    ast.copy_location(func, lam)
    func.body[0] = ast.copy_location(func.body[0], lam.body)
    templates.mark_user(func)
    return func


def _explicit_super(func):
    """`super()` -> `super(__class__, self)` in a method's own scope.

    Zero-argument super() finds its class in the method's `__class__` cell and its instance in the
    first argument of the running frame; the converted code runs parts of the method in generated
    functions (branches, loop bodies) whose first argument is something else, so both are named.
    `__class__` stays a free variable, bound to the original method's cell when rebuilt."""
    args = func.args.posonlyargs + func.args.args
    if not args:
        raise ConversionError("it uses super() without arguments but takes no arguments")
    first = args[0].arg

    def visit(n):
        for child in ast.iter_child_nodes(n):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue  # their own super() (if any) refers to their own frame
            if (isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "super"
                    and not child.args and not child.keywords):
                child.args = [ast.copy_location(ast.Name(id="__class__", ctx=ast.Load()), child),
                              ast.copy_location(ast.Name(id=first, ctx=ast.Load()), child)]
            visit(child)
    visit(func)
