"""Why a tf.function traced again, in a user's words, and when to warn about it.

`changes(old, new, names)` walks two call keys side by side and names every argument that differs
by its path (`x`, `batch['ids']`, `pair[1]`, `cfg.scale`) with what changed (`shape (2, 3) ->
(2, 4)`, `Python int 2 -> 3`, `new object of type Box`). The cache explains a retrace against the
closest of the recently used traces (fewest changes; the most recent on a tie).

`RetraceMonitor` keeps TensorFlow's frequent-retracing warning with TensorFlow's counting (a trace
is "frequent" when at least 5 of the calls in a window of about the last 10 traced; at most two
warnings per function), adds the argument and the likely fix, warns once when an argument keyed by
identity misses on most calls, and keeps the trace history `Function.experimental_trace_history()`
returns.
"""
from __future__ import annotations

import collections
import dataclasses
import logging

from . import signature as sig
from .datasets import DATASET

_log = logging.getLogger("eagerflow")

# TensorFlow's constants (polymorphic_function.py): a window of about 10 calls, 5 traces in it warn,
# at most 2 warnings per function.
WINDOW_CALLS = 10
WARN_TRACES = 5
MAX_WARNINGS = 2
# An argument keyed by identity warns once it brought a new object this many times, on most calls.
IDENTITY_MISSES = 5
HISTORY = 1000
# A retrace is explained against the closest of this many most recently used traces.
COMPARED_TRACES = 16

TraceEvent = collections.namedtuple("TraceEvent", "number signature reason")
TraceEvent.__doc__ = """One trace of a tf.function: its number (1 = first), the arguments it was
traced for, and why it was traced (the argument that changed, or 'first call')."""

Change = collections.namedtuple("Change", "path text kind")

_FIX = {
    "shape": "pass reduce_retracing=True or an input_signature with None dimensions",
    "dtype": "pass tensors of one dtype, or an input_signature",
    "literal": "pass a tensor instead of a Python number (tf.constant(n)), or an input_signature",
    "object": "create the object once outside the loop, give its type __eq__ and __hash__ by value, "
              "or pass its tensors as arguments",
    "structure": "keep the argument's structure fixed between calls, or use an input_signature",
}

_PY_NAMES = {bool: "Python bool", int: "Python int", float: "Python float", str: "Python str",
             type(None): "None"}


def _literal_text(value):
    if value == "<nan>":
        return "Python float nan"
    return f"{_PY_NAMES.get(type(value), 'Python value')} {value!r}" if value is not None else "None"


def describe(part) -> str:
    """One key part in a user's words."""
    if type(part) is not tuple or not part:
        return repr(part)
    kind = part[0]
    if kind == sig.TENSOR:
        return f"tensor {part[1].name} shape {sig.shape_text(part)}"
    if kind == sig.LITERAL:
        return _literal_text(part[1])
    if kind == sig.VARIABLE:
        return f"{'trainable ' if part[3] else ''}variable {part[1].name} shape {tuple(part[2])}"
    if kind == sig.ALIAS:
        return f"the same variable as tensor argument {part[1]}"
    if kind == sig.OBJECT:
        return f"object of type {type(part[1].get()).__name__}"
    if kind == DATASET:
        return f"dataset ({part[1].__name__.lstrip('_')})"
    if kind == sig.ITERATOR:
        return "iterator"
    if kind == sig.COMPOSITE:
        return f"{part[1].__name__} {part[2][1].name} shape {sig.shape_text(part[2])}"
    if kind is dict:
        return f"dict with keys {[k for k, _ in part[1]]}"
    if isinstance(kind, type):
        return f"{kind.__name__} of {len(part[1])}"
    return repr(part)


def changes(old, new, names) -> list:
    """Every argument that differs between two call keys, as Changes."""
    (old_args, old_kw), (new_args, new_kw) = old, new
    out = []
    if len(old_args) != len(new_args):
        out.append(Change("arguments", f"{len(old_args)} -> {len(new_args)} positional arguments", "structure"))
        return out
    for i, (a, b) in enumerate(zip(old_args, new_args)):
        _diff(names[i] if i < len(names) else f"args[{i - len(names)}]", a, b, out)
    old_d, new_d = dict(old_kw), dict(new_kw)
    for k in sorted(set(old_d) | set(new_d), key=str):
        if k not in old_d or k not in new_d:
            out.append(Change(k, f"{k}: {'new' if k in new_d else 'missing'} keyword argument", "structure"))
        else:
            _diff(k, old_d[k], new_d[k], out)
    return out


def plan(cache, key, names, traces_so_far, reduce_retracing):
    """(the key a cache miss traces for, the changes that explain the retrace) for a call under
    `key`: with reduce_retracing, the first relaxation of a kept trace's key (newest first) that
    covers it (signature.relax), else `key` itself; the changes are `closest_changes`'."""
    general = key
    if reduce_retracing:
        for previous in reversed(cache.general_keys()):
            relaxed = sig.relax(previous, key)
            if relaxed is not None:
                general = relaxed
                break
    return general, closest_changes(cache.recent_general_keys(COMPARED_TRACES), cache.last_dropped, key, names,
                                    traces_so_far)


def closest_changes(recent_keys, last_dropped, key, names, traces_so_far):
    """The changes against the closest of the recently used traces' keys (fewest changes; the
    most recent on a tie); against the last dropped trace when none is kept; None before the
    first trace. Only a few recent keys are compared: with a full cache, comparing all of them
    would cost more than the trace itself."""
    best = None
    for general in recent_keys:
        found = changes(general, key, names)
        if best is None or len(found) < len(best):
            best = found
    if best is None and traces_so_far:  # every trace was evicted, dropped or cleared
        return [] if last_dropped is None else changes(last_dropped, key, names)
    return best


def _diff(path, a, b, out):
    if a == b:
        return
    ka = a[0] if type(a) is tuple and a else None
    kb = b[0] if type(b) is tuple and b else None
    if ka != kb:
        out.append(Change(path, f"{path}: {describe(a)} -> {describe(b)}", "structure"))
    elif ka == sig.COMPOSITE and a[1] is b[1]:  # a SparseTensor: its spec's dtype or shape
        _diff(path, a[2], b[2], out)
    elif ka == sig.TENSOR:
        if a[1] is not b[1]:
            out.append(Change(path, f"{path}: dtype {a[1].name} -> {b[1].name}", "dtype"))
        else:
            out.append(Change(path, f"{path}: shape {sig.shape_text(a)} -> {sig.shape_text(b)}", "shape"))
    elif ka == sig.LITERAL:
        old, new = _literal_text(a[1]), _literal_text(b[1])
        kind_old, kind_new = old.rsplit(" ", 1)[0], new.rsplit(" ", 1)[0]
        if kind_old == kind_new and a[1] is not None:  # n: Python int 2 -> 3
            new = new.rsplit(" ", 1)[1]
        out.append(Change(path, f"{path}: {old} -> {new}", "literal"))
    elif ka == sig.OBJECT:
        _diff_objects(path, a[1].get(), b[1].get(), out)
    elif ka == DATASET:
        out.append(Change(path, f"{path}: a dataset pipeline built another way ({describe(a)} -> {describe(b)})",
                          "structure"))
    elif ka == sig.ITERATOR:
        out.append(Change(path, f"{path}: an iterator of another element spec", "structure"))
    elif ka in (sig.VARIABLE, sig.ALIAS):
        out.append(Change(path, f"{path}: {describe(a)} -> {describe(b)}", "structure"))
    elif ka is dict:
        keys_a, keys_b = [k for k, _ in a[1]], [k for k, _ in b[1]]
        if keys_a != keys_b:
            out.append(Change(path, f"{path}: dict keys {keys_a} -> {keys_b}", "structure"))
        else:
            for (k, pa), (_, pb) in zip(a[1], b[1]):
                _diff(f"{path}[{k!r}]", pa, pb, out)
    elif len(a[1]) != len(b[1]):
        out.append(Change(path, f"{path}: {describe(a)} -> {describe(b)}", "structure"))
    else:
        fields = getattr(ka, "_fields", None)
        for i, (pa, pb) in enumerate(zip(a[1], b[1])):
            _diff(f"{path}.{fields[i]}" if fields else f"{path}[{i}]", pa, pb, out)


def _diff_objects(path, old, new, out):
    if old is None or type(old) is not type(new):
        out.append(Change(path, f"{path}: new object of type {type(new).__name__}", "object"))
        return
    # An object compared by value: name the attribute that differs, as a user would (cfg.scale).
    if dataclasses.is_dataclass(old):
        names = [f.name for f in dataclasses.fields(old)]
    else:
        names = sorted(set(getattr(old, "__dict__", {})) | set(getattr(new, "__dict__", {})))
    for name in names:
        va, vb = getattr(old, name, None), getattr(new, name, None)
        try:
            same = va is vb or bool(va == vb)
        except Exception:
            same = False
        if not same:
            out.append(Change(path, f"{path}.{name}: {va!r} -> {vb!r}", "object"))
            return
    out.append(Change(path, f"{path}: new object of type {type(new).__name__}", "object"))


def signature_text(key, names) -> str:
    args, kw = key
    parts = [f"{names[i] if i < len(names) else f'args[{i - len(names)}]'}: {describe(p)}"
             for i, p in enumerate(args)]
    parts += [f"{k}: {describe(p)}" for k, p in kw]
    return ", ".join(parts)


class RetraceMonitor:
    """Per function: TensorFlow's frequent-retracing count, the identity-miss warning, the history."""

    def __init__(self, function_name):
        self.function_name = function_name
        self.history = collections.deque(maxlen=HISTORY)
        self._calls_per_trace = []  # TensorFlow's window: calls since each recent trace
        self._window_calls = 0
        self._hits_seen = 0
        self._warnings = 0
        self._identity_misses = collections.Counter()
        self._identity_warned = False
        self.traces = 0

    def record(self, key, names, found, hits, calls, python_function, counted=True):
        """One trace: `found` is [Change] against the closest earlier trace (None: the first).
        Logs the INFO line, maybe the warnings, appends to the history; returns the reason."""
        self.traces += 1
        reason = "first call" if found is None else ("; ".join(c.text for c in found[:3]) + (
            f"; and {len(found) - 3} more" if len(found) > 3 else "") if found else "a new signature")
        self.history.append(TraceEvent(self.traces, signature_text(key, names), reason))
        if found is not None:
            _log.info("tf.function %s traced again (trace %d): %s", self.function_name, self.traces, reason)
        if not counted:
            return reason
        self._count(hits, python_function, found, reason)
        self._identity(found, calls)
        return reason

    def _count(self, hits, python_function, found, reason):
        new_hits, self._hits_seen = hits - self._hits_seen, hits
        if new_hits > 0:  # the calls that ran without tracing since the last trace
            if not self._calls_per_trace:
                self._calls_per_trace.append(0)
            self._calls_per_trace[-1] += new_hits
            self._window_calls += new_hits
        self._window_calls += 1
        self._calls_per_trace.append(1)
        while self._calls_per_trace and self._window_calls - self._calls_per_trace[0] > WINDOW_CALLS:
            self._window_calls -= self._calls_per_trace.pop(0)
        if self._warnings >= MAX_WARNINGS or len(self._calls_per_trace) < WARN_TRACES:
            return
        self._warnings += 1
        fix = _FIX.get(found[0].kind, "") if found else ""
        _log.warning(
            "%d out of the last %d calls to %s triggered tf.function retracing. Tracing is expensive and the "
            "excessive number of tracings could be due to (1) creating @tf.function repeatedly in a loop, "
            "(2) passing tensors with different shapes, (3) passing Python objects instead of tensors. For (1), "
            "please define your @tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True "
            "option that can avoid unnecessary retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details. "
            "The latest retrace was caused by %s%s.",
            len(self._calls_per_trace), self._window_calls, python_function, reason,
            f" (likely fix: {fix})" if fix else "")

    def _identity(self, found, calls):
        if self._identity_warned or not found:
            return
        for change in found:
            if change.kind == "object" and "new object of type" in change.text:
                self._identity_misses[change.path] += 1
                n = self._identity_misses[change.path]
                if n >= IDENTITY_MISSES and 2 * n > calls:
                    self._identity_warned = True
                    type_name = change.text.rsplit(" ", 1)[-1]
                    _log.warning(
                        "tf.function %s: argument %r (type %s) is keyed by identity, and %d of the %d calls "
                        "so far passed a new one, each tracing again. %s.", self.function_name, change.path,
                        type_name, n, calls, _FIX["object"].capitalize())
                    return
