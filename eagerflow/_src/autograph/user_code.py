"""Which callables are user code, the code AutoGraph converts, and which are a library's.

Why its own module: conversion reaches only the user's functions (TensorFlow converts neither its
own code nor other libraries'), and both the converters' context (`context.py`, asked by the calls
converter whether a call may run user code) and the entry point (`transform.convert_function`,
deciding whether to convert at all) need the same answer. A module is a library's when its top
package is one we know (eagerflow, NumPy, ...), when it is built into the interpreter, or when its
file lies under the interpreter's standard-library or site-packages folders; anything else (a
script, a test file, code exec'd under a made-up module name) is the user's. Pure standard library.
"""
from __future__ import annotations

import functools
import os
import sys
import sysconfig
import types

_LIBRARY_PREFIXES = ("eagerflow", "numpy", "scipy", "pytest", "_pytest", "hypothesis", "tensorflow")
_LIBRARY_PATHS = tuple({os.path.realpath(p) for p in (sysconfig.get_paths().get(k) for k in
                                                        ("stdlib", "platstdlib", "purelib", "platlib")) if p})


def library_module(name, module=None):
    """Whether the module named `name` (`module` itself when at hand) is a library's."""
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
    return library_module(getattr(fn, "__module__", None))


def user_call_target(value):
    """The user function that calling `value` runs first, or None (library code, a class, a
    builtin): a function or method itself, a `functools.partial`'s function, a callable object's
    `__call__`. Classes are called as they are (TensorFlow leaves constructors unconverted too)."""
    if isinstance(value, (types.FunctionType, types.MethodType)):
        return None if is_library(value) else value
    if isinstance(value, functools.partial):
        return user_call_target(value.func)
    if isinstance(value, (type, types.ModuleType)):
        return None
    call = getattr(type(value), "__call__", None)
    if isinstance(call, types.FunctionType) and not is_library(call):
        return call
    return None
