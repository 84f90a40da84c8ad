"""Calling a layer on KerasTensors: build it and infer its output shapes without data.

Why trace: the layer's own ops already know their shape rules. Tracing the call once with
TensorSpecs that have a None batch dimension gives the outputs' static shapes and dtypes (and
builds the layer's weights, from NumPy initial values, on the way). KerasTensors may sit anywhere
in the arguments: the first input, nested lists/dicts, or keywords (`initial_state=[h, c]`,
`attention_mask=m`); each becomes one traced input and the rest of the call stays as given.
"""
from __future__ import annotations

from ..._src.core import nest
from ..._src.core.tensor import TensorSpec
from ..._src.trace.function import function
from .keras_tensor import KerasTensor, Node


def symbolic_call(layer, args, kwargs):
    structure = (tuple(args), dict(kwargs))
    leaves = nest.flatten(structure)
    positions = [i for i, v in enumerate(leaves) if isinstance(v, KerasTensor)]

    def run(*tensors):
        filled = list(leaves)
        for i, t in zip(positions, tensors):
            filled[i] = t
        call_args, call_kwargs = nest.pack_sequence_as(structure, filled)
        return layer(*call_args, **call_kwargs)

    specs = [TensorSpec(leaves[i].shape, leaves[i].dtype) for i in positions]
    concrete = function(run, autograph=False).get_concrete_function(*specs)
    out_structure = concrete.structured_outputs
    layer._clear_losses()  # losses met while inferring shapes are the trace's, not a real call's
    outputs = nest.map_structure(lambda t: KerasTensor(tuple(t.shape.as_list()), t.dtype), out_structure,
                                 expand_composites=True)
    flat_outputs = nest.flatten(outputs, expand_composites=True)
    node = Node(layer, tuple(args), dict(kwargs), flat_outputs)
    for t in flat_outputs:
        t._keras_history = node
    layer._last_output_shape = nest.map_structure(lambda t: t.shape, outputs, expand_composites=True)
    return outputs
