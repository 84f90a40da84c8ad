"""A call whose trace froze a Python value that has changed since: warn, or retrace for the new value.

trace/stale.py records and checks the guards (where each frozen value lives, what the trace saw);
this module is what a Function does when the check fails on a call. It is off the hot path:
`Function.__call__` runs the guards' one C-level comparison inline and comes here (as
`Function._check_frozen`, assigned in the class body, so no extra call frame and the warning's
stacklevel counts the same frames) only when it fails.

Default (TensorFlow's result): the trace keeps its old value and one StaleCaptureWarning per
changed name says so. With `tf.function(experimental_retrace_on_stale_captures=True)` the call
gets a trace made for the values now, kept beside the original (and evicted with it), so going back
to an older value finds its trace again instead of tracing once more.
"""
from __future__ import annotations

from . import retrace as _retrace
from . import stale as _stale


def check_frozen(function, cf, stacklevel=3):
    """The trace to run when a Python value `cf` froze is no longer the object it expects
    (`cf._guards.holds()` failed; trace/stale.py): `cf` itself if the value is equal; after a
    change, `cf` with one StaleCaptureWarning per name (TensorFlow's result), or with
    experimental_retrace_on_stale_captures the trace for the values now (when the call's
    arguments are tensors and plain values: see stale.retraceable).
    `stacklevel`: frames from here to the user's call, for the warning."""
    guards = cf._guards
    retrace = function._retrace_on_stale and cf._stale_retrace is not None
    if retrace:
        for variant in cf._stale_variants:  # traces of the same call for other values, newest first
            if variant._guards is None or variant._guards.holds() or not variant._guards.changes():
                return variant
    changes = guards.changes()
    if changes and retrace:
        return function._retrace_stale(cf, changes)
    if changes:
        _stale.report(function._name, changes, function._stale_warned, function._count_lock, stacklevel)
    guards.expect_now()  # the slow check once per change, not on every call
    return cf


def retrace_stale(function, cf, changes):
    """A trace of `cf`'s call for the values frozen captures have now; kept beside `cf` (and
    evicted with it), at most MAX_STALE_VARIANTS, the oldest dropped."""
    args, kwargs, key = cf._stale_retrace
    found = [_retrace.Change(g.name, text, "stale capture")
             for (g, _), text in zip(changes, _stale.change_texts(changes))]
    new = function._trace(args, kwargs, key, changes=found, counted=True)
    with function._count_lock:
        function._cache.misses += 1
        cf._stale_variants = ((new,) + cf._stale_variants)[:_stale.MAX_STALE_VARIANTS]
    return new
