"""The functional model: `keras.Model(inputs, outputs)` replays the recorded layer calls.

The recorded graph is the chain of `Node`s behind each output KerasTensor. It is put in an order
where every node comes after the nodes producing its inputs, once, at construction; a call then
maps each KerasTensor to a real tensor as the nodes run.
"""
from __future__ import annotations

from ..._src.core import nest
from ..layers.core.input_layer import InputLayer
from ..layers.keras_tensor import KerasTensor
from .layer_order import keras_layer_order


def ordered_nodes(outputs):
    """Nodes from the inputs to `outputs`, each after the nodes it depends on."""
    order, seen = [], set()

    def visit(tensor):
        node = tensor._keras_history
        if node is None:
            raise ValueError(f"Output tensors of a Functional model must be the output of a Keras layer. "
                             f"Received: {tensor}")
        if id(node) in seen:
            return
        seen.add(id(node))
        for arg in nest.flatten(node.args, expand_composites=True):
            if isinstance(arg, KerasTensor):
                visit(arg)
        order.append(node)

    for out in nest.flatten(outputs, expand_composites=True):
        visit(out)
    return order


class FunctionalGraph:
    """What a functional model runs: its input KerasTensors, its nodes in order, its outputs."""

    def __init__(self, inputs, outputs):
        self.inputs = inputs
        self.outputs = outputs
        self.nodes = ordered_nodes(outputs)
        for t in nest.flatten(inputs, expand_composites=True):
            if not isinstance(t, KerasTensor) or not isinstance(t._keras_history.layer, InputLayer):
                raise ValueError(f"All `inputs` values must be KerasTensors created by keras.Input. Received: {t}")
        self.layers = keras_layer_order(outputs)

    def run(self, inputs):
        values = {}
        flat_in = nest.flatten(self.inputs, expand_composites=True)
        one_input = len(flat_in) == 1 and not isinstance(inputs, (list, tuple, dict))
        given = [inputs] if one_input else nest.flatten(inputs, expand_composites=True)
        if len(given) != len(flat_in):
            raise ValueError(f"Functional model expects {len(flat_in)} input(s), but it received {len(given)} "
                             f"input tensors.")
        for kt, value in zip(flat_in, given):
            values[id(kt)] = value
        for node in self.nodes:
            if isinstance(node.layer, InputLayer):
                continue
            args = nest.map_structure(lambda a: values[id(a)] if isinstance(a, KerasTensor) else a, node.args,
                                      expand_composites=True)
            result = node.layer(*args, **node.kwargs)
            for kt, value in zip(node.outputs, nest.flatten(result, expand_composites=True)):
                values[id(kt)] = value
        return nest.map_structure(lambda kt: values[id(kt)], self.outputs, expand_composites=True)
