"""The order Keras 3 lists a functional model's layers in (model.layers, and so model.weights,
get_weights and summary): by depth, the longest path to an output first; layers of equal depth in
the order a depth-first walk from the outputs (through each call's tensor arguments in order) first
reaches them. A residual block's long branch therefore comes before its shortcut, whatever order
the Python code built them in; weight files saved by Keras list layers in this order."""
from __future__ import annotations

from ..._src.core import nest
from ..layers.core.input_layer import InputLayer
from ..layers.keras_tensor import KerasTensor


def _parents(node):
    """The nodes that produced `node`'s KerasTensor arguments, in argument order."""
    if isinstance(node.layer, InputLayer):
        return []
    return [arg._keras_history for arg in nest.flatten(node.args, expand_composites=True)
            if isinstance(arg, KerasTensor) and arg._keras_history is not None]


def keras_layer_order(outputs):
    """The layers behind `outputs` in Keras 3's order."""
    first_reached = {}  # id(layer) -> (walk index, layer); local to this call, the layers are alive
    post_order, finished = [], set()
    for out in nest.flatten(outputs, expand_composites=True):
        stack = [(out._keras_history, False)]
        while stack:
            node, parents_done = stack.pop()
            if node is None or id(node) in finished:
                continue
            if parents_done:
                finished.add(id(node))
                post_order.append(node)
                continue
            first_reached.setdefault(id(node.layer), (len(first_reached), node.layer))
            stack.append((node, True))
            stack.extend((parent, False) for parent in reversed(_parents(node)))
    node_depth, layer_depth = {}, {}
    for node in reversed(post_order):
        depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)] = node_depth[id(node)] = depth
        for parent in _parents(node):
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    ranked = sorted(first_reached.items(), key=lambda item: (-layer_depth.get(item[0], 0), item[1][0]))
    return [layer for _, (_, layer) in ranked]
