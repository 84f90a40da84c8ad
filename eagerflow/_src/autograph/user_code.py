"""Which callables are user code, the code AutoGraph converts, and which are a library's.

Why its own module: conversion reaches only the user's functions, and both the converters' context
(`context.py`, asked by the calls converter whether a call may run user code) and the entry point
(`transform.convert_function`, deciding whether to convert at all) need the same answer.

TensorFlow's rule, restated: every module is converted except those on its do-not-convert list
(TensorFlow itself, Keras, NumPy, pandas, matplotlib, PIL, absl's logging, a few debuggers and
standard modules), so a package installed with pip (a project's own helpers, a third-party model
library) is converted like a script. Here a module is a library's when its dotted name falls under
DO_NOT_CONVERT (that list, plus eagerflow, SciPy and the test tools), when it is built into the
interpreter, or when its file lies in the interpreter's standard library outside site-packages
(TensorFlow names only some standard modules; converting the others could change nothing a program
sees, since they never branch on tensors). Anything else is the user's: a script, a test file, code
exec'd under a made-up module name, and installed packages. Pure standard library.
"""
from __future__ import annotations

import functools
import os
import sys
import sysconfig
import types

DO_NOT_CONVERT = ("eagerflow", "tensorflow", "keras", "tf_keras", "numpy", "pandas", "matplotlib", "PIL",
                  "absl.logging", "tensorflow_probability", "tensorflow_datasets.core", "ipdb", "mock",
                  "scipy", "pytest", "_pytest", "hypothesis")


def _paths(*keys):
    return tuple({os.path.realpath(p) for p in (sysconfig.get_paths().get(k) for k in keys) if p})


_STDLIB_PATHS = _paths("stdlib", "platstdlib")
_SITE_PATHS = _paths("purelib", "platlib")  # may lie inside the standard library's folder: user code


def _listed(name):
    return any(name == prefix or name.startswith(prefix + ".") for prefix in DO_NOT_CONVERT)


def library_module(name, module=None):
    """Whether the module named `name` (`module` itself when at hand) is a library's."""
    if name is None:
        return True
    if _listed(name) or name in sys.builtin_module_names:
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
    """In the standard library's folders, and not in site-packages (installed packages are converted)."""
    path = os.path.realpath(path)
    return any(path.startswith(p + os.sep) for p in _STDLIB_PATHS) and \
        not any(path.startswith(p + os.sep) for p in _SITE_PATHS)


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
