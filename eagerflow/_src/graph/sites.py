"""Where the user created each op: the Site an Operation records at trace time (graph.py), read by
run-time errors (core/errors.py `graph_error_message`), the printer, the DOT/HTML views and the
generated code's comments.

Cost: one walk up the Python stack per op created (~3-4 us at trace time, none at call time).
"""
from __future__ import annotations

import contextlib
import contextvars
import sys

_PACKAGE_DIR = __file__.rsplit("/_src/graph/", 1)[0] + "/"  # eagerflow/: _src and the public keras/, summary/, ...


class Site(tuple):
    """(filename, lineno) of the user's line that created an op, and in `.stack` the user's frames
    that led to it ((filename, lineno, function), outermost first, the innermost `STACK_FRAMES`;
    eagerflow's own frames left out), which a run-time error lists as TensorFlow's "defined at"
    does. A tuple, so code reading `op.source[0]`/`[1]` and passes copying `op.source` keep it."""

    def __new__(cls, filename, lineno, stack=()):
        site = super().__new__(cls, (filename, lineno))
        site.stack = stack
        return site

    def __reduce__(self):
        return Site, (self[0], self[1], self.stack)


STACK_FRAMES = 10


def user_stack(depth=1):
    """The user's frames calling this one (eagerflow's own skipped), outermost first, at most
    STACK_FRAMES of the innermost ones: ((filename, lineno, function), ...)."""
    frame = sys._getframe(depth + 1)
    frames = []
    while frame is not None and len(frames) < STACK_FRAMES:
        code = frame.f_code
        fname = code.co_filename
        if not fname.startswith(_PACKAGE_DIR) or "/tests/" in fname:
            frames.append((fname, frame.f_lineno, code.co_name))
        frame = frame.f_back
    frames.reverse()
    return _named(frames, None)


def _named(frames, outer_name):
    """`frames` with a converted `if`/`while` block named, as in TF, after its function (the frame
    before it; `outer_name` for the first)."""
    for i, (fname, lineno, name) in enumerate(frames):
        if name.startswith(_AUTOGRAPH_NAMES):
            enclosing = frames[i - 1][2] if i else outer_name
            if enclosing is not None:
                frames[i] = (fname, lineno, enclosing)
    return tuple(frames)


_AUTOGRAPH_NAMES = ("if_true", "if_false", "loop_body", "loop_test")  # autograph/converters' block functions


def trace_entry():
    """(id of the caller's caller frame, the user's frames above it): what a Graph records when it
    is made, so that each op's walk stops where the trace began (`user_frame`)."""
    return id(sys._getframe(2)), user_stack(2)


_RECORDING = contextvars.ContextVar("eagerflow_op_sites", default=True)


@contextlib.contextmanager
def no_user_sites():
    """Ops made inside record no Site: a SavedModel's graphs rebuilt by a loader were written by code
    that is not here, and the frames that called the loader (a user's `load` line, the `eagerflow`
    command's script) did not define them. A run-time error in such an op says, as TensorFlow's
    does for a loaded model, that its stack traces are unavailable."""
    token = _RECORDING.set(False)
    try:
        yield
    finally:
        _RECORDING.reset(token)


def user_frame(graph):
    """The Site of the op being added to `graph`: the user's frames from where `graph` began being
    traced (its `base_stack`, walked once per graph) down to the innermost caller outside eagerflow.
    Only the frames below the trace's entry are walked per op. (The entry is known by its frame's
    id, which stays unique while that frame runs, i.e. while the graph is being built there.)
    None inside `no_user_sites`."""
    if not _RECORDING.get():
        return None
    entry = getattr(graph, "_entry", None)
    frame = sys._getframe(2)
    inner = []
    at_entry = False
    while frame is not None:
        code = frame.f_code
        fname = code.co_filename
        at_entry = id(frame) == entry
        if not fname.startswith(_PACKAGE_DIR) or "/tests/" in fname:
            inner.append((fname, frame.f_lineno, code.co_name))  # the entry itself at its current line
            if len(inner) >= STACK_FRAMES:
                break
        if at_entry:
            break
        frame = frame.f_back
    inner.reverse()
    if at_entry:
        base = graph.base_stack
        if base and inner and base[-1][0] == inner[0][0] and base[-1][2] == inner[0][2]:
            base = base[:-1]  # the entry frame is the user's: its line now, not when the graph was made
        stack = (base + _named(inner, base[-1][2] if base else None))[-STACK_FRAMES:]
    else:
        stack = _named(inner, None)
    if not stack:
        return None
    return Site(stack[-1][0], stack[-1][1], stack)


def inlined_site(current, original, base):
    """The Site of an op replayed from another graph (a nested tf.function inlined into the one
    being traced): the original op's line, the frames of the current trace that led to the call
    (`current.stack`), then the original frames past the ones its own trace started from (`base`)."""
    if original is None:
        return current
    inner = getattr(original, "stack", ())
    started = set(base)  # (both stacks may be cut at STACK_FRAMES: drop the frames the trace began in)
    skip = 0
    while skip < len(inner) - 1 and inner[skip] in started:
        skip += 1
    inner = inner[skip:]
    outer = getattr(current, "stack", ()) if current is not None else ()
    return Site(original[0], original[1], (outer + tuple(inner))[-STACK_FRAMES:])
