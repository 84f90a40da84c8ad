"""ConcreteFunction: one traced graph, its generated code, and how it is called.

Called directly it checks the arguments against the traced call (trace/call_binding.py), then
runs the generated Python on raw arrays (the cached-call hot path). Under a
recording tape it runs as one call op (ops/control/call.py) that also returns its intermediates, and its
gradient is another ConcreteFunction (trace/gradient.py). Inside another trace it is inlined.
A kernel's failure becomes TensorFlow's error in trace/runtime_errors.py; the flat outputs become
the user's structure through trace/output_structure.py.
"""
from __future__ import annotations

import operator

from ..core import dtypes as _dt
from ..core import nest
from ..core.context import state
from ..core.shape import TensorShape
from ..core.tensor import Tensor, TensorSpec, wrap_array
# Loaded with eagerflow, not on the first traced call (where they cost about 1 ms of the 5 ms budget).
from ..codegen import program as _program
from ..codegen.program import DEFAULT, CompileOptions
from ..graph import listeners as traced_graphs
from ..ops.fp_errors import NO_FP_WARNINGS, busy, run_quiet, switched_call
from ..state.variables import variable_of
from .call_binding import CallBinder
from .jit_paths import jit_can_return, jit_code
from .output_structure import output_packer, output_type_text


# TensorFlow's FunctionDef writer lives in formats/ (a floor above), which installs it as "write".
FUNCTION_DEF_WRITER = {}


class ConcreteFunction:
    """One traced graph and its generated code. Call it with tensors matching its input specs."""

    def __init__(self, graph, executable, structured_outputs, param_specs, name, traced_call=None,
                 output_specs=None, flat_positional=None):
        """`executable`: the graph already compiled (codegen/program.py `compile_program`; the
        `from_graph` factory compiles and constructs in one step); constructing never compiles.
        `param_specs`: [(param name, TensorSpec)] for the placeholders, in order. `traced_call`:
        (Python signature, args, kwargs) the trace ran with, TensorSpecs where tensors went; calls
        are checked against it (trace/call_binding.py). `output_specs`: what `structured_outputs`
        reports instead of the graph's tensors (a loaded function's named TensorSpecs, as
        TensorFlow restores them). `flat_positional`: how many tensors the flat-signature fallback
        takes by position (None: all; a loaded signature's)."""
        self.graph = graph
        self.executable = executable
        self._structure = structured_outputs
        self._output_specs = output_specs
        self._param_specs = param_specs
        self.name = name
        self._outputs = list(executable.outputs)
        self.jit_compile = executable.jit_compile
        self._fn = executable.fn
        enclosing = [t for t in graph.external_captures if not hasattr(t, "_value")]
        if enclosing:  # a nested function closing over its caller's tensors only runs inlined there
            from .runtime_errors import runs_inlined_only
            self._fn = runs_inlined_only(name, enclosing[0])
        self._n_params = len(param_specs)
        # How a call runs the generated code: inside NumPy's quiet floating-point context
        # (ops/fp_errors.py), or, when every op only moves, compares or selects values or the
        # function runs through XLA (which raises no NumPy warnings), as a plain call (decided
        # once here, not per call).
        self._run = run_quiet if not self.jit_compile and _may_warn(graph, executable.program) else operator.call
        # Python values the trace froze, checked on every call while not None (trace/stale.py; set
        # by Function after tracing), and with experimental_retrace_on_stale_captures, the traces of
        # the same call for other such values and what retracing needs.
        self._guards = None
        self._stale_variants = ()
        self._stale_retrace = None
        self._pack = output_packer(structured_outputs)
        # The outputs become tensors through `_wrap_output`: the generated code's arrays by
        # wrap_array; a compiled (jit_compile) function returns its tensors already (DeviceTensors,
        # codegen/xla.py). `_single_output` is the hot paths' shortcut for one NumPy output
        # (wrap_array inlined), so never set under jit_compile.
        self._wrap_output = _as_is if self.jit_compile else wrap_array
        self._single_output = isinstance(structured_outputs, Tensor) and not self.jit_compile
        self.stateful = any(op.opdef.stateful for op in graph.get_operations())
        self._with_intermediates = None
        self._gradient = None
        self._binder = CallBinder(name, param_specs, self._output_type_text, *(traced_call or ()),
                                  flat_positional=flat_positional)

    # --- what Function and the parity check set on a trace, through methods (nothing writes our fields) ---
    def guard_frozen_values(self, guards, retrace=None):
        """Checks the Python values the trace froze on every call (trace/stale.py); `retrace`, the
        (args, kwargs, key) a retrace for new values needs, when Function retraces on stale captures."""
        self._guards = guards
        self._stale_retrace = retrace

    @property
    def stale_retrace(self):
        return self._stale_retrace

    @property
    def stale_variants(self):
        return self._stale_variants

    def keep_stale_variant(self, variant, limit):
        """Keeps `variant`, the trace of this call for other frozen values, newest first, at most `limit`."""
        self._stale_variants = ((variant,) + self._stale_variants)[:limit]

    def run_generated_code_through(self, runner):
        """Calls go through `runner` (the parity check's wrapper) instead of the generated code; returns
        the code it replaced, which `run_generated_code_through(that)` puts back."""
        replaced, self._fn = self._fn, runner
        return replaced

    @classmethod
    def from_graph(cls, graph, structured_outputs, param_specs, captures, name, *, outputs=None,
                   options=DEFAULT, traced_call=None, output_specs=None, flat_positional=None):
        """Compiles `graph` computing `outputs` (default: its own) through `compile_program` and
        wraps the result. `captures`: id(placeholder) -> the outside value it stands for. For the
        function as the user called it (`outputs` None) the graph learns its generated code (what
        graph.to_html() shows) and tf.summary.trace_on's collector, when on, sees it. The graph
        forgets the graph it was traced in: that mattered while tracing only."""
        executable = _program.compile_program(graph, graph.outputs if outputs is None else outputs, captures,
                                              name=name, options=options)
        if outputs is None:
            graph.set_generated(executable.generated)
            traced_graphs.traced(graph, name)
        graph.outer = None
        return cls(graph, executable, structured_outputs, param_specs, name, traced_call=traced_call,
                   output_specs=output_specs, flat_positional=flat_positional)

    # --- what ops/control/call.py needs (the call op) ---
    def run_arrays(self, arrays):
        """The generated code on raw arrays; trailing capture inputs of a call op are ignored (the
        generated code holds its captures)."""
        try:
            outputs = self._fn(*arrays[:self._n_params])
        except Exception as exc:
            raise self._runtime_error(exc) from None
        if self.jit_compile:  # tensors: their arrays (NumPy views of XLA's buffers)
            return tuple(o._value for o in outputs)
        return outputs

    def output_specs(self):
        return [(t.shape, t.dtype) for t in self._outputs]

    def capture_inputs(self):
        return self.graph.external_captures

    def with_intermediates(self) -> "ConcreteFunction":
        """This function returning, after its outputs, every value its gradient may need (what a
        tape would have kept). Used when a recording tape sees the call."""
        if self._with_intermediates is None:
            from .gradient import intermediates_of
            extra = intermediates_of(self.graph)
            outputs = self._outputs + extra
            jit = self.jit_compile and jit_can_return(self.name, outputs)
            cf = ConcreteFunction.from_graph(self.graph, None, self._param_specs, self.executable.captures,
                                             self.name + "_with_intermediates", outputs=outputs,
                                             options=CompileOptions(recording=True, jit_compile=jit))
            cf.n_user_outputs = len(self._outputs)
            cf.intermediates = extra
            self._with_intermediates = cf
        return self._with_intermediates

    def release_compiled(self):
        """Frees the XLA executables of this trace and of the variants built from it (the trace left
        its function's cache); they are compiled again if it is called. Nothing to do without jit."""
        compiled = self.executable.compiled
        if compiled is not None:
            compiled.release()
        if self._with_intermediates is not None:
            self._with_intermediates.release_compiled()
        for backward, _ in (self._gradient or {}).values():
            if backward is not None:
                backward.release_compiled()

    def gradient_function(self, all_outputs=False):
        """(backward ConcreteFunction, mask of inputs that get a gradient); built once per kind."""
        if self._gradient is None:
            self._gradient = {}
        if all_outputs not in self._gradient:
            from .gradient import build_backward
            self._gradient[all_outputs] = build_backward(self, all_outputs)
        return self._gradient[all_outputs]

    @property
    def code(self) -> str:
        """The generated Python source that runs when this function is called. With jit_compile,
        what runs is the XLA executable: its jaxpr (after the first call), then the NumPy code, under
        a header saying it is the jit_compile=False equivalent, not what runs."""
        if not self.jit_compile:
            return self.executable.source
        return jit_code(self.executable.compiled, self.executable.source)

    @property
    def inputs(self):
        return self.graph.inputs

    @property
    def outputs(self):
        """The flat output tensors the function returns, in order (a loaded signature's in its
        sorted output-name order)."""
        return list(self._outputs)

    @property
    def flat_input_signature(self):
        """The graph's parameters as TensorSpecs named by their flat parameter names (`x`,
        `inputs_1`), in the order the call passes them: the first entries of `inputs`."""
        return tuple(TensorSpec(spec.shape, spec.dtype, name) for name, spec in self._param_specs)

    @property
    def traced_parameters(self):
        """The traced Python call as (name, inspect.Parameter kind, template) per parameter, a
        template being a TensorSpec where a tensor went, else the Python value (or a list, tuple
        or dict of those): what a call is checked against, and what a SavedModel stores."""
        return tuple(self._binder._params)

    @property
    def variables(self):
        return self.graph.variables

    @property
    def trainable_variables(self):
        return tuple(v for v in self.graph.variables if v.trainable)

    @property
    def captured_inputs(self):
        return self.graph.external_captures

    @property
    def function_def(self):
        """The function as TensorFlow's FunctionDef protobuf message (signature with the arguments'
        names and types, node_def, ret), as a SavedModel stores it."""
        write = FUNCTION_DEF_WRITER.get("write")
        if write is None:  # formats/ (a floor above) installs the writer when it loads; it loads on first use
            import importlib
            importlib.import_module("eagerflow._src.formats")
            write = FUNCTION_DEF_WRITER["write"]
        return write(self)

    @property
    def structured_input_signature(self):
        """(args, kwargs) of the traced call: TensorSpecs (named after their placeholders) where
        tensors went, the Python values where they did not; as TensorFlow reports it."""
        return self._binder.structured_input_signature()

    @property
    def structured_outputs(self):
        """The output structure: the graph's tensors for a traced function; for a loaded one,
        TensorSpecs named as TensorFlow names restored outputs (saved_model/restored_specs.py)."""
        return self._structure if self._output_specs is None else self._output_specs

    @property
    def traced_outputs(self):
        """The output structure over the graph's own tensors (what SavedModel writes), also for a
        loaded function whose `structured_outputs` are TensorSpecs."""
        return self._structure

    @property
    def output_shapes(self):
        """The outputs' TensorShapes in the output structure (`TensorShape(None)` for a None output)."""
        return self._map_outputs(lambda t: t.shape, TensorShape(None))

    @property
    def output_dtypes(self):
        """The outputs' dtypes in the output structure (None for a None output)."""
        return self._map_outputs(lambda t: t.dtype, None)

    def _map_outputs(self, fn, for_none):
        structure = self.structured_outputs
        if structure is None:
            return None
        if not nest.is_nested(structure, expand_composites=True):
            return fn(structure)
        leaves = nest.flatten(structure, expand_composites=True)
        return nest.pack_sequence_as(structure, [for_none if leaf is None else fn(leaf) for leaf in leaves],
                                     expand_composites=True)

    def _output_type_text(self):
        if self._output_specs is not None:
            return output_type_text(self._output_specs, [])
        outs = [TensorSpec(t.shape, t.dtype) for t in self._outputs]  # a loaded signature's order, not the graph's
        return output_type_text(self._structure, outs)

    def pretty_printed_signature(self, verbose=True):
        """TensorFlow's text: the parameters, output type and captures; with verbose=False the
        one-line `(x: TensorSpec(...)) -> TensorSpec(...)` form."""
        if not verbose:
            return self._binder.signature_text()
        lines = ["Input Parameters:"]
        for name, kind, type_text in self._binder.parameters:
            lines.append(f"  {name} ({kind}): {type_text}")
        lines.append("Output Type:")
        lines.append(f"  {self._output_type_text()}")
        if self.graph.captures:
            lines.append("Captures:")
            for external, internal in self.graph.captures:
                lines.append(f"  {id(external)}: {TensorSpec(internal.shape, internal.dtype)!r}")
        else:
            lines.append("Captures:\n  None")
        return "\n".join(lines)

    def __repr__(self):
        return f"<ConcreteFunction {self._binder.signature_text()} at 0x{id(self):X}>"

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"

    def __call__(self, *args, **kwargs):
        """Checks the arguments against the traced call as TensorFlow does (a different Python
        value is a TypeError, not the traced result) and runs the function on the tensors."""
        return self._call_flat(self._binder.bind(args, kwargs))

    def _call_flat(self, tensors):
        """Runs the generated code on the tensors' arrays; the cached-call hot path."""
        st = state
        if st.graph is not None or st.tapes:
            return self._call_in_context(tensors)
        values = [t._value for t in tensors]
        try:  # NOTE: NumPy's floating-point warnings off for the whole call (ops/fp_errors.py)
            arrays = self._run(self._fn, *values)
        except Exception as exc:
            if not (isinstance(exc, RuntimeError) and busy(exc)):
                raise self._runtime_error(exc) from None
            arrays = self._run_switched(values)
        if self._single_output:
            return wrap_array(arrays[0])
        return self._wrap(arrays)

    def _call_in_context(self, tensors):
        """Inside another trace the function is inlined (replayed op by op into that graph); under a
        recording tape it runs as one call op that also returns what its gradient needs."""
        if state.tapes:
            self._read_variables_for_tapes(tensors)
        if state.graph is not None:
            from ..graph.evaluate import evaluate
            return evaluate(self.graph, tensors, self._structure)
        from ..ops.control.call import call_function
        inputs = list(tensors) + list(self.capture_inputs())
        if not any(tape.recording and tape.should_record(inputs) for tape in state.tapes):
            return self._wrap(self._run_switched([t._value for t in tensors]))
        outs = call_function(self, tensors)  # the intermediates-returning variant runs; user outputs come back
        return self._pack(list(outs))

    def _read_variables_for_tapes(self, tensors):
        """A call reads every variable the function uses, as TensorFlow's call does: the recording
        tapes watch the trainable ones, captured or passed as arguments (so `tape.gradient(y, v)`
        reaches `v` and `watched_variables()` lists it).

        Why here: a tape learns about a variable when `Variable` reads it (`_as_tensor`). The
        function's own reads ran at trace time, under no tape, and a call replays them straight on
        the handles (the call op eagerly, `evaluate` when inlined into an outer trace), so without
        this no tape would watch them and their gradient would be None. It must happen on both
        paths: a nested function inlined into an outer `tf.function` is the Keras `train_step`
        case, and a stand-in Variable argument of that outer function counts too."""
        tapes = [tape for tape in state.tapes if tape.recording]
        if not tapes:
            return
        variables = list(self.graph.variables)
        # Handles from an enclosing trace: a nested function closing over its caller's Variable argument.
        handles = [t for t in self.graph.external_captures if not hasattr(t, "_value")] + list(tensors)
        for t in handles:
            if t.dtype is _dt.resource:
                var = variable_of(t)
                if var is not None:
                    variables.append(var)
        for var in variables:
            if var.trainable:
                for tape in tapes:
                    tape._watch_variable(var)

    def _run_switched(self, values):
        """The generated code with NumPy's error state switched to "ignore" (when the shared quiet
        context is in use: another thread, or a kernel calling this function)."""
        try:
            return switched_call(self._fn, *values)
        except Exception as exc:
            raise self._runtime_error(exc) from None

    def _wrap(self, arrays):
        wrap = self._wrap_output
        return self._pack([wrap(a) for a in arrays])

    def _runtime_error(self, exc):
        """The error a kernel raised, naming the node and the user's line that created it (loaded on
        the first failure: a call that succeeds never needs it)."""
        from .runtime_errors import runtime_error
        return runtime_error(exc, self.executable.generated, self.name.removesuffix("_with_intermediates"))


def _may_warn(graph, program) -> bool:
    """Whether running the generated code can raise NumPy floating-point warnings: an op that is
    not one of ops/fp_errors.py's NO_FP_WARNINGS, in the traced graph or after the passes."""
    ops = list(graph.get_operations()) + list(getattr(program, "ops", ()))
    return any(getattr(op, "type", None) not in NO_FP_WARNINGS for op in ops)


def _as_is(tensor):
    return tensor
