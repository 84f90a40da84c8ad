"""eagerflow's earlier SavedModel document (saved_model.json + checksummed .npy files,
docs/savedmodel-format.md), which directories written by earlier eagerflow releases hold.

`tf.saved_model.save` never writes it: every save writes TensorFlow's format (tf_format/), and a
graph TensorFlow's ops cannot express is refused. The loader keeps reading old directories, and this
writer (moved here unchanged from save.py) is what the tests of that loader use to make them, so its
checks and refusals stay tested on files the old format's own writer wrote."""
from __future__ import annotations

import inspect
import os

import numpy as np

from .._src.core.tensor import Tensor, TensorSpec
from .._src.state.module import Module
from .._src.state.variables import Variable
from .._src.trace.function import ConcreteFunction, Function
from . import attrs as _attrs
from . import output_structure
from .files import write_json, write_tensor
from .format import DOCUMENT_NAME, FORMAT_NAME, FORMAT_VERSION, TENSOR_DIR
from .graph_io import GraphWriter
from .load import RestoredFunction
from .save import _attributes, _signature_output_names, concrete_functions_of, signature_input_names


def write_legacy_document(building, obj, signature_map):
    """Writes `obj` (signatures: {key: ConcreteFunction}) into directory `building` in the old format."""
    return _write_eagerflow_format(building, obj, signature_map)


def _write_eagerflow_format(building, obj, signature_map):
    """eagerflow's own document (docs/savedmodel-format.md), written only for a model whose graphs
    TensorFlow's ops cannot express yet (_write_tensorflow_format says which)."""
    writer = _Saver(building)
    root = writer.node(obj, "root")
    if root is None:
        raise ValueError(f"Expected a tf.Module, a tf.function or an object holding them to save, got {obj!r}.")
    entries = [writer.signature(key, cf) for key, cf in signature_map.items()]
    document = {"format": FORMAT_NAME, "format_version": list(FORMAT_VERSION), "root": root,
                "nodes": writer.nodes, "variables": writer.variables, "functions": writer.functions,
                "signatures": entries}
    write_json(os.path.join(building, DOCUMENT_NAME), document)




class _Saver:
    def __init__(self, export_dir):
        self.export_dir = export_dir
        os.makedirs(os.path.join(export_dir, TENSOR_DIR), exist_ok=True)
        self.nodes = []
        self.variables = []
        self.functions = []
        self._node_ids = {}  # id(obj) -> node index (objects are kept alive by the caller's tree)
        self._variable_ids = {}
        self._function_ids = {}
        self._tensors = 0
        self._graphs = GraphWriter(self.tensor, self._capture)

    # --- tensors and variables ---
    def tensor(self, array):
        self._tensors += 1
        return write_tensor(self.export_dir, f"{TENSOR_DIR}/{self._tensors}.npy", array)

    def variable(self, var) -> int:
        index = self._variable_ids.get(id(var))
        if index is None:
            index = self._variable_ids[id(var)] = len(self.variables)
            self.variables.append(None)  # reserved before the value is written
            self.variables[index] = {"name": var.name, "dtype": var.dtype.name,
                                     "shape": _attrs.encode_shape(var.shape), "trainable": var.trainable,
                                     "value": self.tensor(np.asarray(var._array))}
        return index

    def _capture(self, external):
        var = getattr(external, "_value", None)
        if isinstance(var, Variable):
            return {"variable": self.variable(var)}
        if hasattr(external, "_value"):
            return {"tensor": self.tensor(external._value)}
        raise ValueError(f"Cannot save a function capturing {external.name} of an enclosing function's graph")

    # --- functions ---
    def function(self, cf) -> int:
        index = self._function_ids.get(id(cf))
        if index is None:
            outputs = cf.outputs
            graph = self._graphs.function_graph(cf.graph, outputs)
            params = [spec.name for spec in cf.flat_input_signature]
            call = [[name, kind.value, _template(t, cf.name)] for name, kind, t in cf.traced_parameters]
            index = {id(t): i for i, t in enumerate(outputs)}
            structure = output_structure.encode(cf.traced_outputs, index, cf.name)
            index = self._function_ids[id(cf)] = len(self.functions)
            self.functions.append({"name": cf.name, "graph": graph, "params": params, "call": call,
                                   "structure": structure})
        return index

    def signature(self, key, cf):
        """Inputs named by `signature_input_names`, outputs by `_signature_output_names`."""
        outputs = _signature_output_names(cf, key)
        return {"key": key, "function": self.function(cf), "inputs": signature_input_names(cf), "outputs": outputs}

    # --- the object tree ---
    def node(self, value, path):
        """The node index for `value`, or None when it holds nothing a SavedModel keeps."""
        known = self._node_ids.get(id(value))
        if known is not None:
            return known
        if isinstance(value, Variable):
            return self._add(value, {"kind": "variable", "variable": self.variable(value)})
        if isinstance(value, Function):
            cfs = concrete_functions_of(value)
            return self._add(value, {"kind": "function", "functions": [self.function(cf) for cf in cfs],
                                     "parameters": _parameters(getattr(value, "_signature", None))})
        if isinstance(value, ConcreteFunction):
            return self._add(value, {"kind": "function", "functions": [self.function(value)], "parameters": None})
        if isinstance(value, RestoredFunction):  # a loaded model saved again
            return self._add(value, {"kind": "function",
                                     "functions": [self.function(cf) for cf in value.concrete_functions],
                                     "parameters": _parameters(value.python_signature)})
        if isinstance(value, (list, tuple)):
            index = self._reserve(value)
            items = [self.node(v, f"{path}[{i}]") for i, v in enumerate(value)]
            if all(i is None for i in items):
                return self._unreserve(value, index)
            self.nodes[index] = {"kind": "list" if isinstance(value, list) else "tuple", "items": items}
            return index
        if isinstance(value, dict):
            index = self._reserve(value)
            items = [[k, self.node(v, f"{path}[{k!r}]")] for k, v in value.items() if isinstance(k, str)]
            items = [[k, i] for k, i in items if i is not None]
            if not items:
                return self._unreserve(value, index)
            self.nodes[index] = {"kind": "dict", "items": items}
            return index
        if isinstance(value, (Tensor, str, bytes, int, float, type(None))) or inspect.isroutine(value) \
                or isinstance(value, type) or not hasattr(value, "__dict__"):
            return None
        index = self._reserve(value)
        children = []
        for name, child in _attributes(value):
            node = self.node(child, f"{path}.{name}")
            if node is None and isinstance(child, (list, dict)) and not child and not name.startswith("_"):
                # an empty public list or dict is kept, as TensorFlow tracks it (a Keras export's
                # non_trainable_variables of a model without any is [] after loading); TF also keeps
                # private ones, which here would fill Keras models with internal bookkeeping
                self.nodes.append({"kind": "dict" if isinstance(child, dict) else "list", "items": []})
                node = len(self.nodes) - 1
            if node is not None:
                children.append([name, node])
        if not children and not isinstance(value, Module) and path != "root":
            return self._unreserve(value, index)
        self.nodes[index] = {"kind": "object", "children": children}
        return index

    def _add(self, value, node):
        self._node_ids[id(value)] = len(self.nodes)
        self.nodes.append(node)
        return len(self.nodes) - 1

    def _reserve(self, value):
        return self._add(value, None)

    def _unreserve(self, value, index):
        del self._node_ids[id(value)]
        if index == len(self.nodes) - 1:
            self.nodes.pop()
        else:  # a child was added after it; keep the slot as an empty list node
            self.nodes[index] = {"kind": "list", "items": []}
        return None




def _parameters(signature):
    """The Python signature of a tf.function as [[name, kind, default]] (default: null or
    {"value": template} for a default a SavedModel can hold), so a restored function applies the
    defaults before choosing a trace, as the original did."""
    if signature is None:
        return None
    out = []
    for p in signature.parameters.values():
        default = None
        if p.default is not p.empty:
            try:
                default = {"value": _template(p.default, "")}
            except ValueError:  # an object default: the caller must pass that argument
                pass
        out.append([p.name, p.kind.value, default])
    return out


def _template(template, fn_name):
    """A traced argument as JSON: a TensorSpec, a Python literal, or a list/tuple/dict of those."""
    if isinstance(template, TensorSpec):
        return {"spec": [_attrs.encode_shape(template.shape), template.dtype.name, template.name]}
    if isinstance(template, dict) and all(isinstance(k, str) for k in template):
        return {"dict": [[k, _template(v, fn_name)] for k, v in template.items()]}
    if isinstance(template, (list, tuple)) and not hasattr(type(template), "_fields"):
        return {"list" if isinstance(template, list) else "tuple": [_template(v, fn_name) for v in template]}
    if template is None or isinstance(template, (bool, int, float, str)):
        try:
            return _attrs.encode(template, None)
        except _attrs.Unsavable:
            pass
    raise ValueError(f"Cannot save function {fn_name!r}: it was traced with the Python argument {template!r}, "
                     f"which a SavedModel cannot store (tensors, numbers, strings, None, lists, tuples and "
                     f"dicts of them can be).")


