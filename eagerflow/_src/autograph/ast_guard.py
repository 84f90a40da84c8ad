"""One lock around CPython's conversions between its AST and Python `ast` objects.

`ast.parse` and `compile()` of an `ast` tree keep a recursion-depth counter in per-interpreter state
on CPython 3.11, so two threads converting at once can fail with "SystemError: AST constructor
recursion depth mismatch" (python/cpython#106905). A tf.function may be traced on many threads at
once, and tracing parses source (AutoGraph, stale-capture analysis), so every such call in eagerflow
goes through here. Pure standard library: AutoGraph's pure half and trace/ may both import it.
"""
import ast
import threading

_LOCK = threading.RLock()


def parse(source, *args, **kwargs):
    """`ast.parse`, one thread at a time."""
    with _LOCK:
        return ast.parse(source, *args, **kwargs)


def compile_tree(tree, filename, mode):
    """`compile()` of an `ast` tree, one thread at a time."""
    with _LOCK:
        return compile(tree, filename, mode)
