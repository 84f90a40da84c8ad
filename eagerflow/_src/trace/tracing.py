"""The miss path of a tf.function call: find the trace for a new signature, or make it.

A call the exact-key lookup misses (trace/function.py) comes to `miss`: it builds the canonical
key, asks the TraceCache (trace/cache.py) for a trace, generalizing the key first under
reduce_retracing, and, when none fits, `trace` runs the Python function once on placeholders
(trace/placeholders.py) under a graph context; every op lands in the graph, and the finished graph
becomes a ConcreteFunction (passes and code generation, trace/concrete.py). Along the way it
records why this trace happened (trace/retrace.py), the Python values the trace froze
(trace/stale.py), variables created on the first trace, and arms the parity check (trace/parity.py).

These are Function's `_miss`, `_trace_from_key`, `_trace` and `_output_tensor`: plain functions
over the Function (`function`), assigned in its class body, so a trace adds no call frame and
code that patches `Function._trace` still sees every trace (the recursive retrace included).
Why a module of its own: function.py is the calling logic (the hot cached path stays there, short
and readable); tracing is a separate job with its own state to set up and restore.
"""
from __future__ import annotations

import functools
import inspect

from ..core import nest
from ..core.context import graph_scope, state
from ..core.convert import convert_to_tensor
from ..core.tensor import Tensor
from ..core.tracebacks import filter_traceback
from ..codegen import jit_setting as _jit_setting
from . import cache as _cache
from . import parity as _parity
from . import placeholders as _ph
from . import retrace as _retrace
from . import signature as sig
from . import stale as _stale
from .concrete import ConcreteFunction


@filter_traceback  # a trace's errors show the user's frames (core/tracebacks.py); not on cached calls: ~0.2 us
def miss(function, args, kwargs, key):
    """Finds or makes the trace for a call the exact-key lookup missed; the call key is
    remembered so the next such call is one lookup."""
    canonical, call_args, call_kwargs = _cache.canonical_key(function._signature, args, kwargs, key)
    found = {}

    def plan(cache):
        general = canonical
        if function._reduce_retracing:
            for previous in reversed(cache.general_keys()):
                relaxed = sig.relax(previous, canonical)
                if relaxed is not None:
                    general = relaxed
                    break
        found["changes"] = _retrace.closest_changes(
            cache.recent_general_keys(_retrace.COMPARED_TRACES), cache.last_dropped, canonical, function._names,
            function._monitor.traces)
        return general

    def trace_general(general):
        return function._trace_from_key(call_args, call_kwargs, general, canonical, found.get("changes"))

    cf = function._cache.get_or_trace(canonical, plan, trace_general)
    if canonical != key:
        with function._cache._lock:
            function._cache.table[_cache.table_key(key)] = cf
    return cf


def trace_from_key(function, args, kwargs, key, call_key, changes):
    arg_keys, kw_keys = key
    spec_args = tuple(_ph.specs_for(a, k) for a, k in zip(args, arg_keys))
    kw = dict(kw_keys)
    spec_kwargs = {k: _ph.specs_for(kwargs[k], kw[k]) for k in sorted(kwargs)}
    return function._trace(spec_args, spec_kwargs, key, call_key, changes, counted=True)


def trace(function, args, kwargs, key, call_key=None, changes=None, counted=False):
    """Runs the Python function on placeholders; args hold TensorSpecs where tensors go.
    `changes` (retrace.changes) say why; `counted`: a call traced (not get_concrete_function),
    which TensorFlow's frequent-retracing warning counts."""
    from ..graph.graph import Graph
    from ..ops.array.basic import identity
    cache, monitor = function._cache, function._monitor
    with function._count_lock:
        if changes is None and monitor.traces:
            changes = []
        function.last_retrace_reason = monitor.record(
            call_key or key, function._names, changes, cache.hits, cache.hits + cache.misses + 1,
            function._python_function or function._unbound, counted)
        first_trace = function._monitor.traces <= 1 and not function._created_variables
    graph = Graph(function._name, outer=state.graph)  # nested: may close over the caller's tensors
    param_specs = []
    symbols = []
    created = []
    saved = state.created_variables
    saved_tapes = state.tapes
    state.created_variables = created
    state.tapes = []  # tapes outside never see the ops of a graph being traced
    try:
        with graph_scope(graph):
            bound = function._signature.bind(*args, **kwargs)
            symbolic = {}
            for pname, value in bound.arguments.items():
                kind = function._signature.parameters[pname].kind
                if kind is inspect.Parameter.VAR_POSITIONAL:
                    symbolic[pname] = tuple(_ph.placeholders(v, f"{pname}_{i}", graph, param_specs, symbols)
                                            for i, v in enumerate(value))
                elif kind is inspect.Parameter.VAR_KEYWORD:
                    symbolic[pname] = {k: _ph.placeholders(v, k, graph, param_specs, symbols)
                                       for k, v in value.items()}
                else:
                    symbolic[pname] = _ph.placeholders(value, pname, graph, param_specs, symbols)
            call_args, call_kwargs = _ph.rebind(function._signature, symbolic)
            python_function = function.python_function
            # The plain values the trace freezes, as they are before it runs (trace/stale.py).
            guards = _stale.collect(function._python_function or function._unbound,
                                    None if function._instance_ref is None else function._instance_ref())
            if function._autograph:  # tensor if/while/for -> cond/while_loop (converted once per function)
                from ..autograph.transform import convert_function
                if isinstance(python_function, functools.partial):  # a method whose instance is gone
                    python_function = functools.partial(convert_function(python_function.func),
                                                        *python_function.args)
                else:
                    python_function = convert_function(python_function)
            result = python_function(*call_args, **call_kwargs)
            del python_function
            flat = nest.flatten(result, expand_composites=True) if result is not None else []
            outputs = []
            for value in flat:
                if value is None:
                    continue
                outputs.append(identity(value if isinstance(value, Tensor) else function._output_tensor(value)))
            graph.outputs = outputs
            packable = result is not None and nest.flatten(result, expand_composites=True) and None not in flat
            graph.structured_outputs = (nest.pack_sequence_as(result, [o for o in outputs], expand_composites=True)
                                        if packable else
                                        (result if result is None else _ph.pack_with_nones(result, outputs)))
    finally:
        state.created_variables = saved
        state.tapes = saved_tapes
    if created:
        with function._count_lock:
            if not first_trace or function._created_variables:
                raise ValueError(
                    "tf.function only supports singleton tf.Variables created on the first call. Make sure "
                    "the tf.Variable is only created once or created outside tf.function. See "
                    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
            function._created_variables = True
    graph.finalize_names()
    captures = {}
    for external, internal in graph.captures:
        if hasattr(external, "_value"):  # not a tensor of an enclosing trace (see ConcreteFunction)
            captures[id(internal)] = external._value
    cf = ConcreteFunction(graph, graph.structured_outputs, param_specs, captures, function._name,
                          traced_call=(function._signature, args, kwargs),
                          jit_compile=_jit_setting.wanted(function._jit_compile))
    cf._guards = guards
    if guards is not None and function._retrace_on_stale and _stale.retraceable(args, kwargs):
        cf._stale_retrace = (args, kwargs, key)  # what a retrace for new values needs
    if created:  # as TensorFlow: trace again now that the variables exist (see state/initial_value.py)
        second = function._trace(args, kwargs, key, call_key, [], counted)  # raises if it creates variables again
        if not any(v._pending_init for v in created):
            cf = second  # else the first trace's graph, which initializes them on its first run, is kept
    _parity.arm(function, cf, args, kwargs)  # the parity check's debug switch (one flag check when off)
    return cf


def output_tensor(function, value):
    """A returned non-tensor leaf as a tensor, or TensorFlow's TypeError for one that has none."""
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(
            f"To be compatible with tf.function, Python functions must return zero or more Tensors or "
            f"ExtensionTypes or None values; in compilation of {function._python_function or function._unbound!r}, found "
            f"return value of type {type(value).__name__}, which is not a Tensor or ExtensionType.") from None
