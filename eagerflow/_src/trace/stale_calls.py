"""A call whose trace froze a Python value that has changed since: warn, or retrace for the new value.

trace/stale.py records and checks the guards (where each frozen value lives, what the trace saw);
this module is what a Function does when the check fails on a call. It is off the hot path:
`Function.__call__` runs the guards' one C-level comparison inline and comes here (through
`Function._check_frozen`, which passes what of the Function this needs) only when it fails.

Default (TensorFlow's result): the trace keeps its old value and one StaleCaptureWarning per
changed name says so. With `tf.function(experimental_retrace_on_stale_captures=True)` the call
gets a trace made for the values now, kept beside the original (and evicted with it), so going back
to an older value finds its trace again instead of tracing once more.
"""
from __future__ import annotations

from . import retrace as _retrace
from . import stale as _stale


def check_frozen(cf, name, warned, lock, retrace, stacklevel):
    """The trace to run when a Python value `cf` froze is no longer the object it expects
    (`cf._guards.holds()` failed; trace/stale.py): `cf` itself if the value is equal; after a
    change, `cf` with one StaleCaptureWarning per name not yet in `warned` (TensorFlow's result),
    or, when `retrace(cf, changes)` is given (experimental_retrace_on_stale_captures), the trace
    for the values now (when the call's arguments are tensors and plain values: see
    stale.retraceable). `name`: the function's, for the warning; `lock` guards `warned`;
    `stacklevel`: frames from here to the user's call, for the warning."""
    guards = cf._guards
    if cf.stale_retrace is None:
        retrace = None
    if retrace is not None:
        for variant in cf.stale_variants:  # traces of the same call for other values, newest first
            if variant._guards is None or variant._guards.holds() or not variant._guards.changes():
                return variant
    changes = guards.changes()
    if changes and retrace is not None:
        return retrace(cf, changes)
    if changes:
        _stale.report(name, changes, warned, lock, stacklevel)
    guards.expect_now()  # the slow check once per change, not on every call
    return cf


def retrace_reasons(changes):
    """What a retrace for changed frozen values records as its reason (trace/retrace.py)."""
    texts = _stale.change_texts(changes)
    return [_retrace.Change(g.name, text, "stale capture") for (g, _), text in zip(changes, texts)]
