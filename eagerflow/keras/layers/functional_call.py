"""Calling a layer on KerasTensors: build it and infer its output shapes without data.

Why trace: the layer's own ops already know their shape rules. Tracing the call once with
TensorSpecs that have a None batch dimension gives the outputs' static shapes and dtypes (and
builds the layer's weights, from NumPy initial values, on the way). The trace is a graph only: no
tf.function, so nothing is compiled or cached for a call that never runs. KerasTensors may sit anywhere
in the arguments: the first input, nested lists/dicts, or keywords (`initial_state=[h, c]`,
`attention_mask=m`); each becomes one traced input and the rest of the call stays as given.
"""
from __future__ import annotations

import inspect

from ..._src.core import nest
from ..._src.core.tensor import TensorSpec
from ..._src.trace.tracer import Tracer
from .keras_tensor import KerasTensor, Node


_RUN_SIGNATURE = inspect.signature(lambda *tensors: None)


def record_symbolic_call(op, args, kwargs, after_trace=None):
    """Traces `op(*args, **kwargs)` once on TensorSpecs of its KerasTensor arguments (wherever they sit
    in the arguments) and returns new KerasTensors for its outputs, recorded as one Node of the graph.
    `after_trace` runs once the trace is done (a layer drops the losses the trace met)."""
    structure = (tuple(args), dict(kwargs))
    leaves = nest.flatten(structure)
    positions = [i for i, v in enumerate(leaves) if isinstance(v, KerasTensor)]

    def run(*tensors):
        filled = list(leaves)
        for i, t in zip(positions, tensors):
            filled[i] = t
        call_args, call_kwargs = nest.pack_sequence_as(structure, filled)
        return op(*call_args, **call_kwargs)

    specs = [TensorSpec(leaves[i].shape, leaves[i].dtype) for i in positions]
    # only the graph's outputs are wanted (shapes and dtypes): the Tracer alone, no compiled program
    tracer = Tracer(getattr(op, "name", "symbolic_call") or "symbolic_call", _RUN_SIGNATURE, autograph=False,
                    described_as=run)
    out_structure = tracer.run(run, specs, {}).graph.structured_outputs
    if after_trace is not None:
        after_trace()
    outputs = nest.map_structure(lambda t: KerasTensor(tuple(t.shape.as_list()), t.dtype), out_structure,
                                 expand_composites=True)
    node = Node(op, tuple(args), dict(kwargs), nest.flatten(outputs, expand_composites=True))
    for t in node.outputs:
        t._keras_history = node
    return outputs


def symbolic_call(layer, args, kwargs):
    # losses met while inferring shapes are the trace's, not a real call's
    outputs = record_symbolic_call(layer, args, kwargs, after_trace=layer._clear_losses)
    layer._last_output_shape = nest.map_structure(lambda t: t.shape, outputs, expand_composites=True)
    return outputs
