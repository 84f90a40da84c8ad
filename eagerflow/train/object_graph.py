"""The object graph a checkpoint records: which objects hold which variables, under TensorFlow's names.

TensorFlow saves a checkpoint as a graph of "trackable" objects: node 0 is the `tf.train.Checkpoint`, each node
names its children (`local_name`), and a variable's node records the key its value is stored under. The key is
the path of local names by which a breadth-first walk from the root first reaches the variable, each name
escaped ('.' as '..', '/' as '.S'), then `/.ATTRIBUTES/VARIABLE_VALUE`. Restoring walks the saved graph and
the live objects side by side, so values go back by path, whatever object identities are.

`children(obj)` gives an object's children as TensorFlow (with Keras 3) names them, so that TensorFlow and
eagerflow read each other's checkpoints:
- a `tf.Variable` is a leaf;
- lists and tuples: "0", "1", ...; dicts: their keys (sorted);
- a Keras layer: its attributes that hold weights or layers, in assignment order (lists of layers are not
  children, as in Keras 3), with Keras 3's attribute names where eagerflow's differ (Dense's kernel is
  `_kernel`; an LSTM's weights live in its `cell`); a Sequential model's layers are `_functional/_operations/i`
  (0 is its input), a functional model's `_operations/i` in Keras' operation order; a compiled model's
  optimizer is its child `optimizer`;
- a Keras optimizer: `_variables` (iterations, learning rate, then the slots), `_trainable_variables`,
  `_iterations`, `_learning_rate`;
- a `tf.lookup.experimental.MutableHashTable` is a leaf whose one attribute `table` is saved as two tensors,
  `<path>/.ATTRIBUTES/table-keys` and `table-values` (its entries, in any order), as TensorFlow saves a table;
- any other object with attributes (a `tf.Module`, a user class): its attributes in assignment order.
"""
from __future__ import annotations

import inspect
import types

import numpy as np

from .._src.state.variables import Variable

VARIABLE_VALUE = "VARIABLE_VALUE"
ATTRIBUTES = ".ATTRIBUTES"
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"

_NOT_TRACKABLE = (bool, int, float, complex, str, bytes, type(None), np.ndarray, np.generic)

# Keras 3's attribute name for a weight, where it is not the weight's own name: {class name: {weight: attr}}.
_KERAS_WEIGHT_ATTRIBUTE = {
    "Dense": {"kernel": "_kernel"}, "EinsumDense": {"kernel": "_kernel"}, "Conv1D": {"kernel": "_kernel"},
    "Conv2D": {"kernel": "_kernel"}, "Conv3D": {"kernel": "_kernel"}, "Embedding": {"embeddings": "_embeddings"},
    "Normalization": {"mean": "adapt_mean", "variance": "adapt_variance"},
}
# Keras 3 recurrent layers keep their weights in a cell layer (`lstm.cell.kernel`).
_KERAS_CELL_LAYERS = {"LSTM", "GRU", "SimpleRNN", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"}
# eagerflow's bookkeeping on Keras objects: not state TensorFlow saves.
_KERAS_PRIVATE = {"_tracked_weights", "_tracked_layers", "_losses", "_compile_optimizer", "_input_layer", "_stack",
                  "_graph", "_compiled_metrics", "_weighted_metrics", "_output_loss_trackers", "optimizer"}


TABLE = "table"  # a lookup table's attribute; its tensors are under the key plus TABLE_SUFFIXES
TABLE_SUFFIXES = ("-keys", "-values")


def is_table(obj) -> bool:
    """A MutableHashTable: saved as TensorFlow saves a table, not as the two variables eagerflow keeps it in."""
    if type(obj).__name__ != "MutableHashTable":
        return False
    from .._src.state.mutable_hash_table import MutableHashTable
    return isinstance(obj, MutableHashTable)


def attribute_keys(attribute) -> list:
    """The bundle keys that hold a saved attribute's value: its key, or a table's keys and values."""
    if attribute.name == TABLE:
        return [attribute.checkpoint_key + suffix for suffix in TABLE_SUFFIXES]
    return [attribute.checkpoint_key]


def escape(local_name: str) -> str:
    return local_name.replace(".", "..").replace("/", ".S")


def variable_key(path: str) -> str:
    return f"{path}/{ATTRIBUTES}/{VARIABLE_VALUE}"


def full_name(variable) -> str:
    """The name TensorFlow records beside a variable's key: a Keras weight's path, else the variable's name."""
    path = getattr(variable, "path", None)
    if isinstance(path, str) and path:
        return path
    name = variable.name
    return name[:-2] if name.endswith(":0") else name


class Group:
    """A node that holds children but is no Python object of its own (a Keras model's `_functional`, a
    recurrent layer's `cell` in eagerflow, where these are not separate objects)."""

    def __init__(self, owner, children):
        self.owner = owner
        self.items = children


def _keras_classes():
    from ..keras.layers.base import Layer
    from ..keras.optimizers.base import Optimizer
    return Layer, Optimizer


def trackable(value) -> bool:
    """Whether `value` can hold checkpointed state: variables, containers, objects with attributes; not
    numbers, arrays, tensors, functions, classes, modules, or tf.data objects (whose state eagerflow does not
    checkpoint)."""
    if isinstance(value, _NOT_TRACKABLE) or isinstance(value, (type, types.ModuleType)) \
            or inspect.isroutine(value):
        return False
    from .._src.core.tensor import Tensor
    if isinstance(value, Tensor) or type(value).__module__.startswith("eagerflow._src.data"):
        return False
    if isinstance(value, (Variable, list, tuple, dict, Group)):
        return True
    from .._src.trace.function import ConcreteFunction, Function
    if isinstance(value, (Function, ConcreteFunction)) or type(value).__name__ == "RestoredFunction":
        return False  # functions hold graphs, not state: their variables belong to objects
    if type(value).__module__.startswith("eagerflow.keras") and type(value).__name__ == "KerasTensor":
        return False
    return hasattr(value, "__dict__")


def _keras_class_name(layer, table) -> str | None:
    """The first built-in Keras class of `layer` (a user subclass of Dense is a Dense) that `table` names."""
    for cls in type(layer).__mro__:
        if cls.__module__.startswith("eagerflow.keras") and cls.__name__ in table:
            return cls.__name__
    return None


def _layer_children(layer, Layer, Optimizer):
    from ..keras.models.sequential import Sequential
    if isinstance(layer, Sequential):
        operations = [layer._input_layer] + list(layer._stack)
        out = [("_functional", Group(layer, [("_operations", Group(layer, _listed(operations)))]))]
    elif hasattr(layer, "_graph") and hasattr(layer._graph, "operations"):
        out = [("_operations", Group(layer, _listed(layer._graph.operations)))]
    else:
        renames = _KERAS_WEIGHT_ATTRIBUTE.get(_keras_class_name(layer, _KERAS_WEIGHT_ATTRIBUTE), {})
        out, named = [], []
        for name, value in vars(layer).items():
            if name in _KERAS_PRIVATE or not isinstance(value, (Variable, Layer, Optimizer)):
                continue
            if isinstance(value, Variable):
                named.append(value)
                name = renames.get(getattr(value, "name", name), name) if name == getattr(value, "name", None) \
                    else name
            out.append((name, value))
        for weight in getattr(layer, "_tracked_weights", ()):  # made by add_weight and kept only there
            if not any(weight is v for v in named):
                short = getattr(weight, "name", "variable")
                out.append((renames.get(short, short), weight))
        if _keras_class_name(layer, _KERAS_CELL_LAYERS) and "cell" not in vars(layer):
            weights = [(n, v) for n, v in out if isinstance(v, Variable)]
            out = [(n, v) for n, v in out if not isinstance(v, Variable)] + [("cell", Group(layer, weights))]
    optimizer = vars(layer).get("optimizer")
    if isinstance(optimizer, Optimizer):
        out.append(("optimizer", optimizer))
    return out


# An eagerflow optimizer's bookkeeping: the variables in it are reached by Keras 3's names below.
_OPTIMIZER_PRIVATE = {"_iterations", "_learning_rate", "_trainable_variables", "_slot_index", "_slots",
                      "_extra_variables", "_schedule"}


def _optimizer_children(optimizer, Optimizer):
    """Keras 3's: `_variables` (its own: iterations, learning rate, slots, extras; not a wrapped optimizer's),
    `_trainable_variables`, `_iterations`, `_learning_rate`, then its attributes holding a variable or an
    optimizer (a LossScaleOptimizer's `inner_optimizer`, `step_counter`, `dynamic_scale`; Nadam's `_u_product`)."""
    own = Optimizer.variables.fget(optimizer)
    out = [("_variables", Group(optimizer, _listed(own))),
           ("_trainable_variables", Group(optimizer, _listed(optimizer._trainable_variables))),
           ("_iterations", optimizer._iterations)]
    if getattr(optimizer, "_learning_rate", None) is not None:
        out.append(("_learning_rate", optimizer._learning_rate))
    out += [(name, value) for name, value in vars(optimizer).items()
            if name not in _OPTIMIZER_PRIVATE and isinstance(value, (Variable, Optimizer))]
    return out


def _listed(values):
    return [(str(i), v) for i, v in enumerate(values) if v is not None]


def children(obj) -> list:
    """[(local name, child)] of `obj`, in TensorFlow's order (see the module docstring)."""
    if isinstance(obj, Variable) or is_table(obj):
        return []
    if isinstance(obj, Group):
        return [(n, v) for n, v in obj.items if trackable(v)]
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if trackable(v)]
    if isinstance(obj, dict):
        return [(str(k), obj[k]) for k in sorted(obj, key=str) if trackable(obj[k])]
    own = getattr(obj, "_checkpoint_children", None)
    if callable(own):
        return own()
    Layer, Optimizer = _keras_classes()
    if isinstance(obj, Layer):
        return [(n, v) for n, v in _layer_children(obj, Layer, Optimizer) if trackable(v)]
    if isinstance(obj, Optimizer):
        return _optimizer_children(obj, Optimizer)
    if not hasattr(obj, "__dict__") or isinstance(obj, type):
        return []
    return [(n, v) for n, v in vars(obj).items() if not n.startswith("_self_") and trackable(v)]


def build(root):
    """The saved graph of everything below `root`: (TrackableObjectGraph, {checkpoint key: Variable}).

    Nodes are numbered in breadth-first order from the root; an object reached twice is one node (its second
    parent refers to it), and its key is its first path."""
    from .._src.formats.protos import trackable_object_graph_pb2

    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    node_of = {}  # id(object) -> node number, for objects held alive by `order` during this walk
    order, paths = [root], [""]
    node_of[id(root)] = 0
    values = {}
    position = 0
    while position < len(order):
        obj, path = order[position], paths[position]
        node = graph.nodes.add()
        if isinstance(obj, Variable):
            key = variable_key(path)
            node.attributes.add(name=VARIABLE_VALUE, full_name=full_name(obj), checkpoint_key=key)
            values[key] = obj
        elif is_table(obj):
            key = f"{path}/{ATTRIBUTES}/{TABLE}"
            node.attributes.add(name=TABLE, checkpoint_key=key)
            values[key + TABLE_SUFFIXES[0]], values[key + TABLE_SUFFIXES[1]] = obj._keys, obj._values
        for local_name, child in children(obj):
            number = node_of.get(id(child))
            if number is None:
                number = node_of[id(child)] = len(order)
                order.append(child)
                paths.append(f"{path}/{escape(local_name)}" if path else escape(local_name))
            node.children.add(node_id=number, local_name=local_name)
        position += 1
    _mark_values(graph)
    return graph, values


def _mark_values(graph) -> None:
    """`has_checkpoint_values` on every node with a saved value at or below it."""
    has = [bool(node.attributes) for node in graph.nodes]
    changed = True
    while changed:
        changed = False
        for i, node in enumerate(graph.nodes):
            if not has[i] and any(has[c.node_id] for c in node.children):
                has[i] = changed = True
    for i, node in enumerate(graph.nodes):
        node.has_checkpoint_values.value = has[i]


def saved_paths(graph) -> list:
    """For each node of a saved graph, its first path from the root as TensorFlow prints it ("(root).model.v"),
    or None for a node the root does not reach."""
    paths = [None] * len(graph.nodes)
    if not paths:
        return paths
    paths[0] = "(root)"
    queue = [0]
    for current in queue:
        for ref in graph.nodes[current].children:
            if 0 <= ref.node_id < len(paths) and paths[ref.node_id] is None:
                paths[ref.node_id] = f"{paths[current]}.{ref.local_name}"
                queue.append(ref.node_id)
    return paths
