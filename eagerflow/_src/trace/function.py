"""`tf.function`: Function, the calling logic around the trace cache (trace/cache.py).

A cached call is: build the key -> one dict lookup -> the identity check of the Python values the
trace froze, if any (trace/stale.py) -> the generated code on raw arrays -> wrap the outputs; for
eager tensors only, all of it inline in `Function.__call__`. Anything else goes through the
general key (signature.py), or the input_signature's binder (signature_binding.py), and, on a miss,
the cache, which calls back `_trace`: a Tracer runs the Python function once on stand-ins into a
graph (tracer.py), `compile_program` turns the graph into one Python function
(codegen/program.py), and a ConcreteFunction (concrete.py) binds calls to it.

Function's other jobs live beside it, each in its own module, called with what of the Function
they need (none reads its fields): a changed frozen value on a call (stale_calls.py), one
Function per instance for methods (method_binding.py), the input_signature (signature_binding.py)
and which key a miss traces for and why (retrace.py `plan`). What stays here is what a call runs,
what a miss runs, the public API and the decorator.
"""
from __future__ import annotations

import functools
import inspect
import threading
import types
import weakref

from ..core import context as _context
from ..core import nest
from ..core.context import state
from ..core.tensor import _BY_NP, DeviceTensor, EagerTensor, TensorSpec, _new_object, wrap_array
from ..core.tracebacks import filter_traceback
from ..codegen import jit_setting as _jit_setting
from ..codegen.program import CompileOptions
from ..ops.fp_errors import busy
from . import cache as _cache
from . import method_binding as _method_binding
from . import parity as _parity
from . import placeholders as _ph
from . import retrace as _retrace
from . import signature as sig
from . import signature_binding as _signature_binding
from . import stale as _stale
from . import stale_calls as _stale_calls
from .concrete import ConcreteFunction
from .tracer import Tracer


class Function:
    """The object `@tf.function` returns: calls, tracing on a cache miss (trace/cache.py decides
    what is a miss, keeps the traces and explains retraces)."""

    def __init__(self, python_function, input_signature=None, autograph=True, jit_compile=None,
                 reduce_retracing=False, name=None, experimental_relax_shapes=None,
                 experimental_max_traces=None, experimental_retrace_on_stale_captures=False, _instance=None,
                 **unused):
        functools.update_wrapper(self, python_function)
        if _instance is not None:  # a method bound to one instance, held weakly (see __get__)
            self._instance_ref = weakref.ref(_instance)
            self._python_function = None
            self._unbound = python_function
            self._signature = inspect.signature(types.MethodType(python_function, _instance))
        else:
            self._instance_ref = None
            self._python_function = python_function
            self._signature = inspect.signature(python_function)
        self._input_signature, self._signature_binder = _signature_binding.for_function(
            input_signature, self._signature, name or getattr(python_function, "__name__", "function"),
            decorated_in_class=_instance is None)
        self._autograph = autograph
        self._jit_compile = jit_compile
        self._reduce_retracing = bool(reduce_retracing or experimental_relax_shapes)
        self._max_traces = experimental_max_traces
        self._check_parity = unused.get("experimental_check_parity")  # None: the global switch (parity.py)
        self._retrace_on_stale = bool(experimental_retrace_on_stale_captures)
        self._stale_warned = set()  # names already warned about (trace/stale.py), once each
        self._name = name or getattr(python_function, "__name__", "function")
        self._cache = _cache.TraceCache(self._name, experimental_max_traces,
                                        compiles=functools.partial(_jit_setting.wanted, jit_compile))
        self._table = self._cache.table  # call key -> trace (cleared in place, never replaced)
        self._fast = self._cache.fast  # the hot path: (dtype, shape, dtype, shape, ...) of eager tensors -> trace
        self._monitor = _retrace.RetraceMonitor(self._name)
        self._names = [n for n, p in self._signature.parameters.items()
                       if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self._signature_cf = None
        self._count_lock = threading.Lock()
        self._created_variables = False
        self._bound = weakref.WeakKeyDictionary()  # instance -> its Function (which holds it weakly)
        self.last_retrace_reason = None  # in words: which argument changed, from what to what

    # --- public API ---
    @property
    def python_function(self):
        if self._instance_ref is None:
            return self._python_function
        instance = self._instance_ref()
        if instance is None:  # collected (`M().g(x)`, `f = M().g`): TensorFlow then passes None as self
            return functools.partial(self._unbound, None)
        return types.MethodType(self._unbound, instance)

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self) -> int:
        return self._monitor.traces

    def cache_info(self):
        """`CacheInfo(hits, misses, maxsize, currsize, evictions)`, as functools.lru_cache reports."""
        return self._cache.info()

    def cache_clear(self):
        """Drops every trace of this function; the next call traces again."""
        self._cache.clear()
        self._signature_cf = None

    def _list_all_concrete_functions(self):
        """Every ConcreteFunction this function keeps (least recently used first), with the one its
        input_signature made; what SavedModel writes (TensorFlow's name for the same list)."""
        traced = self._cache.concrete_functions()
        if self._signature_cf is not None and self._signature_cf not in traced:
            traced.append(self._signature_cf)
        return traced

    def experimental_trace_history(self):
        """[TraceEvent(number, signature, reason)] for the recent traces (up to 1000), oldest first:
        what each trace was made for and which argument change caused it."""
        return list(self._monitor.history)

    def __get__(self, instance, owner):
        """A method: one Function per instance, held weakly (trace/method_binding.py); the
        Function itself on the class."""
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:  # an unhashable instance: bind() says so
            bound = None
        if bound is None:
            bound = _method_binding.bind(self._bound, self._python_function, instance, owner, self._for_instance)
        return bound

    def _for_instance(self, python_function, instance):
        """This Function's options over `python_function`, bound to `instance` (None for a
        staticmethod or classmethod underneath)."""
        return type(self)(python_function, self._input_signature, self._autograph, self._jit_compile,
                          self._reduce_retracing, self._name, experimental_max_traces=self._max_traces,
                          _instance=instance, experimental_check_parity=self._check_parity,
                          experimental_retrace_on_stale_captures=self._retrace_on_stale)

    def __call__(self, *args, **kwargs):
        if _context._run_functions_eagerly:
            return self.python_function(*args, **kwargs)
        if not kwargs:  # the hot path: eager tensors only, keyed as signature.fast_key says (unrolled here)
            # NOTE: one and two arguments pass their arrays by name, not `*arrays`: a star call into
            # run_quiet costs ~75 ns, about 5% of the W1 cached call (bench function/cached-call).
            n = len(args)
            if n == 2:
                x, y = args
                if (type(x) is not EagerTensor and type(x) is not DeviceTensor
                        or type(y) is not EagerTensor and type(y) is not DeviceTensor):
                    return self._call(args, kwargs)
                xv, yv = x._value, y._value
                key = (x._dtype, xv.shape, y._dtype, yv.shape)
            elif n == 1:
                x = args[0]
                if type(x) is not EagerTensor and type(x) is not DeviceTensor:
                    return self._call(args, kwargs)
                xv = x._value
                key = (x._dtype, xv.shape)
            else:
                key, arrays = (), []
                for x in args:
                    if type(x) is not EagerTensor and type(x) is not DeviceTensor:
                        return self._call(args, kwargs)
                    value = x._value
                    arrays.append(value)
                    key += (x._dtype, value.shape)
            cache = self._cache
            last_key, cf = cache.last_fast  # the same specs as the last call: no lookup, no LRU work
            if key != last_key:
                cf = self._fast.get(key)
                if cf is None:
                    return self._call(args, kwargs, key)
                cache.fast_hit(key, cf)
            cache.hits += 1
            guards = cf._guards  # Python values frozen at trace time, unchanged? (trace/stale.py)
            if guards is not None:  # NOTE: Guards.holds inlined: C calls only while nothing changed
                try:
                    same = guards.read(guards.where) == guards.want
                except Exception:
                    same = False
                if same is not True:
                    cf = self._check_frozen(cf)
            # NOTE: the thread's state read as its dict: one thread-local lookup instead of two (~25 ns)
            st = state.__dict__
            if st["graph"] is not None or st["tapes"]:
                return cf._call_flat(args)
            # ConcreteFunction._call_flat, inlined; `cf._run` is run_quiet (NumPy's floating-point
            # warnings off, ops/fp_errors.py) or, when no op of the graph can warn, a plain call.
            fn = cf._fn
            try:
                if n == 2:
                    outputs = cf._run(fn, xv, yv)
                elif n == 1:
                    outputs = cf._run(fn, xv)
                else:
                    outputs = cf._run(fn, *arrays)
            except Exception as exc:
                if not (isinstance(exc, RuntimeError) and busy(exc)):
                    raise cf._runtime_error(exc) from None
                outputs = cf._run_switched([t._value for t in args])
            if not cf._single_output:
                return cf._wrap(outputs)
            out = outputs[0]  # wrap_array, inlined
            result = _new_object(EagerTensor)
            result._value = out
            try:
                result._dtype = _BY_NP[out.dtype]
            except (KeyError, AttributeError):
                return wrap_array(out)
            return result
        return self._call(args, kwargs)

    # --- a value the trace froze has changed (trace/stale_calls.py; off the hot path) ---
    def _check_frozen(self, cf, stacklevel=3):
        """The trace to run for `cf` now that a value it froze is not the one it saw."""
        retrace = self._retrace_stale if self._retrace_on_stale else None
        return _stale_calls.check_frozen(cf, self._name, self._stale_warned, self._count_lock, retrace, stacklevel + 1)

    def _retrace_stale(self, cf, changes):
        """A trace of `cf`'s call for the values frozen captures have now; kept beside `cf` (and
        evicted with it), at most MAX_STALE_VARIANTS, the oldest dropped."""
        args, kwargs, key = cf.stale_retrace
        new = self._trace(args, kwargs, key, changes=_stale_calls.retrace_reasons(changes), counted=True)
        with self._count_lock:
            self._cache.misses += 1
            cf.keep_stale_variant(new, _stale.MAX_STALE_VARIANTS)
        return new

    def _call(self, args, kwargs, fast_key=None):
        """Every call the hot path does not serve: an input_signature, keywords, non-tensor
        arguments, or a first call with these tensor specs (`fast_key`: its hot-path key)."""
        if self._input_signature is not None:
            return self._call_with_signature(args, kwargs)
        tensors = []
        key_of = sig.key_of
        if not kwargs:
            key = tuple([key_of(a, tensors) for a in args])
            cf = self._table.get(key)
            missed = cf is None
            if missed:
                cf = self._miss(args, kwargs, (key, ()))
            if fast_key is not None:  # the hot path serves the next such call
                self._cache.remember_fast(fast_key, cf)
            if missed:
                return cf._call_flat(tensors)
        else:
            key = sig.call_key(args, kwargs, tensors)
            cf = self._table.get(_cache.table_key(key))
            if cf is None:
                cf = self._miss(args, kwargs, key)
                return cf._call_flat(tensors)
        cache = self._cache
        cache.hits += 1
        if cf is not cache.mru:
            cache.touch(cf)
        if cf._guards is not None and not cf._guards.holds():
            cf = self._check_frozen(cf, stacklevel=4)
        return cf._call_flat(tensors)

    @filter_traceback
    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The ConcreteFunction for these arguments (TensorSpecs or values), tracing if needed."""
        if self._input_signature is not None:
            if (args or kwargs) and self._signature_binder is not None:  # they must fit the signature,
                self._signature_binder.bind(args, kwargs)  # as a call's would (TensorSpecs as subtypes)
            return self._concrete_for_signature()
        if any(isinstance(a, TensorSpec) for a in nest.flatten((args, kwargs), expand_composites=True)):
            return self._trace_for_specs(args, kwargs)
        key = sig.call_key(args, kwargs, [])
        return self._table.get(_cache.table_key(key)) or self._miss(args, kwargs, key)

    def _trace_for_specs(self, args, kwargs):
        """The trace for arguments given as TensorSpecs (get_concrete_function's, an input_signature's)."""
        key = _ph.spec_key((args, kwargs))
        return self._cache.get_or_trace(key, lambda cache: key, lambda general: self._trace(args, kwargs, general))

    def pretty_printed_concrete_signatures(self, verbose=True):
        cfs = [self._signature_cf] if self._signature_cf is not None else self._cache.concrete_functions()
        return "\n\n".join(cf.pretty_printed_signature(verbose) for cf in cfs)

    # --- input_signature ---
    def _concrete_for_signature(self):
        cf = self._signature_cf
        if cf is None:
            cf = self._signature_cf = self._trace_for_specs(self._input_signature, {})
        return cf

    def _call_with_signature(self, args, kwargs):
        """A call under an input_signature: bound to it (trace/signature_binding.py), then the
        signature's one ConcreteFunction runs on the tensors."""
        if self._signature_binder is None:  # an unbound method called with its instance first
            self._signature_binder = _signature_binding.SignatureBinder(self._name, self._signature,
                                                                        self._input_signature)
        tensors = self._signature_binder.bind(args, kwargs)
        cf = self._signature_cf
        if cf is None:
            cf = self._concrete_for_signature()
        else:
            self._cache.hits += 1
            if cf._guards is not None and not cf._guards.holds():
                cf = self._check_frozen(cf, stacklevel=5)
        return cf._call_flat(tensors)

    # --- a cache miss: find or make the trace ---
    @filter_traceback  # a trace's errors show the user's frames (core/tracebacks.py); not on cached calls: ~0.2 us
    def _miss(self, args, kwargs, key):
        """Finds or makes the trace for a call the exact-key lookup missed; the call key is
        remembered so the next such call is one lookup."""
        canonical, call_args, call_kwargs = _cache.canonical_key(self._signature, args, kwargs, key)
        found = {}

        def plan(cache):
            general, found["changes"] = _retrace.plan(cache, canonical, self._names, self._monitor.traces,
                                                      self._reduce_retracing)
            return general

        def trace_general(general):
            spec_args, spec_kwargs = _ph.specs_for_call(call_args, call_kwargs, general)
            return self._trace(spec_args, spec_kwargs, general, canonical, found.get("changes"), counted=True)

        cf = self._cache.get_or_trace(canonical, plan, trace_general)
        if canonical != key:
            self._cache.remember(key, cf)
        return cf

    def _trace(self, args, kwargs, key, call_key=None, changes=None, counted=False):
        """One trace, in three steps: the Tracer runs the Python function into a graph
        (trace/tracer.py), `compile_program` compiles it (codegen/program.py) and a
        ConcreteFunction binds and runs it. Args hold TensorSpecs where tensors go. `changes`
        (retrace.changes) say why; `counted`: a call traced (not get_concrete_function), which
        TensorFlow's frequent-retracing warning counts. Every trace comes through here, the
        retraces below included."""
        described = self._python_function or self._unbound
        with self._count_lock:
            if changes is None and self._monitor.traces:
                changes = []
            self.last_retrace_reason = self._monitor.record(
                call_key or key, self._names, changes, self._cache.hits, self._cache.hits + self._cache.misses + 1,
                described, counted)
            first_trace = self._monitor.traces <= 1 and not self._created_variables
        # The plain values the trace freezes, as they are before it runs (trace/stale.py).
        guards = _stale.collect(described, None if self._instance_ref is None else self._instance_ref())
        tracer = Tracer(self._name, self._signature, autograph=self._autograph, described_as=described)
        # Variables may be created on the first trace only; later ones raise at the user's creating line.
        traced = tracer.run(self.python_function, args, kwargs,
                            may_create_variables=first_trace and not self._created_variables)
        created = traced.created
        if created:
            with self._count_lock:
                self._created_variables = True
        graph = traced.graph
        options = CompileOptions(jit_compile=_jit_setting.wanted(self._jit_compile))
        cf = ConcreteFunction.from_graph(graph, graph.structured_outputs, traced.param_specs, traced.captures,
                                         self._name, options=options, traced_call=(self._signature, args, kwargs))
        retrace = (args, kwargs, key) if (guards is not None and self._retrace_on_stale
                                          and _stale.retraceable(args, kwargs)) else None
        cf.guard_frozen_values(guards, retrace)
        if created:  # as TensorFlow: trace again now that the variables exist (see state/initial_value.py)
            second = self._trace(args, kwargs, key, call_key, [], counted)  # raises if it creates variables again
            if not any(v._pending_init for v in created):
                cf = second  # else the first trace's graph, which initializes them on its first run, is kept
        _parity.arm(self, cf, args, kwargs)  # the parity check's debug switch (one flag check when off)
        return cf

    def __repr__(self):
        return f"<eagerflow.function {self._name}>"


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None,
             name=None, experimental_max_traces=None, experimental_check_parity=None,
             experimental_retrace_on_stale_captures=False):
    """`@tf.function` / `tf.function(f, input_signature=...)`.

    `experimental_max_traces` (eagerflow's): the most traces this function keeps, least recently
    used evicted past it; None takes `tf.config.get_function_max_traces()` (256 unless set; a
    jit_compile function has no bound unless one is set, as TensorFlow bounds none: trace/cache.py).
    `experimental_check_parity` (eagerflow's): True/False checks this function's graph against its
    eager run or not, whatever `tf.config.experimental_check_parity` says (trace/parity.py).
    `experimental_retrace_on_stale_captures` (eagerflow's): a Python global, closure variable or
    `self` attribute the trace froze that has changed since retraces the function for the new value
    (older traces stay for older values), instead of the default StaleCaptureWarning (trace/stale.py)."""
    def decorate(fn):
        return Function(fn, input_signature=input_signature, autograph=autograph, jit_compile=jit_compile,
                        reduce_retracing=reduce_retracing, experimental_relax_shapes=experimental_relax_shapes,
                        name=name, experimental_max_traces=experimental_max_traces,
                        experimental_check_parity=experimental_check_parity,
                        experimental_retrace_on_stale_captures=experimental_retrace_on_stale_captures)
    if func is None:
        return decorate
    return decorate(func)


__all__ = ["function", "Function", "ConcreteFunction"]
