"""Stale captures: Python values a trace froze into its graph, checked on later calls.

A traced function that reads a Python global (`threshold = 0.5`), a closure variable or an
attribute of `self` bakes the value it saw into the graph; TensorFlow keeps using it silently after
the user changes it (tf#44980). Here each trace records guards: where such a value lives (the
globals dict and name, the closure cell, the instance held weakly and the attribute) and the value
the trace saw. Only plain values count (int, float, bool, str, bytes, None and tuples of them):
modules, functions, classes, Variables and tensors are looked up by reference, not frozen.

What the trace read is judged from the code, not by watching the reads: the names its bytecode
loads as globals (nested code objects included: comprehensions, lambdas, inner functions), its free
variables, and the `self.<name>` attributes its source loads; and the same for the plain helper
functions of its own module that it calls (a few calls deep). A value read only in a branch this
trace did not take is listed too: if it changes, the warning says so although this graph does not
depend on it (rare; the result is right either way).

The check is one C call when the values are globals of one module (`itemgetter(*names)(globals)
== expected`, unchanged objects compared by identity), else one generated expression (as dynamo's
guards are) of identity tests: `W0.get('threshold', MISSING) is E[0] and W1.cell_contents is E[1]`.
Only when it fails are the guards compared one by one with `==` to name the changed value. After a
warning the check expects the new value (E is updated in place), so a changed value costs the slow
check once, not on every call.
"""
from __future__ import annotations

import ast
import dis
import inspect
import logging
import operator
import sys
import textwrap
import types
import warnings
import weakref

from ..autograph import ast_guard  # pure standard library (see its docstring)

_log = logging.getLogger("eagerflow")


class StaleCaptureWarning(UserWarning):
    """A Python value a tf.function froze into its graph has changed since (`tf.errors.StaleCaptureWarning`):
    the graph still uses the old value."""

MAX_STALE_VARIANTS = 32  # retraces kept per trace for other frozen values (the opt-in mode)
HELPER_DEPTH = 3  # how deep calls into plain helper functions of the same module are followed
_PLAIN = (bool, int, float, str, bytes, type(None))
_MISSING = object()
# Per code object, computed on its first trace: (global names it loads and never stores, free
# variables it never assigns), and the `self.<name>` attributes its source loads and never stores.
_names_of = weakref.WeakKeyDictionary()
_self_attrs_of = weakref.WeakKeyDictionary()


def frozen_value(value) -> bool:
    """Whether a trace freezes `value` into its graph (rather than using it by reference)."""
    if type(value) in _PLAIN:
        return True
    return type(value) is tuple and all(frozen_value(v) for v in value)


class Guard:
    """One frozen value: where it lives, what the trace saw, how to read it now."""

    __slots__ = ("kind", "name", "where", "traced")

    def __init__(self, kind, name, where, traced):
        self.kind, self.name, self.where, self.traced = kind, name, where, traced

    def read(self):
        """The value now (_MISSING when it is gone: a deleted global, a dead instance)."""
        if self.kind == "global":
            return self.where.get(self.name, _MISSING)
        if self.kind == "closure variable":
            try:
                return self.where.cell_contents
            except ValueError:
                return _MISSING
        instance = self.where()
        return _MISSING if instance is None else vars(instance).get(self.name[len("self."):], _MISSING)

    def label(self):
        return f"{self.kind} '{self.name}'"


class Guards:
    """The guards of one trace, the values the fast check expects (the traced ones at first) and
    the check, built once: `read(where) == want` holds while nothing changed.

    The common case, globals of one module only, reads them all with one C call
    (`operator.itemgetter(*names)(module_globals)`) compared with the expected tuple (equal
    objects first by identity, so unchanged values cost no `__eq__`); any other mix runs a
    compiled identity check (`_compile`) with `where` None and `want` True."""

    __slots__ = ("guards", "expected", "read", "where", "want", "_single_dict")

    def __init__(self, guards):
        self.guards = tuple(guards)
        self.expected = [g.traced for g in self.guards]
        first = self.guards[0].where if self.guards else None
        self._single_dict = bool(self.guards) and all(g.kind == "global" and g.where is first for g in self.guards)
        if self._single_dict:
            self.read, self.where = operator.itemgetter(*[g.name for g in self.guards]), first
        else:
            self.read, self.where = _compile(self.guards, self.expected), None
        self._expect()

    def _expect(self):
        if not self._single_dict:
            self.want = True
        elif len(self.expected) == 1:
            self.want = self.expected[0]
        else:
            self.want = tuple(self.expected)

    def holds(self) -> bool:
        """Whether the fast check passes (what Function.__call__ does inline)."""
        try:
            return (self.read(self.where) == self.want) is True
        except Exception:  # a deleted global, a value whose == refuses: the slow check says what changed
            return False

    def changes(self):
        """[(guard, value now)] for the guards whose value differs from the traced one."""
        out = []
        for g in self.guards:
            now = g.read()
            if now is not g.traced and not (frozen_value(now) and type(now) is type(g.traced) and now == g.traced):
                out.append((g, now))
        return out

    def expect_now(self):
        """The fast check expects the current values from now on (the traced ones are kept for the
        messages); no recompiling, so a value changing on every call costs the slow check, not a
        compile. A thread reading a half-updated state only takes the slow check."""
        for i, g in enumerate(self.guards):
            self.expected[i] = g.read()
        self._expect()


def _compile(guards, expected):
    """`holds(_)` -> bool: every guarded value is still the very object expected (identity only).
    It never raises: a dead instance reads as no attributes, an emptied cell as a change."""
    env = {"MISSING": _MISSING, "NO_ATTRIBUTES": {}, "E": expected}
    terms = []
    for i, g in enumerate(guards):
        env[f"W{i}"] = g.where
        if g.kind == "global":
            terms.append(f"W{i}.get({g.name!r}, MISSING) is E[{i}]")
        elif g.kind == "closure variable":
            terms.append(f"W{i}.cell_contents is E[{i}]")
        else:  # the instance, held weakly
            terms.append(f"getattr(W{i}(), '__dict__', NO_ATTRIBUTES).get({g.name[len('self.'):]!r}, MISSING) is E[{i}]")
    source = (f"def holds(_):\n    try:\n        return {' and '.join(terms) or 'True'}\n"
              f"    except ValueError:\n        return False\n")
    exec(compile(source, "<eagerflow stale-capture guards>", "exec"), env)
    return env["holds"]


def collect(python_function, instance=None):
    """Guards for the plain values `python_function` (the user's, before AutoGraph) can read as
    globals, closure variables and, for a method, attributes of `instance`, and the globals and
    closure variables of the plain Python helpers of its own module it calls (found the same way,
    HELPER_DEPTH calls deep); None when there are none."""
    fn = inspect.unwrap(python_function)
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    guards = []
    _collect_function(fn, getattr(fn, "__module__", None), guards, set(), HELPER_DEPTH)
    if instance is not None and hasattr(instance, "__dict__"):
        state = vars(instance)
        for attr in sorted(_self_attributes(fn, code)):
            if attr in state and frozen_value(state[attr]):
                guards.append(Guard("attribute", "self." + attr, weakref.ref(instance), state[attr]))
    return Guards(guards) if guards else None


def _collect_function(fn, module, guards, seen, depth):
    code = fn.__code__
    seen.add(code)
    fn_globals = fn.__globals__
    names = _names_of.get(code)
    if names is None:
        names = _names_of[code] = (sorted(_global_loads(code)), frozenset(_names(code, _WRITES_CELL)))
    global_names, written = names
    known = {g.name for g in guards if g.kind == "global" and g.where is fn_globals}
    for name in global_names:
        if name not in fn_globals:
            continue
        value = fn_globals[name]
        if frozen_value(value):
            if name not in known:
                guards.append(Guard("global", name, fn_globals, value))
        elif (depth > 0 and type(value) is types.FunctionType and value.__module__ == module
              and value.__code__ not in seen):  # a helper of the same module: what it reads is frozen too
            _collect_function(value, module, guards, seen, depth - 1)
    for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
        if name in written:
            continue
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if frozen_value(value):
            guards.append(Guard("closure variable", name, cell, value))


def retraceable(args, kwargs) -> bool:
    """Whether a trace may keep its call's arguments to retrace for new frozen values: only
    TensorSpecs and plain values (a trace must not hold a user's object, which keys it weakly)."""
    from ..core import nest
    from ..core.tensor import TensorSpec
    leaves = nest.flatten((args, kwargs), expand_composites=True)
    return all(isinstance(leaf, TensorSpec) or frozen_value(leaf) for leaf in leaves)


def _global_loads(code):
    """Names loaded as globals and never stored (a function writing a global has a side effect,
    not a setting), in `code` and the code objects nested in it."""
    loads, stores = set(), set()
    _scan(code, loads, stores)
    return loads - stores


def _scan(code, loads, stores):
    loads.update(_names(code, _LOADS_GLOBAL))
    stores.update(_names(code, _STORES_GLOBAL))
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _scan(const, loads, stores)


_LOADS_GLOBAL = frozenset(dis.opmap[n] for n in ("LOAD_GLOBAL", "LOAD_NAME"))
_STORES_GLOBAL = frozenset(dis.opmap[n] for n in ("STORE_GLOBAL", "DELETE_GLOBAL", "STORE_NAME"))
_WRITES_CELL = frozenset(dis.opmap[n] for n in ("STORE_DEREF", "DELETE_DEREF"))
_GLOBAL_ARG_SHIFT = 1 if sys.version_info >= (3, 11) else 0  # LOAD_GLOBAL's low bit: push NULL first


def _names(code, opcodes):
    """The names the instructions of `code` with these opcodes name, read from the raw bytecode:
    what `dis.get_instructions` gives as their argval, without building every instruction (which
    costs a first tf.function call about 0.2 ms each time)."""
    raw, names, extended = code.co_code, [], 0
    cell_name = getattr(code, "_varname_from_oparg", None)  # 3.11+: cells are indexed among all locals
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | extended
        extended = arg << 8 if op == dis.EXTENDED_ARG else 0
        if op not in opcodes:
            continue
        if op in _WRITES_CELL:
            names.append(cell_name(arg) if cell_name else (code.co_cellvars + code.co_freevars)[arg])
        elif op == _LOAD_GLOBAL:
            names.append(code.co_names[arg >> _GLOBAL_ARG_SHIFT])
        else:
            names.append(code.co_names[arg])
    return names


_LOAD_GLOBAL = dis.opmap["LOAD_GLOBAL"]


def _self_attributes(fn, code):
    """Names loaded as `<first parameter>.<name>` in the function's source (cached per code object)."""
    found = _self_attrs_of.get(code)
    if found is None:
        found = frozenset()
        params = code.co_varnames[:code.co_argcount]
        if params:
            try:
                tree = ast_guard.parse(textwrap.dedent(inspect.getsource(fn)))
            except (OSError, TypeError, SyntaxError):
                tree = None
            if tree is not None:
                on_self = [node for node in ast.walk(tree)
                           if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                           and node.value.id == params[0]]
                stored = {node.attr for node in on_self if not isinstance(node.ctx, ast.Load)}
                found = frozenset(node.attr for node in on_self if isinstance(node.ctx, ast.Load)) - stored
        _self_attrs_of[code] = found
    return found


def report(function_name, changes, warned, lock, stacklevel):
    """Warns (StaleCaptureWarning and the eagerflow logger) once per changed name not in `warned`;
    the names are claimed under `lock`, the warnings emitted outside it (a log handler may call
    anything, this function included)."""
    with lock:
        fresh = [(g, now) for g, now in changes if g.name not in warned]
        warned.update(g.name for g, _ in fresh)
    for guard, now in fresh:
        now_text = "deleted" if now is _MISSING else repr(now)
        message = (f"tf.function {function_name!r}: {guard.label()} was {guard.traced!r} when traced, is "
                   f"{now_text} now: the graph still uses {guard.traced!r}; pass it as an argument or use a "
                   f"tf.Variable")
        if _log.hasHandlers():  # a program that set up logging gets the line there too; without, Python's
            # last-resort handler would print it a second time beside the warning
            _log.warning("%s", message)
        warnings.warn(message, StaleCaptureWarning, stacklevel=stacklevel + 1)


def change_texts(changes):
    """The retrace reason for changed guards, as trace/retrace.py's other reasons read."""
    return [f"{g.label()}: {g.traced!r} -> {'deleted' if now is _MISSING else repr(now)}" for g, now in changes]
