"""Calling a layer on KerasTensors: build it and infer its output shapes without data.

Why trace: the layer's own ops already know their shape rules. Tracing the call once with
TensorSpecs that have a None batch dimension gives the outputs' static shapes and dtypes (and
builds the layer's weights, from NumPy initial values, on the way).
"""
from __future__ import annotations

from ..._src.core import nest
from ..._src.core.tensor import TensorSpec
from ..._src.trace.function import function
from .keras_tensor import KerasTensor, Node


def symbolic_call(layer, args, kwargs):
    flat_inputs = [v for v in nest.flatten(args, expand_composites=True) if isinstance(v, KerasTensor)]

    def spec(v):
        return TensorSpec(v.shape, v.dtype) if isinstance(v, KerasTensor) else v

    spec_args = nest.map_structure(spec, args, expand_composites=True)
    static_kwargs = dict(kwargs)

    def run(*inputs):
        return layer(*inputs, **static_kwargs)

    traced = function(run, autograph=False)
    concrete = traced.get_concrete_function(*spec_args)
    out_structure = concrete.structured_outputs
    layer._clear_losses()  # losses met while inferring shapes are the trace's, not a real call's
    outputs = nest.map_structure(lambda t: KerasTensor(tuple(t.shape.as_list()), t.dtype), out_structure,
                                 expand_composites=True)
    flat_outputs = nest.flatten(outputs, expand_composites=True)
    node = Node(layer, args, static_kwargs, flat_outputs)
    for t in flat_outputs:
        t._keras_history = node
    del flat_inputs
    layer._last_output_shape = nest.map_structure(lambda t: t.shape, outputs, expand_composites=True)
    return outputs
