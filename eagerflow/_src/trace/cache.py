"""The trace cache of one tf.function: call key -> ConcreteFunction, bounded, inspectable, thread-safe.

Dispatch rules (TensorFlow 2.21's tracing types, checked against it; keys built in signature.py):
  * a tensor or a NumPy array/scalar: by dtype and shape (`f(np.zeros(2))` and `f(np.ones(2))`
    share a trace);
  * a Python bool/int/float/str/None: by value, equal as Python compares them, so `f(1)`, `f(1.0)`
    and `f(True)` share one trace (made with the first), as do `0.0` and `-0.0`, and every NaN;
    `f(1)` and `f("1")` do not;
  * tuples, lists and namedtuples: by type and elements (a list is not a tuple); dicts and every
    other `Mapping`: by keys and values, whatever the mapping type (`dict` = `OrderedDict`);
  * a Variable: by dtype, shape, trainability and the aliasing pattern among the arguments
    (`f(v1, v2)` and `f(v2, v1)` share a trace, `f(v1, v1)` does not); fed as its handle;
  * any other hashable object (a tf.Module, a frozen dataclass, a function): by its
    `__hash__`/`__eq__`, held weakly where it can be, so a dropped object's traces die with it;
  * a tf.data Dataset: by its pipeline, its sources' tensors and its counts fed as inputs, so
    `ds.batch(3)` and `ds.batch(4)` share a trace (TensorFlow keys by element spec); a pipeline
    the trace cannot rebuild on placeholders (a stream such as filter/flat_map/from_generator
    anywhere in it, shuffle, zip, ...) by identity, weakly, so a trace never runs on a dataset
    whose data it cannot feed (trace/datasets.py);
  * a tf.data iterator: by its element spec, as TensorFlow; it is fed as a resource tensor and
    IteratorGetNext pulls from it when the function runs, so each call advances it
    (data/iterator.py);
  * an unhashable object: TensorFlow's TypeError ("Could not generate a generic TraceType ..."),
    on every call, with the fix. Nothing is ever keyed by a bare id().
A method binds through a weak reference to its instance (Function.__get__): each instance has its
own traces, which die with it; an unhashable `self` raises TypeError.

Lookup: one dict get on the exact call key (the hot path, done inline by Function.__call__; not
even that when the tensors' specs are those of the last call, `last_fast`). On a
miss: the call's canonical key (defaults applied, keywords bound), then traces with unknown
dimensions that accept it, then a new trace, for `reduce_retracing` of the most specific key the
call and the latest compatible trace both fit (signature.relax).

Bound: at most `maxsize` traces per function (default 256, `tf.function(experimental_max_traces=)`
or `tf.config.set_function_max_traces`); past it the least recently used trace is evicted, with one
warning naming the function. A function that compiles through XLA (jit_compile) has no bound unless
one is set (by either of those): TensorFlow bounds neither, and a jit trace evicted and called again
costs an XLA compile, not only a trace (a variable-length input then compiled about twice per length).
A trace that leaves the cache releases what it compiled (ConcreteFunction.release_compiled: XLA's
executables go at once, not at the next garbage collection; the trace recompiles if called again).
`info()` is functools.lru_cache's CacheInfo plus evictions.

Threads: the lock guards the tables only, never user code. A key being traced is marked in flight:
a second caller of the same key waits for it (one trace), other keys trace in parallel; the waiters
are released only once the trace is in the tables, so they find it rather than trace again. A caller
that would wait on a thread that (transitively) waits on it traces the key itself instead, so
functions tracing each other from two threads cannot deadlock.
"""
from __future__ import annotations

import collections
import itertools
import logging
import threading
import weakref

from . import signature as sig
from .placeholders import rebind

_log = logging.getLogger("eagerflow")

DEFAULT_MAX_TRACES = 256
_default_max_traces = DEFAULT_MAX_TRACES
_default_chosen = False  # set_function_max_traces was called: its bound holds for jit functions too


def set_function_max_traces(n):
    """The bound on traces kept per tf.function, for functions that do not set their own (once
    called with another bound than the default, jit_compile functions included; before, they have none)."""
    global _default_max_traces, _default_chosen
    if n is not None and (not isinstance(n, int) or n < 1):
        raise ValueError(f"max traces must be a positive int or None (no bound), got {n!r}")
    _default_max_traces = n
    _default_chosen = n != DEFAULT_MAX_TRACES


def get_function_max_traces():
    return _default_max_traces


CacheInfo = collections.namedtuple("CacheInfo", "hits misses maxsize currsize evictions")
CacheInfo.__doc__ = """Like functools.lru_cache's: calls served by an existing trace, calls (and
get_concrete_function requests) that traced, the bound, the traces kept, the traces evicted."""


def table_key(pair):
    """The dict key a call with this (args, kwargs) key uses: the bare args key for calls without
    keywords (what the hot path builds), tagged otherwise."""
    args, kw = pair
    return args if not kw else ("K", args, kw)


_NO_ENTRY = (object(), None)  # its key equals no hot-path key (a tuple; `()` for a call without arguments)


class _Trace:
    __slots__ = ("general", "cf", "call_keys", "weak", "__weakref__")

    def __init__(self, general, cf):
        self.general, self.cf, self.call_keys, self.weak = general, cf, [], []


class _InFlight:
    """A key one thread is tracing; others with the same key wait for its result."""

    def __init__(self):
        self.owner = threading.get_ident()
        self.done = threading.Event()


_waits_lock = threading.Lock()
_waiting_on = {}  # thread ident -> _InFlight it waits for (the wait-for graph, to refuse cycles)


def _wait_for(flight) -> bool:
    """Waits for another thread's trace; False (no wait) when waiting could close a cycle."""
    me = threading.get_ident()
    with _waits_lock:
        owner = flight.owner
        seen = set()
        while owner not in seen:
            if owner == me:
                return False
            seen.add(owner)
            waited = _waiting_on.get(owner)
            if waited is None:
                break
            owner = waited.owner
        _waiting_on[me] = flight
    try:
        flight.done.wait()
    finally:
        with _waits_lock:
            _waiting_on.pop(me, None)
    return True


class TraceCache:
    """All traces of one Function. `table` is read without the lock by the hot path."""

    def __init__(self, function_name, maxsize=None, compiles=None):
        """`compiles()`: whether the function's traces compile through XLA (read when one is added:
        tf.config.optimizer.set_jit may change it); such a function has no default bound."""
        self.function_name = function_name
        self._compiles = compiles
        self.table = {}  # table key -> ConcreteFunction
        # Calls of eager tensors only, keyed (dtype, shape, dtype, shape, ...): what Function.__call__ reads
        # first. A memo of `table`, emptied whenever a trace leaves the cache.
        self.fast = {}
        self.hits = 0
        self.misses = 0
        self.evictions = 0
        self.mru = None  # the trace used last: a hit on it skips the LRU bookkeeping
        # (hot-path key, trace) of the last call the hot path served: a call with the same key takes it
        # without the dict lookup or the LRU bookkeeping. One tuple, so threads never see a key with
        # another key's trace. Reset whenever a trace leaves the cache.
        self.last_fast = _NO_ENTRY
        self._maxsize = maxsize  # None: the global default, read when needed
        self._traces = collections.OrderedDict()  # ConcreteFunction -> _Trace, least recently used first
        self._relaxed = []  # traces with unknown dims: the only ones a new key may fit without equality
        self._inflight = {}
        self._lock = threading.Lock()
        self._dead = False
        self._warned_eviction = False
        self.last_dropped = None  # the key of the last trace evicted or dropped: retraces are explained against it
        self_ref = weakref.ref(self)

        def on_death(_, self_ref=self_ref):  # an object in a stored key died: drop its traces
            cache = self_ref()
            if cache is not None:
                cache._dead = True
                if cache._lock.acquire(blocking=False):  # else the holder purges before it lets go
                    try:
                        cache._purge()
                    finally:
                        cache._lock.release()
        self._on_death = on_death

    # --- statistics ---
    @property
    def maxsize(self):
        if self._maxsize is not None:
            return self._maxsize
        if not _default_chosen and self._compiles is not None and self._compiles():
            return None
        return _default_max_traces

    def info(self) -> CacheInfo:
        with self._lock:
            self._purge()
            return CacheInfo(self.hits, self.misses, self.maxsize, len(self._traces), self.evictions)

    def clear(self):
        with self._lock:
            for trace in self._traces.values():
                _release(trace.cf)
            self.table.clear()
            self.fast.clear()
            self._traces.clear()
            self._relaxed.clear()
            self.mru = None
            self.last_fast = _NO_ENTRY
            self.last_dropped = None

    def concrete_functions(self):
        return [t.cf for t in list(self._traces.values())]  # (list(): one step, no thread switch inside)

    def general_keys(self):
        return [t.general for t in list(self._traces.values())]

    def recent_general_keys(self, n):
        """The keys of the `n` most recently used traces, most recent first."""
        return [t.general for t in itertools.islice(reversed(self._traces.values()), n)]

    def touch(self, cf):
        """A hit on a trace other than the last one used: it becomes the most recently used.

        The hot path holds no lock, and moving an entry while another thread walks `_traces` under
        the lock (find, plan's recent keys) raises "OrderedDict mutated during iteration" there:
        so the move happens only when the lock is free. A touch skipped while another thread holds
        it leaves the LRU order slightly stale, which only affects which trace an eviction picks."""
        self.mru = cf
        if self._lock.acquire(blocking=False):
            try:
                self._traces.move_to_end(cf)
            except KeyError:  # evicted meanwhile by another thread
                pass
            finally:
                self._lock.release()

    def fast_hit(self, key, cf):
        """A hot-path hit through the `fast` table: remembered as the last one, and LRU-touched."""
        self.last_fast = (key, cf)
        if cf is not self.mru:
            self.touch(cf)

    # --- lookup ---
    def find(self, pair):
        """A trace serving a call with this (args, kwargs) key, or None; call with the lock held."""
        self._purge()
        cf = self.table.get(table_key(pair))
        if cf is not None:
            return cf
        for trace in self._relaxed:
            if sig.accepts(trace.general, pair):
                self._remember(trace, pair)
                return trace.cf
        for trace in self._traces.values():  # a key added by get_concrete_function
            if trace.general == pair:
                self._remember(trace, pair)
                return trace.cf
        return None

    def get_or_trace(self, call_key, plan, trace):
        """The ConcreteFunction for `call_key`: found, or made by `trace(general)` outside the lock.

        `plan(cache)` runs under the lock after a failed lookup and returns the general key to trace
        (the call key, or its relaxation); `trace` may run user code."""
        while True:
            with self._lock:
                cf = self.find(call_key)
                if cf is not None:
                    self.hits += 1
                    return cf
                general = plan(self)
                flight = self._inflight.get(general)
                owner = flight is None
                if owner:
                    flight = self._inflight[general] = _InFlight()
            if owner or not _wait_for(flight):
                break
        # The trace enters the tables before its waiters are released: a waiter woken earlier finds
        # nothing, traces the key again (a variable-creating function then traces a graph that reads
        # the variable without its first-run initializer) and may even have its graph kept for everyone.
        try:
            cf = trace(general)
            with self._lock:
                self.misses += 1
                existing = self._trace_of(general)
                if existing is None:
                    existing = self._add(general, cf)
                if sig.accepts(general, call_key):
                    self._remember(existing, call_key)
                self._purge()
        finally:  # on an error too: a waiter then traces the key itself
            if owner:
                with self._lock:
                    self._inflight.pop(general, None)
                flight.done.set()
        return existing.cf

    # --- bookkeeping (lock held) ---
    def _trace_of(self, general):
        for trace in self._traces.values():
            if trace.general == general:
                return trace
        return None

    def _add(self, general, cf):
        trace = _Trace(None, cf)
        trace.general = sig.persist(general, self._on_death, trace.weak)
        self._traces[cf] = trace
        if sig.has_unknown_dims(general):
            self._relaxed.append(trace)
        self._remember(trace, general)
        bound = self.maxsize
        while bound is not None and len(self._traces) > bound:
            _, old = self._traces.popitem(last=False)
            self._drop(old)
            self.evictions += 1
            if not self._warned_eviction:
                self._warned_eviction = True
                _log.warning(
                    "tf.function %s has more than %d traces; the least recently used are evicted (and traced "
                    "again if called). Raise the bound with tf.function(..., experimental_max_traces=N) or "
                    "tf.config.set_function_max_traces(N), or retrace less (input_signature, reduce_retracing=True,"
                    " tensors instead of Python values).", self.function_name, bound)
        return trace

    def _remember(self, trace, pair):
        if not sig.accepts(trace.general, pair) and trace.general != pair:
            return
        stored = sig.persist(table_key(pair), self._on_death, trace.weak)
        self.table[stored] = trace.cf
        trace.call_keys.append(stored)

    def remember(self, call_key, cf):
        """The exact call key `call_key` (a call's own, before canonicalizing) finds `cf` from now on."""
        with self._lock:
            self.table[table_key(call_key)] = cf

    def remember_fast(self, key, cf):
        with self._lock:
            if cf in self._traces:  # not evicted meanwhile
                self.fast[key] = cf

    def _drop(self, trace):
        _release(trace.cf)
        self.last_dropped = trace.general
        self.fast.clear()
        self.last_fast = _NO_ENTRY
        for k in trace.call_keys:
            if self.table.get(k) is trace.cf:
                del self.table[k]
        if trace in self._relaxed:
            self._relaxed.remove(trace)
        if self.mru is trace.cf:
            self.mru = None

    def _purge(self):
        """Drops the traces whose keys name an object that died."""
        if not self._dead:
            return
        self._dead = False
        for cf, trace in list(self._traces.items()):
            if any(w.ref() is None for w in trace.weak):
                del self._traces[cf]
                self._drop(trace)
        for k in [k for k in self.table if _has_dead(k)]:  # call keys of a trace still alive
            del self.table[k]


def _release(cf):
    """A trace leaving the cache frees its XLA executables now (a jit trace's objects form cycles that
    only the garbage collector would otherwise break); it recompiles if someone still calls it."""
    release = getattr(cf, "release_compiled", None)
    if release is not None:
        release()


def _has_dead(key):
    t = type(key)
    if t is sig.WeakObjectKey:
        return key.ref() is None
    if t is tuple:
        return any(_has_dead(k) for k in key)
    return False


def canonical_key(signature, args, kwargs, key):
    """The key of the same call with defaults applied and keywords bound to their parameters,
    so `f(x)`, `f(x, 2)` and `f(x, y=2)` share one trace (TensorFlow binds calls the same way).
    Used only when the tensors come in the same order either way; otherwise the raw key."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return key, args, kwargs
    bound.apply_defaults()
    call_args, call_kwargs = rebind(signature, dict(bound.arguments))
    raw_tensors, tensors = [], []
    for a in args:
        sig.key_of(a, raw_tensors)
    for k in sorted(kwargs):
        sig.key_of(kwargs[k], raw_tensors)
    canonical = (tuple(sig.key_of(a, tensors) for a in call_args),
                 tuple((k, sig.key_of(call_kwargs[k], tensors)) for k in sorted(call_kwargs)))
    same_order = len(tensors) == len(raw_tensors) and all(
        a is b or (getattr(a, "_value", None) is not None and a._value is getattr(b, "_value", None))
        for a, b in zip(tensors, raw_tensors))
    return (canonical, tuple(call_args), call_kwargs) if same_order else (key, args, kwargs)
