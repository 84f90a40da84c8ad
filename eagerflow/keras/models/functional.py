"""The functional model: `keras.Model(inputs, outputs)` replays the recorded layer calls.

The recorded graph is the chain of `Node`s behind each output KerasTensor. It is put in an order
where every node comes after the nodes producing its inputs, once, at construction; a call then
maps each KerasTensor to a real tensor as the nodes run.
"""
from __future__ import annotations

from ..._src.core import nest
from ..layers.base import Layer
from ..layers.core.input_layer import InputLayer
from ..layers.keras_tensor import KerasTensor


def ordered_nodes(outputs):
    """Nodes from the inputs to `outputs`, each after the nodes it depends on."""
    order, seen = [], set()

    def visit(root):
        # depth first, by hand rather than by recursion: deep models pass Python's recursion limit
        stack = [(root, False)]
        while stack:
            tensor, inputs_done = stack.pop()
            node = tensor._keras_history
            if inputs_done:
                order.append(node)
                continue
            if node is None:
                raise ValueError(f"Output tensors of a Functional model must be the output of a Keras layer. "
                                 f"Received: {tensor}")
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.append((tensor, True))
            # positional and keyword arguments, nested structures entered
            stack.extend((arg, False) for arg in reversed(node.input_tensors))

    for out in nest.flatten(outputs, expand_composites=True):
        if not isinstance(out, KerasTensor):
            raise ValueError(f"All `outputs` values must be KerasTensors. Received: outputs={outputs} including "
                             f"invalid value {out} of type {type(out)}")
        visit(out)
    return order


def keras_operation_order(inputs, outputs):
    """The graph's layers and operations in Keras 3's order (`model.layers`, the config's "layers"):
    deepest first (inputs at the greatest depth, output layers at depth 0; an operation takes its
    deepest call's depth), ties in the order a depth-first walk back from the outputs first met them.
    Also the graph's nodes by depth ({depth: [node, ...]}), which summary() reads."""
    first_met, node_order = {}, []
    stops = {id(t) for t in nest.flatten(inputs, expand_composites=True)}
    finished = set()

    def walk(root):
        # depth first from `root`, by hand: a deep model (EfficientNetV2S) passes Python's recursion limit
        stack = [(root, False)]
        while stack:
            tensor, inputs_done = stack.pop()
            node = tensor._keras_history
            if inputs_done:
                if id(node) not in finished:
                    finished.add(id(node))
                    node_order.append(node)
                continue
            if id(node) in finished:
                continue
            first_met.setdefault(id(node.layer), (len(first_met), node.layer))
            stack.append((tensor, True))
            if id(tensor) not in stops:
                stack.extend((t, False) for t in reversed(node.input_tensors))

    for out in nest.flatten(outputs, expand_composites=True):
        walk(out)
    node_depth, op_depth = {}, {}
    for node in reversed(node_order):
        depth = max(node_depth.setdefault(id(node), 0), op_depth.get(id(node.layer), 0))
        op_depth[id(node.layer)] = node_depth[id(node)] = depth
        for t in node.input_tensors:
            parent = t._keras_history
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    for t in nest.flatten(inputs, expand_composites=True):  # an input no output depends on
        op_depth.setdefault(id(t._keras_history.layer), 0)
        first_met.setdefault(id(t._keras_history.layer), (-1, t._keras_history.layer))
    ranked = sorted(first_met.values(), key=lambda item: (-op_depth[id(item[1])], item[0]))
    nodes_by_depth = {}
    for node in node_order:
        nodes_by_depth.setdefault(node_depth[id(node)], []).append(node)
    return [op for _, op in ranked], nodes_by_depth


def _paths(structure, prefix=""):
    """(path, leaf) pairs with Keras' path words: "1" for a list's second item, "b" for a dict's key "b"."""
    if isinstance(structure, dict):
        items = sorted(structure.items())
    elif isinstance(structure, (list, tuple)):
        items = list(enumerate(structure))
    else:
        return [(prefix, structure)]
    return [pair for key, value in items for pair in _paths(value, f"{prefix}.{key}" if prefix else str(key))]


def check_connected(inputs, outputs):
    """Every output must be computed from the model's inputs only (Keras' message names its path)."""
    starts = {id(t) for t in nest.flatten(inputs, expand_composites=True)}

    def connected(tensor):
        seen, stack = set(), [tensor]  # (by hand, not recursion: deep models)
        while stack:
            t = stack.pop()
            if id(t) in starts:
                continue
            node = t._keras_history
            if node is None or isinstance(node.layer, InputLayer):
                return False
            if id(node) not in seen:
                seen.add(id(node))
                stack.extend(node.input_tensors)
        return True

    for path, out in _paths(outputs):
        if isinstance(out, KerasTensor) and not connected(out):
            raise ValueError(f"Output with path `{path}` is not connected to `inputs`")


class FunctionalGraph:
    """What a functional model runs: its input KerasTensors, its nodes in order, its outputs."""

    def __init__(self, inputs, outputs):
        self.inputs = inputs
        self.outputs = outputs
        for t in nest.flatten(inputs, expand_composites=True):
            if not isinstance(t, KerasTensor):
                raise ValueError(f"All `inputs` values must be KerasTensors. Received: inputs={inputs} including "
                                 f"invalid value {t} of type {type(t)}")
        self.nodes = ordered_nodes(outputs)
        check_connected(inputs, outputs)
        for t in nest.flatten(inputs, expand_composites=True):
            if not isinstance(t, KerasTensor) or not isinstance(t._keras_history.layer, InputLayer):
                raise ValueError(f"All `inputs` values must be KerasTensors created by keras.Input. Received: {t}")
        self.operations, self.nodes_by_depth = keras_operation_order(inputs, outputs)
        self.layers = [op for op in self.operations if isinstance(op, Layer)]  # keras.ops calls are not layers

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
            args, kwargs = nest.map_structure(lambda a: values[id(a)] if isinstance(a, KerasTensor) else a,
                                              (node.args, node.kwargs))
            result = node.layer(*args, **kwargs)
            for kt, value in zip(node.outputs, nest.flatten(result, expand_composites=True)):
                values[id(kt)] = value
        results = nest.map_structure(lambda kt: values[id(kt)], self.outputs, expand_composites=True)
        if isinstance(results, (list, tuple)) and len(results) == 1:  # Keras 3 unwraps `outputs=[y]` when called
            return results[0]
        return results
