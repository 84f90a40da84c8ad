"""`tf.saved_model.save(obj, export_dir, signatures=None)`: the object tree, its traced functions,
signatures and variables, written in TensorFlow's layout (tf_format/), or, for a graph TensorFlow's ops
cannot express yet, in eagerflow's earlier format (docs/savedmodel-format.md).

What is saved: walking `obj`'s attributes (and the tf.functions its class defines), every
Variable, every tf.function (all its traced ConcreteFunctions), every ConcreteFunction, and every
tf.Module or plain object, list, tuple or dict that holds some of those, under its attribute name.
Signatures are ConcreteFunctions whose outputs become a dict of named outputs, as TensorFlow does.
"""
from __future__ import annotations

import inspect
import os

import numpy as np

from .._src.core import nest
from .._src.core.tensor import Tensor, TensorSpec
from .._src.io.atomic import atomic_directory
from .._src.state.module import Module
from .._src.state.variables import Variable
from .._src.trace.function import ConcreteFunction, Function
from . import attrs as _attrs
from . import output_structure
from .default_save_signature import DefaultSaveFunctions
from .files import write_json, write_tensor
from .format import DOCUMENT_NAME, FORMAT_NAME, FORMAT_VERSION, TENSOR_DIR
from .graph_io import GraphWriter
from .load import RestoredFunction
from .save_options import check_save_options


# What a save writes into its directory (ours, and TensorFlow's SavedModel layout): replaced by a new
# save. Anything else a user keeps in the directory is carried over into the new save.
OWNED_ENTRIES = (DOCUMENT_NAME, TENSOR_DIR, "saved_model.pb", "saved_model.pbtxt", "variables", "assets",
                 "assets.extra", "fingerprint.pb")


def save(obj, export_dir, signatures=None, options=None):
    """Writes `obj` to `export_dir` (created if needed; an earlier model there is replaced).

    The model is written into a temporary directory beside `export_dir` that takes its place only when
    everything is written (io/atomic.py): a save that fails, for any reason, leaves an earlier model
    there as it was."""
    export_dir = os.fspath(export_dir)
    check_save_options(options)
    defaults = DefaultSaveFunctions()  # each Keras model's _default_save_signature, made once per save
    signature_map = _signature_functions(signatures) if signatures is not None else _default_signatures(obj, defaults)
    with atomic_directory(export_dir, owns=OWNED_ENTRIES) as building:
        if not _write_tensorflow_format(building, obj, signature_map, defaults):
            _write_eagerflow_format(building, obj, signature_map)


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


def _write_tensorflow_format(building, obj, signature_map, defaults=None) -> bool:
    """TensorFlow's files (tf_format/). A graph TensorFlow's ops cannot express yet (an op type
    graph_export/coverage.py lists: a third-order loop gradient, a padded non-max suppression, ...)
    returns False, after a warning naming the op, and the model is written in eagerflow's
    earlier format instead (the one case a save still writes saved_model.json)."""
    from .._src.core.logger import get_logger
    from .._src.formats.graph_export.attr_values import ExportError
    from .tf_format.build import build
    from .tf_format.write import write_saved_model
    try:
        built = build(obj, signature_map, defaults)
    except (ExportError, TypeError) as err:  # TypeError: a dtype TensorFlow's files have no number for
        get_logger().warning("The SavedModel was written in eagerflow's format only; TensorFlow cannot load it: %s",
                             err)
        return False
    write_saved_model(building, built)
    return True


def _signature_functions(signatures) -> dict:
    """{key: ConcreteFunction}, refusing what TensorFlow 2.21 refuses with its ValueError."""
    if signatures is None:
        return {}
    if not isinstance(signatures, dict):
        signatures = {"serving_default": signatures}
    out = {}
    for key, fn in signatures.items():
        if not isinstance(key, str):
            raise ValueError(f"Signature keys must be strings, got {key!r}.")
        if isinstance(fn, Function) and fn.input_signature is not None:
            fn = fn.get_concrete_function()
        if not isinstance(fn, ConcreteFunction):
            raise ValueError(f"Expected a TensorFlow function for which to generate a signature, but got {fn}. "
                             f"Only `tf.functions` with an input signature or concrete functions can be used as "
                             f"a signature.")
        out[key] = fn
    return out


def _default_signatures(obj, defaults=None) -> dict:
    """What TensorFlow exports as `serving_default` when given no signatures: the function the
    object's `_default_save_signature()` hook returns (a built Keras model's call,
    keras_export.py), else the root's one attribute that is a tf.function with an input_signature
    or a ConcreteFunction whose outputs a signature can name, when there is exactly one."""
    fn = (defaults or DefaultSaveFunctions()).function_of(obj)
    if fn is not None:
        return _signature_functions({"serving_default": fn})
    candidates = []
    if hasattr(obj, "__dict__") and not isinstance(obj, (Function, ConcreteFunction, RestoredFunction, type)):
        for _, value in _attributes(obj):
            if isinstance(value, Function) and value.input_signature is not None:
                value = value.get_concrete_function()
            if isinstance(value, ConcreteFunction):
                try:
                    _signature_output_names(value, "serving_default")
                except ValueError:
                    continue
                candidates.append(value)
    return {"serving_default": candidates[0]} if len(candidates) == 1 else {}


def concrete_functions_of(fn: Function):
    """Every ConcreteFunction a tf.function keeps; one with an input_signature is traced for it if
    it never was (TensorFlow saves that trace too)."""
    if fn.input_signature is not None:
        fn.get_concrete_function()
    return fn._list_all_concrete_functions()


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


def _attributes(obj):
    """(name, value) of what an object holds: its instance attributes, then the tf.functions its
    class defines (bound to it), each name once, sorted."""
    found = {}
    for name, value in vars(obj).items():
        if name == "signatures" and isinstance(value, dict):
            continue  # a loaded model's signatures: saved again only when passed as `signatures`
        if not name.startswith("_self_") and name != "_name":
            found[name] = value
    for name in dir(type(obj)):
        if name in found:
            continue
        try:
            static = inspect.getattr_static(type(obj), name)
        except AttributeError:
            continue
        if isinstance(static, Function):
            found[name] = getattr(obj, name)
    return sorted(found.items())


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


def signature_input_names(cf):
    """A signature's input names, as TensorFlow names them: a TensorSpec's own name, else the flat
    parameter name (`x`, `inputs_1`)."""
    flat = [spec.name for spec in cf.flat_input_signature]
    specs = [t for _, _, template in cf.traced_parameters for t in nest.flatten(template, expand_composites=True)
             if isinstance(t, TensorSpec)]
    inputs = [spec.name or name for spec, name in zip(specs, flat)] if len(specs) == len(flat) else flat
    return inputs if len(set(inputs)) == len(inputs) else flat


def _signature_output_names(cf, key):
    """The signature's output names in the order of the function's flat outputs (TensorFlow's
    rule: a dict's keys, else `output_<i>`); TensorFlow's ValueError for what it refuses."""
    structure = cf.traced_outputs
    where = f"in the output of the function {cf.name} used to generate the SavedModel signature {key!r}"
    if isinstance(structure, dict):
        for k, v in structure.items():
            if not isinstance(k, str):
                raise ValueError(f"Got a dictionary with a non-string key {k!r} {where}.")
        names = sorted(structure)  # the flat outputs follow sorted keys (nest.flatten)
        values = [structure[k] for k in names]
    elif isinstance(structure, (list, tuple)):
        values = list(structure)
        names = [f"output_{i}" for i in range(len(values))]
    else:
        values, names = [structure], ["output_0"]
    for name, v in zip(names, values):
        if not isinstance(v, Tensor):
            raise ValueError(f"Got a non-Tensor value {v!r} for key {name!r} {where}. Outputs for functions used "
                             f"as signatures must be a single Tensor, a sequence of Tensors, or a dictionary from "
                             f"string to Tensor.")
    return names
