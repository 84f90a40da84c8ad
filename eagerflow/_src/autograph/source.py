"""A function's source lines, as `inspect.getsourcelines` gives them, without the tokenizer.

Why: `inspect.getsourcelines` finds where a `def` ends by running `tokenize`, whose first use in a
process compiles its big regular expressions (about 10 ms, more than all the rest of a first
`tf.function` call). The end of a `def` is usually plain from indentation: the first code line
indented no deeper than the `def` line. That guess is kept only when the lines it gives parse as
one complete definition; anything unusual (a signature closing at the `def`'s indentation, a
string or bracket continued at column 0) fails to parse and goes to `inspect`, so the result is
always what `inspect` would return.
"""
from __future__ import annotations

import ast
import inspect
import linecache
import textwrap

from . import ast_guard


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _block_by_indentation(lines, start):
    """lines[start:end] for the decorated `def` at `start`, guessed from indentation; or None."""
    base = _indent(lines[start])
    i = start
    while i < len(lines) and not lines[i].lstrip().startswith(("def ", "async def ")):
        i += 1  # decorators
    if i == len(lines) or _indent(lines[i]) != base:
        return None
    end = i + 1
    while end < len(lines) and (not _is_code(lines[end]) or _indent(lines[end]) > base):
        end += 1
    while end > i + 1 and (not lines[end - 1].strip() or _indent(lines[end - 1]) <= base):
        end -= 1  # trailing blank lines, and comments as shallow as the `def`, belong to what follows
    block = lines[start:end]
    try:
        tree = ast_guard.parse(textwrap.dedent("".join(block)))
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    return block, tree


def getsourcelines(fn):
    """(lines, first line number) of a function's `def` with its decorators, as `inspect` gives.

    The file's lines come from `linecache` directly: `inspect.findsource` would also compile a
    regular expression and, on its first call, map every loaded module to its file."""
    lines, first, _ = parsed_source(fn)
    return lines, first


def parsed_source(fn):
    """(lines, first line number, tree) where `tree` is `ast_guard.parse` of the dedented lines when
    finding them already parsed them (a fresh tree, the caller's to change), else None."""
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    block = None
    if code is not None:
        linecache.checkcache(code.co_filename)  # a file edited since it was loaded is read again
        lines = linecache.getlines(code.co_filename, getattr(fn, "__globals__", None))
        start = code.co_firstlineno - 1  # the first decorator's line, or the `def`'s
        if 0 <= start < len(lines) and lines[start].lstrip().startswith(("@", "def ", "async def ")):
            block = _block_by_indentation(lines, start)
    if block is None:
        return (*inspect.getsourcelines(fn), None)
    return block[0], start + 1, block[1]
