"""From a converted tree to a runnable function: compile it once, bind it per function object.

Why its own module: the converted function must behave as the user's function in every way a
program can see (its name and qualified name in tracebacks, the user's file and line numbers, its
defaults, its attributes, its globals and the very closure cells of the original, so a write to a
nonlocal reaches the original's other closures), plus one extra free variable, `ag__`, the runtime
(`autograph/operators.py`) the converted code calls. Getting that right is code-object surgery,
kept here apart from deciding what to convert (`transform.py`). Pure standard library: the runtime
is looked up by name when a function is rebuilt, never imported at module level.
"""
from __future__ import annotations

import ast
import importlib
import types

from . import ast_guard

_FACTORY_INNER = "__ag_converted"


def compile_converted(func, code):
    """The code object of converted tree `func`, whose original code object is `code`.

    The tree is compiled inside a factory function whose parameters are `ag__` and the original's
    free variables, so the inner function's free variables are exactly those (bound to the
    original's cells by `rebuild`)."""
    freevars = [n for n in code.co_freevars]
    # Inside the factory the function is defined under a name no user code reads: under its own
    # name it would be a local of the factory, so a recursive call (a global read of that name in
    # the original) would become a read of a closure cell the rebuilt function has no value for.
    user_name, func.name = func.name, _FACTORY_INNER
    factory = ast.FunctionDef(
        name="__ag_factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in ["ag__"] + freevars], kwonlyargs=[],
                           kw_defaults=[], defaults=[]),
        body=[func, ast.Return(ast.Name(id=func.name, ctx=ast.Load()))], decorator_list=[], returns=None,
        type_params=[])
    ast.copy_location(factory, func)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    compiled = ast_guard.compile_tree(module, code.co_filename, "exec")
    factory_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == _FACTORY_INNER)
    return inner.replace(co_name=user_name, co_qualname=code.co_qualname)  # tracebacks name the user's function


def _runtime():
    # Looked up by name, not imported at module level: this file stays free of eagerflow imports.
    return importlib.import_module(__package__ + ".operators")


def rebuild(fn, converted_code):
    """A function running `converted_code` with `fn`'s globals, closure cells, defaults and attributes."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells["ag__"] = types.CellType(_runtime())
    closure = tuple(cells[n] for n in converted_code.co_freevars)
    new = types.FunctionType(converted_code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    # No reference back to `fn`: `_converted` maps fn -> this function weakly, and a value that
    # held its key would keep every converted function (and the arrays its closure holds) alive.
    return new
