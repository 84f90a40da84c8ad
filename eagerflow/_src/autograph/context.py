"""What the converters may ask about the function being converted: `ConversionContext`.

Why its own module: every converter (converters/*.py) receives one context per function and asks
it the same questions (what a name in the function refers to, whether a value is user code, a
fresh name for a generated function, how to declare a generated function that assigns the user's
global or nonlocal names); keeping them in one small class keeps the converters free of the
parse/compile/cache machinery in `transform.py`. Pure standard library.
"""
from __future__ import annotations

import ast
import builtins
import logging
import types

from . import analysis, templates
from .user_code import library_module, user_call_target

_log = logging.getLogger("eagerflow._src.autograph")


class ConversionContext:
    """What converters may ask about the function being converted."""

    def __init__(self, fn, func_node):
        self.fn = fn
        code = getattr(fn, "__code__", None)
        cells = getattr(fn, "__closure__", None) or ()
        self.closure = dict(zip(code.co_freevars, cells)) if code is not None else {}
        args = func_node.args.posonlyargs + func_node.args.args
        self.self_name = args[0].arg if args and args[0].arg in ("self", "cls") else None
        self.counters = {}
        self.skipped = []
        self.declared_global = set()
        self.declared_nonlocal = set()

    _MISSING = object()

    def resolve(self, name):
        if name in self.closure:
            try:
                return self.closure[name].cell_contents
            except ValueError:
                return self._MISSING
        g = getattr(self.fn, "__globals__", {})
        if name in g:
            return g[name]
        return getattr(builtins, name, self._MISSING)

    def builtin(self, name):
        return getattr(builtins, name)

    @staticmethod
    def is_user_callable(value):
        """Whether calling `value` may run user code that conversion reaches (see convert_function)."""
        return user_call_target(value) is not None

    @staticmethod
    def is_library_value(value):
        """Whether a global is a library's object or class (its methods are never converted)."""
        cls = value if isinstance(value, type) else type(value)
        return library_module(getattr(cls, "__module__", None)) and cls.__module__ != "__main__"

    @staticmethod
    def is_user_module(value):
        return isinstance(value, types.ModuleType) and not library_module(value.__name__, value)

    def fresh(self, prefix):
        n = self.counters.get(prefix, 0)
        self.counters[prefix] = n + 1
        return prefix if n == 0 else f"{prefix}{n}"

    def skip(self, node, reason):
        self.skipped.append((getattr(node, "lineno", None), reason))
        _log.info("%s line %s: %s", getattr(self.fn, "__qualname__", self.fn), getattr(node, "lineno", "?"), reason)

    def undefined_inits(self, names, node):
        out = []
        for n in names:
            if n not in node.ag_defined:
                out += templates.replace("NAME__ = ag__.Undefined(LABEL__)", at=node, NAME__=n,
                                         LABEL__=ast.Constant(n))
        return out

    def function(self, name, params, body, node):
        """`def name(params): body`, declaring the user's global/nonlocal names it assigns."""
        fdef = templates.replace("def NAME__(PARAMS__):\n    BODY__", at=node, NAME__=name, PARAMS__=list(params),
                                 BODY__=body)[0]
        assigned = set(analysis.stores(body))
        decls = []
        if assigned & self.declared_global:
            decls.append(ast.Global(names=sorted(assigned & self.declared_global)))
        if assigned & self.declared_nonlocal:
            decls.append(ast.Nonlocal(names=sorted(assigned & self.declared_nonlocal)))
        for d in decls:
            ast.copy_location(d, node)
        fdef.body = decls + fdef.body
        return [fdef]
