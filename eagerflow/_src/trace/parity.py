"""The eager/graph parity check (an eagerflow extension: TensorFlow has no such switch).

`tf.config.experimental_check_parity(True)` (or `tf.function(f, experimental_check_parity=True)`)
makes each trace made while it is on check its first N calls (3 unless set): after the graph runs,
the plain Python function runs again eagerly on the same inputs, as `run_functions_eagerly` runs it
(AutoGraph off: Python control flow on concrete values; nested tf.functions run their Python too),
and the two results are compared: nest structure, dtype, shape, and values within a tolerance set by
the dtype (sqrt of the float type's machine epsilon, relative and absolute; exact for integers,
bools and strings). A difference is what a frozen Python global or a Python branch taken at trace
time does to a result; it is reported as a `tf.errors.ParityWarning` (also on the `eagerflow`
logger), or raised as `tf.errors.ParityError` with `mode="raise"`, naming the first output that
differs with both values, and where it can the first op that differs (see `locate.py`).

What the check leaves as it was (the call's result is always the graph's):
- Variables: the values of the variables the graph uses are saved before the graph runs; after it
  they are saved again, put back to the "before" values for the eager run (so it sees what the graph
  saw), compared with what the eager run left (a difference is reported under `variable 'name'`),
  and set back to the graph's. The program sees only the graph's effects.
- Random numbers: an output computed from a stateful random op is not compared (the report of any
  other difference says so); the global seed sequence and every random stream are saved before the
  eager run and restored after it, so the user's random stream continues as if no check ran.
- Printing: `tf.print` and Python `print` in the eager run write nowhere (sys.stdout and sys.stderr are
  redirected while it runs, in every thread: a debugging tool, not for production).
Cost when off: nothing on the call path; `arm` (one flag check) runs once per trace. A checked trace
runs its generated code through `_Checked` until its calls are used up, then the plain code again.
Traces made before the switch was turned on are not checked (`f.cache_clear()` re-arms them); nor
are traces taking a Variable, dataset or iterator argument (an `eagerflow` log record at INFO says so),
nor calls made inside another trace (the enclosing function's check covers them).
While an eager run goes on, `run_functions_eagerly` is on process-wide (other threads' tf.function
calls run their Python meanwhile: the same results, unchecked).
Checks of concurrent calls are serialised by one lock.
"""
from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import threading
import warnings
import weakref

import numpy as np

from ..core import context as _context
from ..core import nest
from ..core.context import state
from ..core.errors import ParityError, ParityWarning
from ..core.tensor import TensorSpec, wrap_array

_log = logging.getLogger("eagerflow")
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep  # eagerflow/
_MODES = ("warn", "raise")
RANDOM_OPS = frozenset({"RandomStandardNormal", "RandomUniform", "TruncatedNormal", "RandomUniformInt",
                        "RandomShuffle", "Multinomial"})


class _Settings:
    enabled = False
    calls = 3
    mode = "warn"
    rtol = None
    atol = None


_settings = _Settings()
_check_lock = threading.RLock()
_inside = threading.local()  # .active: a check is running in this thread (its own traces are not armed)


def experimental_check_parity(enabled=True, calls=3, mode="warn", rtol=None, atol=None):
    """Turns the eager/graph parity check on or off for every tf.function (eagerflow extension).

    Args:
      enabled: on (True) or off (False).
      calls: how many calls of each new trace are checked (the first `calls`).
      mode: "warn" (a `tf.errors.ParityWarning` and an `eagerflow` log record) or "raise"
        (`tf.errors.ParityError` from the call).
      rtol, atol: tolerances for floating-point values; None: sqrt(machine epsilon) of the dtype.
    A `tf.function(..., experimental_check_parity=True/False)` setting wins over this switch.
    See trace/parity.py for what the check runs and what it leaves untouched."""
    if mode not in _MODES:
        raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
    if int(calls) < 0:
        raise ValueError(f"calls must be >= 0, got {calls}")
    _settings.enabled, _settings.calls, _settings.mode = bool(enabled), int(calls), mode
    _settings.rtol, _settings.atol = rtol, atol


def experimental_get_check_parity() -> bool:
    """Whether the global parity check is on (eagerflow extension)."""
    return _settings.enabled


def arm(function, cf, args, kwargs):
    """Called once per trace (Function._trace, trace/function.py): when the check is on for `function`, `cf` runs
    through `_Checked` for its first calls. `args`/`kwargs`: the traced call, TensorSpecs where
    tensors went."""
    wanted = getattr(function, "_check_parity", None)
    if not (_settings.enabled if wanted is None else wanted) or getattr(_inside, "active", False):
        return
    if _settings.calls <= 0 or isinstance(cf._fn, _Checked):
        return
    if any(not hasattr(t, "_value") for t in cf.graph.external_captures):
        return  # runs only inlined in its caller's trace, where the caller's check covers it
    leaves = nest.flatten((args, kwargs), expand_composites=True)
    if any(type(leaf).__module__.startswith("eagerflow._src.trace") for leaf in leaves):
        _log.info("parity check: %s takes a Variable, dataset or iterator argument: not checked", function._name)
        return
    if sum(isinstance(leaf, TensorSpec) for leaf in leaves) != cf._n_params:
        return
    checked = _Checked(function, cf, args, kwargs, _settings.calls)
    checked.fn = cf.run_generated_code_through(checked)


class _Checked:
    """A trace's generated code, checked against the eager run for its first `left` calls. It holds
    the Function and the ConcreteFunction weakly (the ConcreteFunction holds it)."""

    def __init__(self, function, cf, args, kwargs, left):
        self._function = weakref.ref(function)
        self._cf = weakref.ref(cf)
        self.fn = None  # the generated code, set by check_parity once calls go through this wrapper
        self._args, self._kwargs = args, kwargs
        self.left = left
        self.mode = getattr(function, "_check_parity_mode", None) or _settings.mode

    def __call__(self, *arrays):
        cf = self._cf()
        with _check_lock:
            self.left -= 1
            if self.left <= 0 and cf is not None:
                cf.run_generated_code_through(self.fn)  # the plain generated code from now on
            function = self._function()
            if cf is None or function is None or getattr(_inside, "active", False):
                return self.fn(*arrays)
            variables = _variables_of(cf)
            before = _snapshot(variables)
            outputs = self.fn(*arrays)  # the call's result; its errors are the call's errors
            report = None
            try:
                _inside.active = True
                report = _check(function, cf, self._args, self._kwargs, arrays, outputs, variables, before)
            except Exception as err:  # noqa: BLE001 - a check that cannot run must not break the call
                _log.warning("parity check of %s could not run: %r", function._name, err)
            finally:
                _inside.active = False
        if report is not None:
            _report(report, self.mode)
        return outputs


def _check(function, cf, args, kwargs, arrays, outputs, variables, before):
    """The report text of the first difference between this call's graph result and the eager
    run, or None when they agree."""
    after = _snapshot(variables)
    random_state = _save_random()
    _restore(variables, before)
    try:
        eager, raised = _run_eagerly(function, args, kwargs, arrays)
        eager_after = _snapshot(variables)
    finally:
        _restore(variables, after)
        _restore_random(random_state)
    graph_result = cf._wrap(list(outputs))
    random_paths = _random_output_paths(cf)
    name = function._name
    if raised is not None:
        difference = f"the eager run raised {type(raised).__name__}: {raised}"
    else:
        difference = _first_difference(graph_result, eager, random_paths)
    if difference is None:
        difference = _variable_difference(variables, after, eager_after)
    if difference is None:
        return None
    lines = [f"tf.function '{name}': the graph and the eager run of its Python disagree: {difference}"]
    if random_paths:
        lines.append(f"Not compared: {', '.join(sorted(random_paths))} (computed from stateful random ops, "
                     f"which draw different numbers in the graph and eagerly).")
    try:
        from .parity_locate import first_differing_op
        located = first_differing_op(function, cf, args, kwargs, arrays, variables, before, after)
    except Exception as err:  # noqa: BLE001 - best effort
        located = f"(the first differing op could not be found: {type(err).__name__}: {err})"
    if located:
        lines.append(located)
    lines.append("Python values read while tracing (globals, closures, Python branches) are frozen into the graph; "
                 "pass them as arguments or use a tf.Variable.")
    return "\n".join(lines)


def _run_eagerly(function, args, kwargs, arrays):
    """(result, None) or (None, exception) of the Python function run eagerly on the call's
    values: no tapes, AutoGraph off, nested tf.functions as Python, printing silenced."""
    it = iter(arrays)
    call_args, call_kwargs = nest.map_structure(
        lambda leaf: wrap_array(next(it)) if isinstance(leaf, TensorSpec) else leaf, (tuple(args), dict(kwargs)),
        expand_composites=True)
    saved_tapes, saved_eager = state.tapes, _context._run_functions_eagerly
    state.tapes = []
    _context._run_functions_eagerly = True
    try:
        with silenced():
            return function.python_function(*call_args, **call_kwargs), None
    except Exception as err:  # noqa: BLE001 - reported as the difference
        return None, err
    finally:
        state.tapes = saved_tapes
        _context._run_functions_eagerly = saved_eager


@contextlib.contextmanager
def silenced():
    """sys.stdout and sys.stderr to nowhere (what tf.print and print write in the shadow runs)."""
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        yield


# --- state kept as it was ---
def _variables_of(cf):
    return list(cf.graph.variables)


def _snapshot(variables):
    return [None if v._array is None else v._array.copy() for v in variables]


def _restore(variables, values):
    for v, value in zip(variables, values):
        v._array = None if value is None else value.copy()


def _save_random():
    from ..core.context import random_seeds
    from ..ops.random.draws import _streams
    with _streams._lock:
        streams = [(k, g, g.bit_generator.state) for k, g in _streams._by_key.items()]
        unseeded = _streams._unseeded
        return (random_seeds._global_seed, random_seeds._op_seeds.getstate(), streams,
                unseeded, None if unseeded is None else unseeded.bit_generator.state)


def _restore_random(saved):
    from ..core.context import random_seeds
    from ..ops.random.draws import _streams
    global_seed, op_seeds, streams, unseeded, unseeded_state = saved
    with random_seeds._lock:
        random_seeds._global_seed = global_seed
        random_seeds._op_seeds.setstate(op_seeds)
    with _streams._lock:
        _streams._by_key.clear()
        for key, gen, gen_state in streams:
            gen.bit_generator.state = gen_state
            _streams._by_key[key] = gen
        _streams._unseeded = unseeded
        if unseeded is not None:
            unseeded.bit_generator.state = unseeded_state


# --- comparison ---
def _paths(structure, path="output"):
    """[(path text, leaf)] in nest.flatten's order."""
    if isinstance(structure, dict):
        return [p for k in nest._sorted_keys(structure) for p in _paths(structure[k], f"{path}[{k!r}]")]
    if isinstance(structure, tuple) and hasattr(type(structure), "_fields"):
        return [p for f, v in zip(structure._fields, structure) for p in _paths(v, f"{path}.{f}")]
    if isinstance(structure, (list, tuple)):
        return [p for i, v in enumerate(structure) for p in _paths(v, f"{path}[{i}]")]
    return [(path, structure)]


def _random_output_paths(cf):
    """The output paths whose values come from a stateful random op (not compared)."""
    random_ops = [op for op in cf.graph.get_operations() if _draws_random(op)]
    if not random_ops:
        return set()
    tainted = set()
    for op in cf.graph.get_operations():
        if op in random_ops or any(id(t.op) in tainted for t in op.inputs if getattr(t, "op", None) is not None):
            tainted.add(id(op))
    flat = [t for t in nest.flatten(cf.structured_outputs, expand_composites=True)]
    return {path for (path, leaf) in _paths(cf.structured_outputs)
            if leaf is not None and id(getattr(leaf, "op", None)) in tainted} if flat else set()


def _draws_random(op):
    if op.type in RANDOM_OPS:
        return True
    for value in op.attrs.values():
        graph = value if hasattr(value, "get_operations") else getattr(value, "graph", None)
        if graph is not None and hasattr(graph, "get_operations") and any(
                _draws_random(inner) for inner in graph.get_operations()):
            return True
    return False


def tolerance(dtype):
    """(rtol, atol) for values of this NumPy dtype: the user's, else sqrt(eps) for floats, 0 otherwise."""
    if np.issubdtype(dtype, np.inexact):
        eps = float(np.finfo(dtype).eps) if dtype != object else 0.0
        default = eps ** 0.5
        return (default if _settings.rtol is None else _settings.rtol,
                default if _settings.atol is None else _settings.atol)
    return 0.0, 0.0


def value_difference(graph_value, eager_value):
    """Why two leaf values differ in words, or None when they agree."""
    if not isinstance(eager_value, (np.ndarray, np.generic)) and not hasattr(eager_value, "_value"):
        eager_value = _as_tensor(eager_value)  # a Python number returned eagerly: the graph converted it
    g = np.asarray(getattr(graph_value, "_value", graph_value))
    e = np.asarray(getattr(eager_value, "_value", eager_value))
    if g.shape != e.shape:
        return f"shape {list(g.shape)} in the graph, {list(e.shape)} eagerly"
    if g.dtype != e.dtype and not (g.dtype.kind in "SUO" and e.dtype.kind in "SUO"):
        return f"dtype {g.dtype} in the graph, {e.dtype} eagerly"
    if g.dtype.kind in "SUO":
        same = np.array(g == e, dtype=bool)
    else:
        rtol, atol = tolerance(g.dtype)
        same = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True) if g.dtype.kind in "fc" else (g == e)
    same = np.asarray(same)
    if same.all():
        return None
    where = tuple(int(i) for i in np.argwhere(~same)[0]) if same.ndim else ()
    at = f" (first at index {list(where)}: {g[where]} vs {e[where]})" if where else ""
    return f"graph {summarize(g)}, eager {summarize(e)}{at}"


def _as_tensor(value):
    from ..core.convert import convert_to_tensor
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        return value


def summarize(value) -> str:
    a = np.asarray(value)
    text = np.array2string(a, threshold=8, edgeitems=3, precision=6, separator=", ") if a.ndim else str(a[()])
    return f"{text} ({a.dtype}, shape {list(a.shape)})"


def _first_difference(graph_result, eager, skipped):
    graph_leaves = _paths(graph_result)
    eager_leaves = _paths(eager)
    if [p for p, _ in graph_leaves] != [p for p, _ in eager_leaves]:
        return (f"the output structures differ: graph {[p for p, _ in graph_leaves]}, "
                f"eager {[p for p, _ in eager_leaves]}")
    for (path, g), (_, e) in zip(graph_leaves, eager_leaves):
        if path in skipped:
            continue
        if (g is None) != (e is None):
            return f"{path} is {g!r} in the graph, {e!r} eagerly"
        if g is None:
            continue
        why = value_difference(g, e)
        if why is not None:
            return f"{path}: {why}"
    return None


def _variable_difference(variables, graph_values, eager_values):
    for v, g, e in zip(variables, graph_values, eager_values):
        if g is None or e is None:
            continue
        why = value_difference(g, e)
        if why is not None:
            return f"variable '{v.name}' after the call: {why}"
    return None


def _report(text, mode):
    if mode == "raise":
        raise ParityError(text)
    if _log.hasHandlers():  # a program that set up logging gets the line there too; without, Python's
        # last-resort handler would print it a second time beside the warning
        _log.warning("%s", text)
    warnings.warn(text, ParityWarning, stacklevel=_user_stacklevel())


def _user_stacklevel() -> int:
    """The stacklevel of the innermost frame outside eagerflow (the user's call)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level
