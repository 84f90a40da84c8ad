"""The object tree as TensorFlow's SavedObjectGraph, and the same tree as the checkpoint's
TrackableObjectGraph (node i is the same object in both, so TensorFlow's loader matches the saved
variable values to the variables it creates).

What is saved is what the JSON format saved (save.py's walk): Variables, tf.functions (every
trace), ConcreteFunctions, and the tf.Modules, plain objects, lists, tuples and dicts holding them."""
from __future__ import annotations

import inspect

from ..._src.core.tensor import Tensor
from ..._src.formats.graph_export.attr_values import ExportError, shape_proto
from ..._src.formats.dtypes import datatype_number as datatype
from ..._src.formats.graph_export.function_export import export_concrete_function
from ..._src.state.module import Module
from ..._src.state.variables import Variable
from ..._src.trace.function import ConcreteFunction, Function
from ..asset import Asset
from ..default_save_signature import add_child as add_default_save_signature
from . import structured
from .mutable_tables import MutableTables, SavedMutableTable
from .table_resources import SavedTable, TableResources

_VERSION = {"producer": 1, "min_consumer": 1}
# A Keras model's compiled training/evaluation/prediction steps: Keras 3 leaves them out of a
# SavedModel (they hold optimizer updates, and a served model predicts through its signatures).
_KERAS_EXECUTION = frozenset({"_step_functions", "train_function", "test_function", "predict_function"})
_WRAPPERS = {list: "trackable_list_wrapper", tuple: "trackable_tuple_wrapper", dict: "trackable_dict_wrapper"}


def _is_summary_writer(value):
    """A summary writer is left out, as TensorFlow leaves it out: its event file is no model state (a
    function writing through it is refused, graph_export/table_export.py)."""
    from ...summary.writer import SummaryWriter
    return isinstance(value, SummaryWriter)


def user_object(identifier):
    return {"user_object": {"identifier": identifier, "version": dict(_VERSION)}, "children": []}


def escape(local_name):
    """A child name as a checkpoint key segment ('.' and '/' escaped as TensorFlow does)."""
    return local_name.replace(".", "..").replace("/", ".S")


class ObjectGraph:
    """Walks the tree from the root; functions are written into `library` after the walk, once
    every variable has its node."""

    def __init__(self, library):
        self.library = library
        self.nodes = []
        self.variables = []  # (checkpoint key, Variable, node id)
        self.assets = []  # Asset, by asset_file_def index
        self.concrete = {}  # FunctionDef name -> SavedConcreteFunction data
        self._ids = {}  # id(object) -> node id; the caller holds the tree for the whole save
        self._keys = {}  # node id -> checkpoint key path
        self._functions = []  # (node id, [ConcreteFunction], Python signature)
        self._exported = {}  # id(ConcreteFunction) -> (ConcreteFunction, FunctionDef name)
        self.tables = TableResources(self)  # the static lookup tables, as resources (table_resources.py)
        self.tables.mutable = self.mutable_tables = MutableTables(self)  # the mutable ones (mutable_tables.py)

    # --- the walk ---
    def root(self, obj):
        from ..save import _attributes
        self._attributes = _attributes
        node = self.node(obj, "")
        if node is None:
            raise ValueError(f"Expected a tf.Module, a tf.function or an object holding them to save, got {obj!r}.")
        return node

    def node(self, value, path):
        known = self._ids.get(id(value))
        if known is not None:
            return known
        from ..load import RestoredFunction
        if isinstance(value, Asset):
            self.assets.append(value)
            return self._add(value, {"asset": {"asset_file_def_index": len(self.assets) - 1}})
        if isinstance(value, Variable):
            name = value.name[:-2] if value.name.endswith(":0") else value.name
            index = self._add(value, {"variable": {"dtype": datatype(value.dtype), "shape": shape_proto(value.shape),
                                                   "trainable": bool(value.trainable), "name": name}})
            self.variables.append((f"{path}/.ATTRIBUTES/VARIABLE_VALUE".lstrip("/"), value, index))
            return index
        if isinstance(value, (Function, ConcreteFunction, RestoredFunction)):
            return self._function_node(value)
        if isinstance(value, (list, tuple, dict)) and not hasattr(type(value), "_fields"):
            return self._container(value, path)
        table = self.tables.object_node(value)
        if table is None:
            table = self.mutable_tables.object_node(value, path)
        if table is not None:
            return table
        if isinstance(value, (Tensor, str, bytes, int, float, type(None))) or inspect.isroutine(value) \
                or isinstance(value, type) or not hasattr(value, "__dict__") or _is_summary_writer(value):
            return None
        index = self._add(value, user_object("_generic_user_object"))
        self.tables.note_holder(value, index)
        children = []
        keras = type(value).__module__.startswith("eagerflow.keras")
        for name, child in self._attributes(value):
            if keras and name in _KERAS_EXECUTION:
                continue
            node = self.node(child, f"{path}/{escape(name)}")
            if node is None and isinstance(child, (list, dict)) and not child and not name.startswith("_"):
                # an empty public list or dict is kept, as TensorFlow tracks it (save.py's walk does too)
                node = self.add_plain(user_object(_WRAPPERS[dict if isinstance(child, dict) else list]))
            if node is not None:
                children.append({"node_id": node, "local_name": name})
        add_default_save_signature(self, children, value)
        if not children and not isinstance(value, Module) and path:
            return self._drop(value, index)
        self.nodes[index]["children"] = children
        return index

    def _container(self, value, path):
        index = self._add(value, user_object(_WRAPPERS[type(value) if type(value) in _WRAPPERS else
                                                       (dict if isinstance(value, dict) else list)]))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        children = []
        for key, child in items:
            if not isinstance(key, (str, int)):
                continue
            node = self.node(child, f"{path}/{escape(str(key))}")
            if node is not None:
                children.append({"node_id": node, "local_name": str(key)})
        if not children:
            return self._drop(value, index)
        self.nodes[index]["children"] = children
        return index

    def _function_node(self, value):
        from ..load import RestoredFunction
        from ..save import concrete_functions_of
        if isinstance(value, Function):
            cfs, signature = concrete_functions_of(value), getattr(value, "_signature", None)
            input_signature = value.input_signature
        elif isinstance(value, RestoredFunction):
            cfs, signature, input_signature = value.concrete_functions, value.python_signature, None
        else:
            cfs, signature, input_signature = [value], None, None
        if isinstance(value, ConcreteFunction):
            node = {"bare_concrete_function": {"concrete_function_name": None,
                                               "argument_keywords": [s.name for s in value.flat_input_signature],
                                               "allowed_positional_arguments": len(value.flat_input_signature)}}
        else:
            spec = {"fullargspec": structured.fullargspec(signature)}
            spec["input_signature"] = structured.encode(tuple(input_signature), "an input_signature") \
                if input_signature is not None else {"none_value": {}}
            node = {"function": {"concrete_functions": [], "function_spec": spec}}
        index = self._add(value, node)
        self._functions.append((index, cfs))
        return index

    def _add(self, value, node):
        self._ids[id(value)] = len(self.nodes)
        self.nodes.append(node)
        return len(self.nodes) - 1

    def add_plain(self, node):
        """A node for no Python object of the tree (the signature map and its functions)."""
        self.nodes.append(node)
        return len(self.nodes) - 1

    def variable_of(self, index):
        """The Variable, Asset or SavedTable of a bound input's node."""
        node = self.nodes[index]
        if "resource" in node:
            return next(t for t in self.tables.tables + self.mutable_tables.tables if t.node == index)
        if "asset" in node:
            return self.assets[node["asset"]["asset_file_def_index"]]
        return next(v for _, v, j in self.variables if j == index)

    def _drop(self, value, index):
        del self._ids[id(value)]
        if index == len(self.nodes) - 1:
            self.nodes.pop()
        else:  # a child was added after it: the slot stays, as an empty list
            self.nodes[index] = user_object("trackable_list_wrapper")
        return None

    # --- functions ---
    def write_functions(self):
        for index, cfs in self._functions:
            names = [self.export(cf) for cf in cfs]
            node = self.nodes[index]
            if "function" in node:
                node["function"]["concrete_functions"] = names
            else:
                node["bare_concrete_function"]["concrete_function_name"] = names[0]

    def export(self, cf):
        known = self._exported.get(id(cf))
        if known is not None:
            return known[1]
        assets = {id(a.asset_path): a for a in self.assets}
        name, bound = export_concrete_function(self.library, cf, bound_tensors=assets, tables=self.tables)
        where = f"function {cf.name!r}"
        self.concrete[name] = {
            "bound_inputs": [self.variable_node(v) for v in bound],
            "canonicalized_input_signature": structured.canonical_inputs(cf.traced_parameters, where),
            "output_signature": structured.encode(cf.traced_outputs, f"the outputs of {where}", tensor_name=None)}
        self._exported[id(cf)] = (cf, name)
        return name

    def variable_node(self, var):
        """The node of a variable a function reads; one the tree does not hold is attached to the
        root (TensorFlow refuses such a save; its value would otherwise be lost)."""
        index = self._ids.get(id(var))
        if index is None and isinstance(var, (SavedTable, SavedMutableTable)):
            return var.node
        if index is None:
            local = f"captured_variable_{sum(1 for _ in self.variables)}"
            index = self.node(var, escape(local))
            self.nodes[0]["children"].append({"node_id": index, "local_name": local})
        return index

    def checkpoint_graph(self):
        """The TrackableObjectGraph data: the same nodes and children, with each variable's key."""
        keys = {index: key for key, _, index in self.variables}
        tables = self.mutable_tables.checkpoint_attributes()
        out = []
        for i, node in enumerate(self.nodes):
            entry = {"children": [dict(c) for c in node.get("children", [])]}
            if i in keys:
                var = next(v for k, v, j in self.variables if j == i)
                full = var.name[:-2] if var.name.endswith(":0") else var.name
                entry["attributes"] = [{"name": "VARIABLE_VALUE", "full_name": full, "checkpoint_key": keys[i]}]
            elif i in tables:
                entry["attributes"] = tables[i]
            out.append(entry)
        return {"nodes": out}

