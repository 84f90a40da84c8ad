"""Tracer: runs a Python function once on placeholders, and what comes out is a Graph.

The first of a trace's three steps (trace/function.py `Function._trace` runs them): the Tracer
builds the graph; codegen/program.py `compile_program` turns it into an Executable; a
ConcreteFunction (trace/concrete.py) binds a call's arguments and runs it. The Tracer knows
nothing of caches, retracing or compiling: it gets the call (TensorSpecs where tensors go), makes
a placeholder for each tensor (trace/placeholders.py), runs the function (through AutoGraph when
asked) under a graph context with the outer tapes hidden, and returns the finished graph with the
variables the run created.
"""
from __future__ import annotations

import functools
import inspect

from ..core import nest
from ..core.context import graph_scope, state
from ..core.convert import convert_to_tensor
from ..core.tensor import Tensor
from . import placeholders as _ph


class TracedGraph:
    """What one run of a Tracer made: the `graph` (its outputs, structured outputs and names
    final), `param_specs` ([(parameter name, TensorSpec)] for its placeholders, in order),
    `captures` (id(placeholder) -> the eager value it stands for) and `created` (the Variables the
    run created)."""

    __slots__ = ("graph", "param_specs", "captures", "created")

    def __init__(self, graph, param_specs, captures, created):
        self.graph = graph
        self.param_specs = param_specs
        self.captures = captures
        self.created = created


class _NoNewVariables(list):
    """The variables a trace creates, for a trace that may create none: the first one raises, from the
    `tf.Variable(...)` call itself, so the traceback shows the user's line that creates it."""

    def append(self, variable):
        raise ValueError(
            "tf.function only supports singleton tf.Variables created on the first call. Make sure "
            "the tf.Variable is only created once or created outside tf.function. See "
            "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")


class Tracer:
    """Runs Python functions with this signature into graphs named `name`. `autograph`: tensor
    if/while/for become cond/while_loop (converted once per function). `described_as`: the user's
    function as errors name it (the unbound function of a method)."""

    def __init__(self, name, signature, *, autograph, described_as):
        self.name = name
        self.signature = signature
        self.autograph = autograph
        self.described_as = described_as

    def run(self, python_function, args, kwargs, may_create_variables=True) -> TracedGraph:
        """`python_function(*args, **kwargs)` on placeholders, in a new graph nested in the one
        being traced now, if any (so it may close over the caller's tensors); args hold
        TensorSpecs where tensors go. Without `may_create_variables`, a `tf.Variable(...)` in the
        function raises TensorFlow's ValueError at the user's line that creates it."""
        from ..graph.graph import Graph
        from ..ops.array.basic import identity
        graph = Graph(self.name, outer=state.graph)
        param_specs = []
        symbols = []
        created = [] if may_create_variables else _NoNewVariables()
        saved = state.created_variables
        saved_tapes = state.tapes
        state.created_variables = created
        state.tapes = []  # tapes outside never see the ops of a graph being traced
        try:
            with graph_scope(graph):
                call_args, call_kwargs = self._placeholders(args, kwargs, graph, param_specs, symbols)
                if self.autograph:
                    python_function = _converted(python_function)
                result = python_function(*call_args, **call_kwargs)
                del python_function
                flat = nest.flatten(result, expand_composites=True) if result is not None else []
                outputs = []
                for value in flat:
                    if value is None:
                        continue
                    outputs.append(identity(value if isinstance(value, Tensor) else self._output_tensor(value)))
                graph.outputs = outputs
                packable = result is not None and nest.flatten(result, expand_composites=True) and None not in flat
                graph.structured_outputs = (nest.pack_sequence_as(result, [o for o in outputs], expand_composites=True)
                                            if packable else
                                            (result if result is None else _ph.pack_with_nones(result, outputs)))
        finally:
            state.created_variables = saved
            state.tapes = saved_tapes
        graph.finalize_names()
        captures = {}
        for external, internal in graph.captures:
            if hasattr(external, "_value"):  # not a tensor of an enclosing trace (see ConcreteFunction)
                captures[id(internal)] = external._value
        return TracedGraph(graph, param_specs, captures, created)

    def _placeholders(self, args, kwargs, graph, param_specs, symbols):
        """The call with a placeholder for every TensorSpec, bound as the signature binds it."""
        signature = self.signature
        bound = signature.bind(*args, **kwargs)
        symbolic = {}
        for pname, value in bound.arguments.items():
            kind = signature.parameters[pname].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                symbolic[pname] = tuple(_ph.placeholders(v, f"{pname}_{i}", graph, param_specs, symbols)
                                        for i, v in enumerate(value))
            elif kind is inspect.Parameter.VAR_KEYWORD:
                symbolic[pname] = {k: _ph.placeholders(v, k, graph, param_specs, symbols) for k, v in value.items()}
            else:
                symbolic[pname] = _ph.placeholders(value, pname, graph, param_specs, symbols)
        return _ph.rebind(signature, symbolic)

    def _output_tensor(self, value):
        """A returned non-tensor leaf as a tensor, or TensorFlow's TypeError for one that has none."""
        try:
            return convert_to_tensor(value)
        except (TypeError, ValueError):
            raise TypeError(
                f"To be compatible with tf.function, Python functions must return zero or more Tensors or "
                f"ExtensionTypes or None values; in compilation of {self.described_as!r}, found "
                f"return value of type {type(value).__name__}, which is not a Tensor or ExtensionType.") from None


def _converted(python_function):
    """The function through AutoGraph (transform.py caches the conversion per function)."""
    from ..autograph.transform import convert_function
    if isinstance(python_function, functools.partial):  # a user's partial, or a method whose instance is gone
        return functools.partial(convert_function(python_function.func), *python_function.args,
                                 **python_function.keywords)
    return convert_function(python_function)
