"""Traceback filtering: the tracebacks of errors raised while a tf.function traces show the user's
frames, not eagerflow's (TensorFlow's `tf.debugging.disable_traceback_filtering()` API mirrored).

A filtered entry point (a trace: Function._miss, get_concrete_function) catches the error, drops
every frame of the eagerflow package (and of generated code) from its traceback, and raises it
again: the class, message, cause and notes stay, and the traceback reads user call -> the call's
few dispatch lines -> the re-raise line -> the user's own frames (the traced Python, cond/while
bodies, nested functions) down to where it failed.
A cached call is not wrapped (a wrapper costs ~0.2 us a call): its run-time error is raised from
the call's own frames (one line on the hot path, Function.__call__; up to four one-line dispatch
frames on the others) with no kernel, codegen or registry frames below, and the op's creation site,
which no frame of a run-time error can show, is in the message (core/errors.py `graph_error_message`).
On by default; `EAGERFLOW_TRACEBACK_FILTERING=0` in the environment starts with it off, and
`tf.debugging.disable_traceback_filtering()` turns it off at run time.
"""
from __future__ import annotations

import functools
import os
import types

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep  # eagerflow/
_GENERATED = "<eagerflow-generated"


class _Switch:
    enabled = os.environ.get("EAGERFLOW_TRACEBACK_FILTERING", "1").strip().lower() not in ("0", "false", "no", "off")


_switch = _Switch()


def enable_traceback_filtering():
    """Hides eagerflow's own frames in the tracebacks of errors from tf.function calls (the default)."""
    _switch.enabled = True


def disable_traceback_filtering():
    """Shows every frame, eagerflow's included (for debugging eagerflow itself)."""
    _switch.enabled = False


def is_traceback_filtering_enabled() -> bool:
    return _switch.enabled


def _is_ours(filename: str) -> bool:
    return filename.startswith(_PACKAGE_DIR) or filename.startswith(_GENERATED)


def _user_entries(tb):
    """The entries of traceback `tb` that are not eagerflow's (nor its generated code's), outermost first."""
    kept = []
    while tb is not None:
        if not _is_ours(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    return kept


def innermost_user_line(tb):
    """(filename, line) of the innermost frame of `tb` in the user's own files (not eagerflow's, nor a
    source without a file such as '<string>'), or None: where a command reports that the user's code failed."""
    for entry in reversed(_user_entries(tb)):
        filename = entry.tb_frame.f_code.co_filename
        if not filename.startswith("<"):
            return filename, entry.tb_lineno
    return None


def filtered(tb):
    """`tb` without eagerflow's frames (a new chain; the frames themselves are shared)."""
    result = None
    for entry in reversed(_user_entries(tb)):
        result = types.TracebackType(result, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return result


def filter_traceback(fn):
    """Decorates an entry point whose errors should show the user's frames only (when enabled)."""
    @functools.wraps(fn)
    def error_handler(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as err:
            if not _switch.enabled:
                raise
            tb = filtered(err.__traceback__)
            try:
                raise err.with_traceback(tb)  # noqa: B904 - the same error, its cause kept
            finally:
                del tb, err  # no frame-to-error cycle left behind
    return error_handler
