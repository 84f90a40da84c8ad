"""AutoGraph's source-to-source step: a Python function in, the same function with tensor-aware
control flow out (parse -> converters -> compile), cached per function.

Pure AST work: nothing of eagerflow is imported here, so `trace/tracer.py` may call
`convert_function` (the one sanctioned upward reference). The converted code calls the runtime
(`autograph/operators.py`) through a free variable `ag__`, bound when the function is rebuilt.

Debuggability: the converted code is compiled from the AST with the user's line numbers and file
name, so a traceback through converted code shows the user's own lines. `to_code` shows the
converted source, unparsed: plain calls, no wrapper around every name.

When a function cannot be converted (no source, a generator, ...), it runs as it is, and one line
says why (logger "eagerflow._src.autograph").
"""
from __future__ import annotations

import ast
import builtins
import functools
import importlib
import inspect
import logging
import os
import sys
import sysconfig
import textwrap
import types
import weakref

from . import analysis, as_is, templates
from . import ast_guard
from .source import parsed_source as _parsed_source
from .converters import asserts, break_continue, calls, conditionals, logical, loops, returns

_log = logging.getLogger("eagerflow._src.autograph")

# The order matters: calls first (appends become assignments the analysis sees), returns in loops
# before break/continue (they become breaks), and control flow last, on the annotated tree.
PIPELINE = (
    ("calls", calls.convert),
    ("asserts", asserts.convert),
    ("returns in loops", returns.convert),
    ("break and continue", break_continue.convert),
    ("returns in branches", returns.normalize),
    ("logical expressions", logical.convert),
)

# Names the converters generate; never branch outputs or loop variables.
RESERVED = frozenset({"ag__", "if_true", "if_false", "loop_test", "loop_body", "itr"})

verbosity = 0
DO_NOT_CONVERT = "__ag_do_not_convert__"


class ConversionError(Exception):
    """Why a function runs unconverted (one line)."""


class _Context:
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
        return _user_call_target(value) is not None

    @staticmethod
    def is_library_value(value):
        """Whether a global is a library's object or class (its methods are never converted)."""
        cls = value if isinstance(value, type) else type(value)
        return _library_module(getattr(cls, "__module__", None)) and cls.__module__ != "__main__"

    @staticmethod
    def is_user_module(value):
        return isinstance(value, types.ModuleType) and not _library_module(value.__name__, value)

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


class _ControlFlow(ast.NodeTransformer):
    """Bottom-up: inner statements are converted before the statement holding them."""

    def __init__(self, ctx, excluded):
        self.ctx, self.excluded = ctx, excluded

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def visit_If(self, node):
        self.generic_visit(node)
        return conditionals.convert(node, self.ctx, self.excluded)

    def visit_While(self, node):
        self.generic_visit(node)
        return loops.convert(node, self.ctx, self.excluded)

    visit_For = visit_While


def _convert_scope(func, ctx, pipeline=PIPELINE):
    for stage, step in pipeline:
        step(func, ctx)
    for n in ast.walk(func):
        if isinstance(n, ast.Global):
            ctx.declared_global.update(n.names)
        elif isinstance(n, ast.Nonlocal):
            ctx.declared_nonlocal.update(n.names)
    excluded = set(RESERVED) | analysis.declared(func)
    analysis.annotate(func, excluded)
    t = _ControlFlow(ctx, excluded)
    body = []
    for s in func.body:
        r = t.visit(s)
        body += r if isinstance(r, list) else [r]
    func.body = body
    returns.guard_undefined(func)


def _nested_first(func):
    """Function definitions inside `func`, innermost first (each is converted as its own scope)."""
    out = []

    def visit(n, top):
        for child in ast.iter_child_nodes(n):
            visit(child, False)
        if isinstance(n, ast.FunctionDef) and not top:
            out.append(n)
    visit(func, True)
    return out


class Converted:
    """The converted code of one Python function (shared by all function objects with its code);
    `code` None: conversion would change nothing, so the function runs as it is."""

    def __init__(self, code, source, skipped):
        self.code, self._source, self.skipped = code, source, skipped

    @property
    def source(self):
        if not isinstance(self._source, str):  # the tree, unparsed when first asked for (to_code)
            self._source = ast.unparse(self._source)
        return self._source


def _reads_runtime(func):
    return any(isinstance(n, ast.Name) and n.id == "ag__" for n in ast.walk(func))


# Caches of conversions, all weak. A converted function shares its original's globals and closure
# cells (which often hold the original: a function in its own namespace, a recursive closure), so
# `_converted` holds it through a weak reference, never as a strong value of the weak key.
_by_code = weakref.WeakKeyDictionary()  # the original code object -> Converted
_converted = weakref.WeakKeyDictionary()  # the original function -> weakref to its converted function, or _AS_IS
_converted_codes = weakref.WeakSet()  # code objects made by conversion (never converted again)
_AS_IS = object()
_FACTORY_INNER = "__ag_converted"


def _parse(fn):
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


def _compile(fn):
    code = fn.__code__
    cached = _by_code.get(code)
    if cached is not None:
        return cached
    straight = as_is.straight_line(code)
    if straight and as_is.left_as_is(fn, _Context.is_user_module, _Context.is_library_value,
                                     _Context.is_user_callable):
        converted = Converted(None, None, [])  # the source is read only if to_code asks for it
        _by_code[code] = converted
        return converted
    func = _parse(fn)
    ctx = _Context(fn, func)
    if straight:
        # Only the calls converter can have work here. When it rewrites nothing, the converted
        # function would be the original compiled again: it runs as it is, which saves the rest of
        # the pipeline and a compile (a first tf.function call's largest cost).
        PIPELINE[0][1](func, ctx)
        if not _reads_runtime(func):
            converted = Converted(None, func, ctx.skipped)
            _by_code[code] = converted
            return converted
        _convert_scope(func, ctx, PIPELINE[1:])
    else:
        for inner in _nested_first(func):
            _convert_scope(inner, ctx)
        _convert_scope(func, ctx)
    freevars = [n for n in code.co_freevars]
    # Inside the factory the function is defined under a name no user code reads: under its own
    # name it would be a local of the factory, so a recursive call (a global read of that name in
    # the original) would become a read of a closure cell the rebuilt function has no value for.
    source = ast.unparse(func)
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
    inner = inner.replace(co_name=user_name, co_qualname=code.co_qualname)  # tracebacks name the user's function
    _remember_codes(inner)
    converted = Converted(inner, source, ctx.skipped)
    _by_code[code] = converted
    return converted


def _remember_codes(code):
    _converted_codes.add(code)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _remember_codes(c)


def _runtime():
    # Looked up by name, not imported at module level: this file stays free of eagerflow imports.
    return importlib.import_module(__package__ + ".operators")


def _rebuild(fn, converted):
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    cells["ag__"] = types.CellType(_runtime())
    closure = tuple(cells[n] for n in converted.code.co_freevars)
    new = types.FunctionType(converted.code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    # No reference back to `fn`: `_converted` maps fn -> this function weakly, and a value that
    # held its key would keep every converted function (and the arrays its closure holds) alive.
    return new


def convert(fn):
    """The converted function; raises ConversionError (one line) when `fn` must run as it is."""
    converted = _compile(fn)
    return fn if converted.code is None else _rebuild(fn, converted)


def to_source(fn):
    fn = _unwrap(fn)
    converted = _compile(fn)
    if converted.code is None and converted._source is None:  # left as it is without being read
        converted._source = _parse(fn)
    return converted.source


def _unwrap(fn):
    fn = getattr(fn, "python_function", fn)  # a tf.function
    return getattr(fn, "__func__", fn)


# --- which callables are user code --------------------------------------------------------------

_LIBRARY_PREFIXES = ("eagerflow", "numpy", "scipy", "pytest", "_pytest", "hypothesis", "tensorflow")
_LIBRARY_PATHS = tuple({os.path.realpath(p) for p in (sysconfig.get_paths().get(k) for k in
                                                        ("stdlib", "platstdlib", "purelib", "platlib")) if p})


def _library_module(name, module=None):
    if name is None:
        return True
    if name.split(".")[0] in _LIBRARY_PREFIXES or name in sys.builtin_module_names:
        return True
    module = module or sys.modules.get(name)
    if module is None:  # code exec'd under a made-up module name: the user's
        return False
    path = getattr(module, "__file__", None)
    if path is None:
        # a namespace package (a folder without __init__.py) is where its folders are
        folders = list(getattr(module, "__path__", None) or ())
        return name != "__main__" and all(_under_library_path(p) for p in folders)
    return _under_library_path(path)


def _under_library_path(path):
    path = os.path.realpath(path)
    return any(path.startswith(p + os.sep) for p in _LIBRARY_PATHS)


def is_library(fn):
    fn = getattr(fn, "__func__", fn)
    return _library_module(getattr(fn, "__module__", None))


def _user_call_target(value):
    """The user function that calling `value` runs first, or None (library code, a class, a
    builtin): a function or method itself, a `functools.partial`'s function, a callable object's
    `__call__`. Classes are called as they are (TensorFlow leaves constructors unconverted too)."""
    if isinstance(value, (types.FunctionType, types.MethodType)):
        return None if is_library(value) else value
    if isinstance(value, functools.partial):
        return _user_call_target(value.func)
    if isinstance(value, (type, types.ModuleType)):
        return None
    call = getattr(type(value), "__call__", None)
    if isinstance(call, types.FunctionType) and not is_library(call):
        return call
    return None


def convert_function(fn):
    """What `tf.function` and converted code call: `fn` converted if it is user code, else `fn`.

    Cached per function object; a bound method is converted through its function, a
    `functools.partial` through its function (a new partial with the same arguments), a callable
    object through its class's `__call__` (bound to the object)."""
    if isinstance(fn, types.MethodType):
        inner = convert_function(fn.__func__)
        return fn if inner is fn.__func__ else types.MethodType(inner, fn.__self__)
    if not isinstance(fn, types.FunctionType):
        if isinstance(fn, functools.partial):
            inner = convert_function(fn.func)
            return fn if inner is fn.func else functools.partial(inner, *fn.args, **fn.keywords)
        call = _user_call_target(fn)
        if call is None:
            return fn
        inner = convert_function(call)
        return fn if inner is call else types.MethodType(inner, fn)
    if fn.__code__ in _converted_codes or getattr(fn, DO_NOT_CONVERT, False):
        return fn
    try:
        cached = _converted.get(fn)
    except TypeError:
        cached = None
    if cached is _AS_IS:
        return fn
    cached = cached() if cached is not None else None
    if cached is not None:
        return cached
    if fn.__code__ not in _by_code and is_library(fn):  # code compiled before is user code: skip the path check
        return fn
    try:
        result = convert(fn)
    except ConversionError as err:
        # str(err), not err: a kept log record must not hold the traceback (and the traced graph).
        level = logging.INFO if fn.__name__ == "<lambda>" else logging.WARNING
        # TensorFlow's words, so its users recognise the message (and its silencing hint).
        _log.log(level, "AutoGraph could not transform %s and will run it as-is.\nCause: %s\nTo silence this "
                 "warning, decorate the function with @tf.autograph.experimental.do_not_convert",
                 fn.__qualname__, str(err))
        result = fn
    try:
        _converted[fn] = _AS_IS if result is fn else weakref.ref(result)
    except TypeError:
        pass
    return result
