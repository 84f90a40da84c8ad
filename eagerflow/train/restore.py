"""Restoring a TensorFlow-format checkpoint: the saved object graph and the live objects walked side by side.

From the root, each saved child (by local name) is looked up among the live object's children
(object_graph.children); a variable's node gives it the value stored under its key. A saved child that has no
live counterpart yet waits on the nearest live object that can be referenced weakly
(_src/state/deferred_restore.py) and is restored when that object gets new state, as TensorFlow restores a
variable created after `restore()`. Every value is checked (dtype, shape) before any variable changes, so a
failed restore changes nothing.
"""
from __future__ import annotations

import weakref

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.errors import DataLossError, InvalidArgumentError
from .._src.core.scopes import init_scope
from .._src.state import deferred_restore
from .._src.state.variables import Variable
from . import object_graph


class RestoreSession:
    """One `restore`/`read` of one checkpoint: its graph, its values, which saved nodes met which objects."""

    def __init__(self, graph, values: dict, save_path: str):
        self.graph = graph
        self.values = values  # checkpoint key -> ndarray
        self.save_path = save_path
        self.matched = {}  # saved node number -> weak reference to the object it met
        self.restored_nodes = set()
        self._resumers = {}  # anchor node -> the function that resumes the walk there

    # --- matching ---
    def start(self, root) -> None:
        """Match from the root. The session holds no object strongly: objects waiting for values hold it
        (through _src/state/deferred_restore.py), and it must not hold them back."""
        self._run([(0, root, root, 0)])

    def _run(self, pending) -> set:
        """Match saved nodes to objects from each (node, object, anchor, anchor node) in `pending`; assign the
        values found, all checked first. Returns the anchor nodes that still wait."""
        assignments = []
        waits = []
        seen = set()
        while pending:
            node_id, obj, anchor, anchor_node = pending.pop()
            if (node_id, id(obj)) in seen:
                continue
            seen.add((node_id, id(obj)))
            if _weakly(obj):
                self.matched[node_id] = weakref.ref(obj)
            node = self.graph.nodes[node_id]
            if node.attributes and node_id not in self.restored_nodes:
                if isinstance(obj, Variable) or (object_graph.is_table(obj)
                                                 and node.attributes[0].name == object_graph.TABLE):
                    assignments.append((node_id, obj, node))
            if _weakly(obj) and not isinstance(obj, Variable):
                anchor, anchor_node = obj, node_id
            live = dict(_restore_children(obj)) if node.children else {}
            for ref in node.children:
                child = live.get(ref.local_name)
                if child is None:
                    if self.graph.nodes[ref.node_id].has_checkpoint_values.value:
                        waits.append((anchor, anchor_node))
                    continue
                pending.append((ref.node_id, child, anchor, anchor_node))
        checked = [(node_id, target, self._value_for(target, node)) for node_id, target, node in assignments]
        with init_scope():  # eagerly, also when the variables are made while a function or a model traces
            for node_id, target, value in checked:
                if isinstance(target, Variable):
                    target.assign(value)
                else:  # a table: its entries sorted by key, as it keeps them
                    target._keys.assign(value[0])
                    target._values.assign(value[1])
                self.restored_nodes.add(node_id)
        for anchor, anchor_node in waits:
            deferred_restore.wait(anchor, self._resumer(anchor_node))
        return {anchor_node for _, anchor_node in waits}

    def _resumer(self, anchor_node):
        """The function that resumes the walk at `anchor_node` when its object gets new state; it holds this
        session (its values) for as long as the object waits."""
        resume = self._resumers.get(anchor_node)
        if resume is None:
            def resume(owner):
                if anchor_node not in self._run([(anchor_node, owner, owner, anchor_node)]):
                    deferred_restore.stop_waiting(owner, resume)
            self._resumers[anchor_node] = resume
        return resume

    def _value_for(self, target, node):
        keys = object_graph.attribute_keys(node.attributes[0])
        for key in keys:
            if key not in self.values:
                raise DataLossError(None, None, f"{self.save_path}: the object graph names key {key[:200]!r}, "
                                                f"which the checkpoint does not hold")
        if isinstance(target, Variable):
            return check_value(target, self.values[keys[0]], keys[0])
        return check_table(target, self.values[keys[0]], self.values[keys[1]], keys[0])

    # --- what the status reports ---
    @staticmethod
    def live_variables(root):
        """Every variable below `root`, each once."""
        found, seen, queue = [], {id(root)}, [root]
        for obj in queue:
            for _, child in object_graph.children(obj):
                if id(child) in seen:
                    continue
                seen.add(id(child))
                queue.append(child)
                if isinstance(child, Variable):
                    found.append(child)
        return found

    def matched_object(self, node_id):
        held = self.matched.get(node_id)
        return None if held is None else held()

    def unbound_variables(self, root):
        """The variables below `root` that took no value from the checkpoint."""
        bound = {id(self.matched_object(n)) for n in self.restored_nodes}
        return [v for v in self.live_variables(root) if id(v) not in bound]

    def unresolved_nodes(self):
        """Saved nodes holding values that no live variable took: [(path, node)]."""
        paths = object_graph.saved_paths(self.graph)
        return [(paths[i], node) for i, node in enumerate(self.graph.nodes)
                if node.attributes and i not in self.restored_nodes]


def check_value(var, value, key):
    """`value` if it can be assigned to `var`; TensorFlow's errors for another dtype or an incompatible shape."""
    value = np.asarray(value)
    stored = _dt.string if value.dtype.kind in "OSU" else _dt.from_numpy(value.dtype)
    if stored != var.dtype:
        raise InvalidArgumentError(None, None, f"tensor_name = {key}; expected dtype {_tf_name(var.dtype)} does not "
                                               f"equal original dtype {_tf_name(stored)}")
    if not var.shape.is_compatible_with(value.shape):
        raise ValueError(f"Received incompatible tensor with shape {tuple(value.shape)} when attempting to "
                         f"restore variable with shape {tuple(var.shape.as_list())} and name {var.name}.")
    return value


def _restore_children(obj):
    """The live children a saved node's children may meet: object_graph's, and for a table the two variables
    that checkpoints eagerflow wrote before tables were saved as TensorFlow saves them hold its entries under."""
    if object_graph.is_table(obj):
        return [("_keys", obj._keys), ("_values", obj._values)]
    return object_graph.children(obj)


def check_table(table, keys, values, key):
    """(keys, values) sorted by key for `table`, checked against its key and value dtypes and value shape."""
    keys, values = np.asarray(keys), np.asarray(values)
    for name, array, dtype in (("keys", keys, table.key_dtype), ("values", values, table.value_dtype)):
        stored = _dt.string if array.dtype.kind in "OSU" else _dt.from_numpy(array.dtype)
        if stored != dtype:
            raise InvalidArgumentError(None, None, f"tensor_name = {key}; expected dtype {_tf_name(dtype)} does "
                                                   f"not equal original dtype {_tf_name(stored)} (table {name})")
    if keys.ndim != 1 or values.shape[:1] != keys.shape or tuple(values.shape[1:]) != tuple(table._value_shape):
        raise InvalidArgumentError(None, None, f"tensor_name = {key}; the table's {keys.shape} keys and "
                                               f"{values.shape} values do not fit its value shape "
                                               f"{tuple(table._value_shape)}")
    order = np.argsort(keys, kind="stable")
    return keys[order], values[order]


def _weakly(obj) -> bool:
    if isinstance(obj, (list, tuple, dict, object_graph.Group)):
        return False
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True


def _tf_name(dtype) -> str:
    """TensorFlow's DataTypeString ("float" for float32, "double" for float64)."""
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def read_values(reader, graph_key=object_graph.OBJECT_GRAPH_KEY):
    """(graph, {key: ndarray}) of a bundle; a graph that does not parse or names a missing node is data loss."""
    from .._src.formats.protos import trackable_object_graph_pb2

    if graph_key not in reader:
        raise DataLossError(None, None, f"{reader.prefix}: the checkpoint has no object graph "
                                        f"({graph_key}); it was not written by tf.train.Checkpoint")
    raw = reader.read(graph_key)
    try:
        graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(bytes(np.asarray(raw, object).item()))
    except Exception as err:  # protobuf's DecodeError
        raise DataLossError(None, None, f"{reader.prefix}: its object graph does not parse "
                                        f"({type(err).__name__})") from None
    count = len(graph.nodes)
    if count == 0:
        raise DataLossError(None, None, f"{reader.prefix}: its object graph has no root")
    for node in graph.nodes:
        for ref in node.children:
            if not 0 <= ref.node_id < count:
                raise DataLossError(None, None, f"{reader.prefix}: its object graph refers to node {ref.node_id} "
                                                f"of {count}")
    keys = {key for node in graph.nodes if node.attributes for key in object_graph.attribute_keys(node.attributes[0])}
    values = {key: reader.read(key) for key in keys if key in reader}
    return graph, values
