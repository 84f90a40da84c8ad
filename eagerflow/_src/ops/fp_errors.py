"""NumPy's floating-point warnings, silenced around kernels without touching the user's settings.

TensorFlow computes 1/0 = inf, log(0) = -inf, overflow to inf and nan -> int casts without a word;
NumPy warns ("divide by zero encountered in log"). So kernels run with NumPy's floating-point error
handling set to "ignore", eagerly (`bind`, ops/registry.py) and in generated code alike (the whole
generated function, once per call: trace/concrete.py), and only there: neither `warnings.filters` nor the NumPy
error state the user sees (`np.geterr()`) changes, so the user's own NumPy code still warns.

Cost (2-core dev machine, NumPy 2.4): a `with np.errstate(all="ignore")` block costs about 850 ns,
more than a small kernel. NumPy 2 keeps the error state in a context variable: setting and
resetting it with a prebuilt "ignore" state (`enter`/`leave`) costs about 100 ns, and running the
kernel inside a prebuilt context that holds that state (`run_quiet`) about 6 ns, so eager kernels
and generated functions take the latter, falling back to the former when the context is in use. The variable's name
is private to NumPy; NumPy 1.x keeps a per-thread error object instead, switched with
`seterrobj` (~150 ns), and `np.errstate` remains the last resort.
Ops whose kernels do no floating-point arithmetic (moving, comparing, selecting values) skip even
that: NO_FP_WARNINGS below, checked by tests/ops/test_fp_errors.py; so do other ops on integer or
bool values (the eager verdict records it per dtype, ops/validation.py), unless INTEGER_WARNINGS.
"""
from __future__ import annotations

import contextvars

import numpy as np

try:  # NumPy >= 2: the error state is a context variable
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

    IGNORE = _make_extobj(all="ignore")
    enter = _extobj_contextvar.set  # enter(IGNORE) -> token
    leave = _extobj_contextvar.reset  # leave(token)
    # A context of our own holding only the "ignore" state: `run_quiet(kernel, *args)` runs the
    # kernel in it for a few ns (a C call). Kernels read no other context variable. A context is
    # entered by one caller at a time: a second entry (another thread, or a kernel that runs ops)
    # raises RuntimeError "cannot enter context", and the caller falls back to `quiet_call`.
    _QUIET_CONTEXT = contextvars.Context()
    _QUIET_CONTEXT.run(_extobj_contextvar.set, IGNORE)
except ImportError:  # NumPy 1.x: a per-thread error object, [bufsize, errmask, errcall]
    IGNORE = _QUIET_CONTEXT = None
    try:
        from numpy.core.umath import geterrobj as _geterrobj, seterrobj as _seterrobj

        def enter(_state):
            old = _geterrobj()
            _seterrobj([old[0], 0, old[2]] if old[1] else old)  # errmask 0: every error ignored
            return old

        def leave(old):
            _seterrobj(old)
    except ImportError:  # the public context manager (~1 µs)
        def enter(_state):
            ctx = np.errstate(all="ignore")
            ctx.__enter__()
            return ctx

        def leave(ctx):
            ctx.__exit__(None, None, None)


def busy(err: RuntimeError) -> bool:
    """Whether `err` is run_quiet's refusal to enter its context a second time."""
    return str(err).startswith("cannot enter context")


def switched_call(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` with the error state switched to "ignore" and back (works anywhere)."""
    token = enter(IGNORE)
    try:
        return fn(*args, **kwargs)
    finally:
        leave(token)


# run_quiet(fn, *args, **kwargs): the fast way (may refuse with `busy`); quiet_call: always works.
run_quiet = switched_call if _QUIET_CONTEXT is None else _QUIET_CONTEXT.run


def quiet_call(fn, *args, **kwargs):
    """`fn(*args, **kwargs)` with NumPy's floating-point warnings off, wherever it is called from."""
    try:
        return run_quiet(fn, *args, **kwargs)
    except RuntimeError as err:
        if not busy(err):
            raise
    return switched_call(fn, *args, **kwargs)


# Ops whose kernels only move, compare or select values (or do integer work): NumPy raises no
# floating-point warning there, so `bind` runs them without switching the error state.
NO_FP_WARNINGS = frozenset({
    "Identity", "StopGradient", "Const", "Placeholder", "ReadVariableOp", "AssignVariableOp",
    "Reshape", "Transpose", "ConcatV2", "Pack", "Unpack", "Split", "SplitV", "Slice", "StridedSlice",
    "GatherV2", "GatherNd", "Shape", "Size", "Rank", "ExpandDims", "Squeeze", "Tile", "BroadcastTo",
    "ReverseV2", "ZerosLike", "OnesLike", "SelectV2", "Where",
    "Relu", "Maximum", "Minimum", "Abs", "Neg", "Sign", "Floor", "Ceil",
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
    "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert",
    "IsNan", "IsInf", "IsFinite", "Max", "Min", "ArgMax", "ArgMin",
})

# Ops NumPy can warn in on integer values too (integer division by zero, a mean's division).
INTEGER_WARNINGS = frozenset({"FloorDiv", "FloorMod", "DivNoNan", "RealDiv", "Mean", "Reciprocal", "Pow"})
