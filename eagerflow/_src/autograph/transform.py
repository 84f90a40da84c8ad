"""AutoGraph's source-to-source step: a Python function in, the same function with tensor-aware
control flow out (parse -> converters -> compile), cached per function.

This module decides what to convert and remembers what it converted; the steps are elsewhere, one
job each: `user_code.py` (which callables are the user's), `parse.py` (a function's tree, or why
it runs as it is), `context.py` (what converters may ask), `pipeline.py` (the converters, in
order) and `rebuild.py` (compiling the tree and binding it to the function's cells).

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
import functools
import logging
import types
import weakref

from . import as_is
from .context import ConversionContext
from .parse import ConversionError, parse_function
from .pipeline import PIPELINE, convert_scope, convert_tree, reads_runtime
from .rebuild import compile_converted, rebuild
from .user_code import is_library, user_call_target

_log = logging.getLogger("eagerflow._src.autograph")

verbosity = 0
DO_NOT_CONVERT = "__ag_do_not_convert__"

# The names this module had before it was split (tests and as_is.py's documentation use them).
_Context = ConversionContext
_parse = parse_function
_reads_runtime = reads_runtime


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


# Caches of conversions, all weak. A converted function shares its original's globals and closure
# cells (which often hold the original: a function in its own namespace, a recursive closure), so
# `_converted` holds it through a weak reference, never as a strong value of the weak key.
_by_code = weakref.WeakKeyDictionary()  # the original code object -> Converted
_converted = weakref.WeakKeyDictionary()  # the original function -> weakref to its converted function, or _AS_IS
_converted_codes = weakref.WeakSet()  # code objects made by conversion (never converted again)
_AS_IS = object()


def _compile(fn):
    code = fn.__code__
    cached = _by_code.get(code)
    if cached is not None:
        return cached
    straight = as_is.straight_line(code)
    if straight and as_is.left_as_is(fn, ConversionContext.is_user_module, ConversionContext.is_library_value,
                                     ConversionContext.is_user_callable):
        converted = Converted(None, None, [])  # the source is read only if to_code asks for it
        _by_code[code] = converted
        return converted
    func = parse_function(fn)
    ctx = ConversionContext(fn, func)
    if straight:
        # Only the calls converter can have work here. When it rewrites nothing, the converted
        # function would be the original compiled again: it runs as it is, which saves the rest of
        # the pipeline and a compile (a first tf.function call's largest cost).
        PIPELINE[0][1](func, ctx)
        if not reads_runtime(func):
            converted = Converted(None, func, ctx.skipped)
            _by_code[code] = converted
            return converted
        convert_scope(func, ctx, PIPELINE[1:])
    else:
        convert_tree(func, ctx)
    source = ast.unparse(func)
    inner = compile_converted(func, code)
    _remember_codes(inner)
    converted = Converted(inner, source, ctx.skipped)
    _by_code[code] = converted
    return converted


def _remember_codes(code):
    _converted_codes.add(code)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _remember_codes(c)


def convert(fn):
    """The converted function; raises ConversionError (one line) when `fn` must run as it is."""
    converted = _compile(fn)
    return fn if converted.code is None else rebuild(fn, converted.code)


def to_source(fn):
    fn = _unwrap(fn)
    converted = _compile(fn)
    if converted.code is None and converted._source is None:  # left as it is without being read
        converted._source = parse_function(fn)
    return converted.source


def _unwrap(fn):
    fn = getattr(fn, "python_function", fn)  # a tf.function
    return getattr(fn, "__func__", fn)


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
        call = user_call_target(fn)
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
