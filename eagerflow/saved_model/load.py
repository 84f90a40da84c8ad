"""`tf.saved_model.load(export_dir)`: the saved object tree rebuilt from its description alone:
TensorFlow's layout (saved_model.pb, tf_format/load_tf.py), which saves write; or eagerflow's earlier
document (saved_model.json), which this module reads, in directories that hold one.

No user class or module is imported and nothing is unpickled or executed from the files: objects
come back as `_RestoredObject`s (plain objects with the saved attribute names, as TensorFlow's), tf.functions as
`RestoredFunction`s dispatching over their restored ConcreteFunctions, Variables as live
Variables (their assignments are seen by every restored function, which captured them), and
`.signatures[key]` as ConcreteFunctions taking keyword arguments and returning a dict of named
outputs. Every graph is validated and compiled at load time (graph_io.py); any problem with the
files is a DataLossError naming the file and the problem. Functions whose ops would read or write
files are refused before anything is built, unless the load options allow it (load_safety.py).
"""
from __future__ import annotations

import inspect
import os

from .._src.core import dtypes as _dt
from .._src.core import nest
from .._src.core.errors import DataLossError, InvalidArgumentError
from .._src.core.tensor import EagerTensor, Tensor, TensorSpec, wrap_array
from .._src.state.variables import Variable
from .._src.trace.function import ConcreteFunction
from .restored_specs import named_parameter, output_specs
from . import attrs as _attrs
from . import output_structure
from .files import data_loss, read_json, read_tensor
from .format import DOCUMENT_NAME, FORMAT_NAME, FORMAT_VERSION
from .graph_io import GraphReader, register_every_op
from .load_options import allowed_effects
from .load_safety import find_refused_ops, refusal

_P = inspect.Parameter
_KINDS = {k.value: k for k in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY)}
_ALL_KINDS = {k.value: k for k in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD, _P.VAR_POSITIONAL,
                                   _P.KEYWORD_ONLY, _P.VAR_KEYWORD)}
_TOP_KEYS = {"format", "format_version", "root", "nodes", "variables", "functions", "signatures"}


class _RestoredObject:
    """A saved object (tf.Module or plain object) with its saved attributes, without its class.
    A plain object, as TensorFlow's: no property of a base class can clash with a saved name."""

    def __repr__(self):
        return f"<restored object with attributes {sorted(k for k in vars(self))}>"

    def __call__(self, *args, **kwargs):
        """A saved object whose `__call__` was a tf.function (a tf.Module or Keras model) is callable
        again, as in TensorFlow; Python looks dunder methods up on the class, so the restored
        function is kept in the instance and called from here."""
        call = vars(self).get("__call__")
        if call is None:
            raise TypeError("'_RestoredObject' object is not callable")
        return call(*args, **kwargs)


class RestoredFunction:
    """A saved tf.function: calls go to the first restored ConcreteFunction that accepts the
    arguments (TensorFlow's rule); none accepting is TensorFlow's ValueError, or, for a function
    saved with an input_signature, TensorFlow's TypeError naming the spec the input does not fit."""

    def __init__(self, concrete_functions, python_signature=None, input_signature=None):
        self._concrete = list(concrete_functions)
        self.python_signature = python_signature  # the original's parameters and literal defaults
        self.input_signature = input_signature  # the original's input_signature (a tuple), or None
        self._signature_binder = None
        if input_signature is not None and python_signature is not None:
            from .._src.trace.signature_binding import SignatureBinder
            try:
                self._signature_binder = SignatureBinder("restored_function", python_signature, input_signature)
            except TypeError:  # a spec that does not fit the parameters: the traces' own check reports
                pass

    @property
    def concrete_functions(self):
        return list(self._concrete)

    def __call__(self, *args, **kwargs):
        if self.python_signature is not None:
            args, kwargs = _with_defaults(self.python_signature, args, kwargs)
        for cf in self._concrete:
            try:
                flat = cf._binder.bind(args, kwargs)
            except (TypeError, InvalidArgumentError):
                continue
            return cf._call_flat(flat)
        if self._signature_binder is not None:  # TensorFlow binds to the input_signature first: its TypeError
            self._signature_binder.bind(args, kwargs)
        raise ValueError(_no_match_message(args, kwargs, self._concrete, self.python_signature))

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Each restored trace's `pretty_printed_signature`, as tf.function's method of that name."""
        return ("\n\n" if verbose else "\n").join(cf.pretty_printed_signature(verbose) for cf in self._concrete)

    def __repr__(self):
        return f"<RestoredFunction with {len(self._concrete)} concrete function(s)>"


def _with_defaults(signature, args, kwargs):
    """The call with the original's defaults filled in (the traces were keyed with them)."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs  # left for the traces' own check to report
    bound.apply_defaults()
    args, kwargs = [], {}
    for name, value in bound.arguments.items():
        kind = signature.parameters[name].kind
        if kind is _P.VAR_POSITIONAL:
            args.extend(value)
        elif kind is _P.VAR_KEYWORD:
            kwargs.update(value)
        elif kind is _P.KEYWORD_ONLY:
            kwargs[name] = value
        else:
            args.append(value)
    return tuple(args), kwargs


def _no_match_message(args, kwargs, concrete, python_signature=None):
    """TensorFlow's text: the call (tensors as the placeholders they would feed, named after their
    parameters), then each restored trace's structured input signature."""
    names = [n for n, p in python_signature.parameters.items()
             if p.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD)] if python_signature is not None else []

    def got(v, name):
        if not isinstance(v, Tensor):
            return repr(v)
        dims = "(" + ", ".join(str(d) for d in v.shape.as_list()) + ("," if v.shape.rank == 1 else "") + ")" \
            if v.shape.rank is not None else "<unknown>"
        return f"<tf.Tensor '{name}:0' shape={dims} dtype={v.dtype.name}>"

    def listed(positional, keywords, shown):
        lines = [f"  Positional arguments ({len(positional)} total):"]
        lines += [f"    * {shown(a, names[i] if i < len(names) else f'args_{i}')}" for i, a in enumerate(positional)]
        lines.append(f"  Keyword arguments: {{{', '.join(f'{k!r}: {shown(v, k)}' for k, v in keywords.items())}}}")
        return lines

    lines = ["Could not find matching concrete function to call loaded from the SavedModel. Got:"]
    lines += listed(args, kwargs, got)
    lines.append(f"\n Expected these arguments to match one of the following {len(concrete)} option(s):")
    for i, cf in enumerate(concrete, 1):
        positional, keywords = cf.structured_input_signature
        lines.append(f"\nOption {i}:")
        lines += listed(positional, keywords, lambda v, _: repr(v))
    return "\n".join(lines)


def load(export_dir, tags=None, options=None):
    """`tf.saved_model.load`. An op that reads or writes files is refused (PermissionDeniedError
    listing each one) unless `options=tf.saved_model.LoadOptions(eagerflow_allow_file_access=True)`."""
    allowed = allowed_effects(options)
    export_dir = os.fspath(export_dir)
    path = os.path.join(export_dir, DOCUMENT_NAME)
    # A directory holding eagerflow's document is read from it, as the releases that wrote it beside
    # saved_model.pb read it (it records what their saved_model.pb did not: dict order, some ops).
    if not os.path.lexists(path) and os.path.lexists(os.path.join(export_dir, "saved_model.pb")):
        from .tf_format.load_tf import load_tf
        _refuse_links_out(export_dir)
        try:
            return load_tf(export_dir, allowed)
        except RecursionError:
            raise data_loss(os.path.join(export_dir, "saved_model.pb"), "the object tree or a graph is nested too "
                                                                         "deeply") from None
    if not os.path.isfile(path):
        raise OSError(f"SavedModel file does not exist at: {export_dir}/{{saved_model.pbtxt|saved_model.pb}}")
    document = read_json(path)
    register_every_op()  # the scan looks every op type up in the registry
    refused = find_refused_ops(document, allowed)
    if refused:
        raise refusal(path, refused)
    try:
        return _Loader(export_dir, path, document, allowed).root()
    except RecursionError:
        raise data_loss(path, "the object tree or a graph is nested too deeply") from None


def _refuse_links_out(export_dir):
    """The variables' files must lie inside the model directory (a link within it is followed): a
    link out, to another file or a device, is refused before anything is read."""
    from .tf_format.write import VARIABLES_DIRECTORY
    root = os.path.realpath(export_dir)
    folder = os.path.join(export_dir, VARIABLES_DIRECTORY)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        path = os.path.join(folder, name)
        real = os.path.realpath(path)
        if os.path.commonpath([root, real]) != root:
            raise data_loss(path, f"the tensor file is a link to {real[:200]!r}, outside the model directory "
                                  f"{root[:200]!r}: refused")


def check_version(path, document, name):
    if document.get("format") != name:
        raise data_loss(path, f"not an {name} document (format is {str(document.get('format'))[:40]!r})")
    version = document.get("format_version")
    if not (isinstance(version, list) and len(version) == 2 and all(type(v) is int and v >= 0 for v in version)):
        raise data_loss(path, "format_version must be [major, minor]")
    if version[0] > FORMAT_VERSION[0]:
        raise data_loss(path, f"written in format version {version[0]}.{version[1]} by a newer eagerflow; this "
                              f"version reads format version {FORMAT_VERSION[0]}.x. Upgrade eagerflow to load it.")
    if version[0] < 1:
        raise data_loss(path, f"unknown format version {version[0]}.{version[1]}")


class _Loader:
    def __init__(self, export_dir, path, document, allowed_effects=frozenset()):
        self.dir, self.path, self.doc = export_dir, path, document
        if set(document) != _TOP_KEYS:
            raise data_loss(path, f"the document must have exactly the keys {', '.join(sorted(_TOP_KEYS))}")
        check_version(path, document, FORMAT_NAME)
        for key in ("nodes", "variables", "functions", "signatures"):
            if not isinstance(document[key], list):
                raise data_loss(path, f"{key} must be a list")
        self.variables = [self._variable(v, i) for i, v in enumerate(document["variables"])]
        self._reader = GraphReader(path, self._tensor, self._top_capture, allowed_effects)
        self._graphs = [None] * len(document["functions"])
        self._namedtuples = {}  # (type name, fields) -> the class restored outputs use
        self.functions = [self._function(f, i) for i, f in enumerate(document["functions"])]
        self._objects = {}

    # --- leaves ---
    def _tensor(self, ref, where):
        return read_tensor(self.dir, ref, where if where.startswith(self.path) else f"{self.path}: {where}")

    def _variable(self, doc, i):
        where = f"variable {i}"
        if not isinstance(doc, dict) or set(doc) != {"name", "dtype", "shape", "trainable", "value"}:
            raise data_loss(self.path, f"{where} must have exactly the keys dtype, name, shape, trainable, value")
        dtype = _attrs.decode_dtype(doc["dtype"], f"{self.path}: {where}")
        shape = _attrs.decode_shape(doc["shape"], f"{self.path}: {where}")
        if not isinstance(doc["name"], str) or not isinstance(doc["trainable"], bool) or not shape.is_fully_defined():
            raise data_loss(self.path, f"{where}: name must be a string, trainable a bool, the shape fully known")
        value = self._tensor(doc["value"], where)
        if _dt.from_numpy(value.dtype) is not dtype or list(value.shape) != shape.as_list():
            raise data_loss(self.path, f"{where}: the stored value does not have the declared dtype and shape")
        name = doc["name"][:-2] if doc["name"].endswith(":0") else doc["name"]
        return Variable(value, trainable=doc["trainable"], name=name or None, dtype=dtype)

    def _top_capture(self, capture, where):
        if "variable" in capture:
            i = capture["variable"]
            if type(i) is not int or not 0 <= i < len(self.variables):
                raise data_loss(self.path, f"{where}: capture of variable {str(i)[:20]}, which was not saved")
            return self.variables[i].handle
        if "tensor" in capture:
            return wrap_array(self._tensor(capture["tensor"], where))
        raise data_loss(self.path, f"{where}: a capture names a variable or a tensor")

    # --- functions ---
    def _function(self, doc, i):
        where = f"function {i}"
        if not isinstance(doc, dict) or set(doc) != {"name", "graph", "params", "call", "structure"}:
            raise data_loss(self.path, f"{where} must have exactly the keys call, graph, name, params, structure")
        name = doc["name"]
        if not isinstance(name, str) or not 0 < len(name) <= 256:
            raise data_loss(self.path, f"{where}: bad name")
        try:
            graph, params, outputs = self._reader.function_graph(doc["graph"], f"{self.path}: {where}")
        except RecursionError:
            raise data_loss(self.path, f"{where}: graph nested too deeply") from None
        names = doc["params"]
        if not (isinstance(names, list) and len(names) == len(params) and all(isinstance(n, str) for n in names)):
            raise data_loss(self.path, f"{where}: params must name each parameter input")
        param_specs = [(n, spec) for n, (_, spec) in zip(names, params)]
        self._graphs[i] = (graph, param_specs, outputs)
        structure = output_structure.decode(doc["structure"], outputs, self.path, where, self._namedtuples)
        traced_call = self._traced_call(doc["call"], where)
        signature, args, kwargs = traced_call
        positional = iter(args)
        in_call_order = [kwargs[n] if p.kind is _P.KEYWORD_ONLY else next(positional)
                         for n, p in signature.parameters.items()]
        specs = [t for t in nest.flatten(in_call_order, expand_composites=True) if isinstance(t, TensorSpec)]
        if [(s.dtype, _dims(s.shape)) for s in specs] != [(s.dtype, _dims(s.shape)) for _, s in param_specs]:
            raise data_loss(self.path, f"{where}: the traced call's tensors are not the graph's parameters")
        named_kwargs = {n: named_parameter(t, n) for n, t in kwargs.items()}
        named_args = tuple(named_parameter(t, p) for t, p in zip(args, signature.parameters))
        return self._concrete(graph, structure, param_specs, name, (signature, named_args, named_kwargs), None,
                              where, output_specs(structure))

    def _concrete(self, graph, structure, param_specs, name, traced_call, outputs, where, specs, flat_positional=None):
        captures = {id(internal): external._value for external, internal in graph.captures}
        try:
            return ConcreteFunction.from_graph(graph, structure, param_specs, captures, name, outputs=outputs,
                                               traced_call=traced_call, output_specs=specs,
                                               flat_positional=flat_positional)
        except DataLossError:
            raise
        except Exception as err:  # a pass or the binder refused what validation let through
            raise data_loss(self.path, f"{where}: the function cannot be compiled ({type(err).__name__}: "
                                       f"{str(err)[:300]})") from None

    def _traced_call(self, call, where):
        if not isinstance(call, list) or len(call) > 10_000:
            raise data_loss(self.path, f"{where}: call must be a list of parameters")
        params, args, kwargs = [], [], {}
        for entry in call:
            if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
                    and entry[0].isidentifier() and entry[1] in _KINDS):
                raise data_loss(self.path, f"{where}: a call parameter must be [identifier, kind, template]")
            name, kind, template = entry[0], _KINDS[entry[1]], _decode_template(entry[2], self.path, where)
            params.append(_P(name, kind))
            if kind is _P.KEYWORD_ONLY:
                kwargs[name] = template
            else:
                args.append(template)
        try:
            signature = inspect.Signature(params)
        except ValueError as err:
            raise data_loss(self.path, f"{where}: bad parameter list ({err})") from None
        return signature, tuple(args), kwargs

    def _python_signature(self, parameters, where):
        if parameters is None:
            return None
        if not isinstance(parameters, list) or len(parameters) > 10_000:
            raise data_loss(self.path, f"{where}: parameters must be a list")
        params = []
        for entry in parameters:
            if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
                    and entry[0].isidentifier() and type(entry[1]) is int and entry[1] in _ALL_KINDS
                    and (entry[2] is None or isinstance(entry[2], dict) and set(entry[2]) == {"value"})):
                raise data_loss(self.path, f"{where}: a parameter must be [identifier, kind, null or {{value}}]")
            default = _P.empty if entry[2] is None else _decode_template(entry[2]["value"], self.path, where)
            try:
                params.append(_P(entry[0], _ALL_KINDS[entry[1]], default=default))
            except (ValueError, TypeError) as err:
                raise data_loss(self.path, f"{where}: bad parameter ({err})") from None
        try:
            return inspect.Signature(params)
        except ValueError as err:
            raise data_loss(self.path, f"{where}: bad parameter list ({err})") from None

    def _signature(self, doc, i):
        where = f"signature {i}"
        if not isinstance(doc, dict) or set(doc) != {"key", "function", "inputs", "outputs"}:
            raise data_loss(self.path, f"{where} must have exactly the keys function, inputs, key, outputs")
        key, index, inputs, outputs = doc["key"], doc["function"], doc["inputs"], doc["outputs"]
        if not isinstance(key, str) or type(index) is not int or not 0 <= index < len(self._graphs):
            raise data_loss(self.path, f"{where}: key must be a string and function a saved function's index")
        graph, param_specs, flat_outputs = self._graphs[index]
        if not (isinstance(inputs, list) and len(inputs) == len(param_specs)
                and len(set(map(str, inputs))) == len(inputs)
                and all(isinstance(n, str) and n.isidentifier() for n in inputs)):
            raise data_loss(self.path, f"{where}: inputs must be distinct identifiers, one per parameter")
        if not (isinstance(outputs, list) and len(outputs) == len(flat_outputs) and len(set(map(str, outputs))) ==
                len(outputs) and all(isinstance(n, str) for n in outputs)):
            raise data_loss(self.path, f"{where}: outputs must be distinct names, one per output")
        # TensorFlow's signature takes its inputs by keyword in sorted name order, and that is the
        # order of its placeholders too: a fresh copy of the graph gets its parameters reordered.
        function = self.doc["functions"][index]
        graph, _, flat_outputs = self._reader.function_graph(function["graph"], f"{self.path}: {where}")
        order = sorted(range(len(inputs)), key=lambda i: inputs[i])
        graph.inputs[:len(order)] = [graph.inputs[i] for i in order]
        specs = [(inputs[i], TensorSpec(param_specs[i][1].shape, param_specs[i][1].dtype, inputs[i])) for i in order]
        signature = inspect.Signature([_P(n, _P.KEYWORD_ONLY) for n, _ in specs])
        named = {k: t for k, t in sorted(zip(outputs, flat_outputs))}  # packed and printed in sorted key order
        return key, self._concrete(graph, named, specs, f"signature_wrapper_{function['name']}",
                                   (signature, (), dict(specs)), list(named.values()), where,
                                   output_specs(named), flat_positional=1 if len(specs) == 1 else 0)

    # --- the object tree ---
    def root(self):
        nodes = self.doc["nodes"]
        root = self.doc["root"]
        if type(root) is not int or not 0 <= root < len(nodes):
            raise data_loss(self.path, "root must be a node index")
        obj = self._node(root, set())
        signatures = dict(self._signature(s, i) for i, s in enumerate(self.doc["signatures"]))
        try:
            obj.signatures = signatures
        except AttributeError:
            pass
        return obj

    def _node(self, index, building):
        nodes = self.doc["nodes"]
        if type(index) is not int or not 0 <= index < len(nodes):
            raise data_loss(self.path, f"reference to node {str(index)[:20]}, which does not exist")
        if index in self._objects:
            return self._objects[index]
        if index in building:
            raise data_loss(self.path, f"node {index} contains itself")
        building.add(index)
        node = nodes[index]
        kind = node.get("kind") if isinstance(node, dict) else None
        where = f"node {index}"
        if kind == "variable" and set(node) == {"kind", "variable"}:
            i = node["variable"]
            if type(i) is not int or not 0 <= i < len(self.variables):
                raise data_loss(self.path, f"{where}: variable index out of range")
            value = self.variables[i]
        elif kind == "function" and set(node) == {"kind", "functions", "parameters"} \
                and isinstance(node["functions"], list):
            if not all(type(i) is int and 0 <= i < len(self.functions) for i in node["functions"]):
                raise data_loss(self.path, f"{where}: function index out of range")
            value = RestoredFunction([self.functions[i] for i in node["functions"]],
                                     self._python_signature(node["parameters"], where))
        elif kind == "tuple" and set(node) == {"kind", "items"} and isinstance(node["items"], list):
            value = tuple(None if i is None else self._node(i, building) for i in node["items"])
        elif kind == "list" and set(node) == {"kind", "items"} and isinstance(node["items"], list):
            value = self._registered(index, [], building)  # an object graph may refer back (a cycle)
            value.extend(None if i is None else self._node(i, building) for i in node["items"])
        elif kind in ("dict", "object") and set(node) == {"kind", "items" if kind == "dict" else "children"}:
            pairs = node["items" if kind == "dict" else "children"]
            if not (isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                                                    for p in pairs)):
                raise data_loss(self.path, f"{where}: entries must be [name, node] pairs")
            if kind == "dict":
                value = self._registered(index, {}, building)
                for k, i in pairs:
                    value[k] = self._node(i, building)
            else:
                value = self._registered(index, _RestoredObject(), building)
                for name, i in pairs:
                    if not name.isidentifier() or (name.startswith("__") and name != "__call__"):
                        raise data_loss(self.path, f"{where}: attribute name {name[:40]!r} is not allowed")
                    setattr(value, name, self._node(i, building))
        else:
            raise data_loss(self.path, f"{where}: not a valid object-tree node")
        building.discard(index)
        self._objects[index] = value
        return value

    def _registered(self, index, value, building):
        """`value` as node `index` before its children are read: a child referring back to it (a
        Keras model's callbacks or optimizer holding the model) gets it, as in TensorFlow's object
        graph. Only a cycle through a tuple, which cannot be built before its items, is refused."""
        building.discard(index)
        self._objects[index] = value
        return value


def _dims(shape):
    return None if shape.rank is None else shape.as_list()


def _decode_template(obj, path, where, depth=0):
    if depth > 32:
        raise data_loss(path, f"{where}: argument structure nested too deeply")
    if isinstance(obj, dict) and len(obj) == 1:
        (kind, body), = obj.items()
        if kind == "spec":
            if not (isinstance(body, list) and len(body) == 3 and (body[2] is None or isinstance(body[2], str))):
                raise data_loss(path, f"{where}: a spec must be [shape, dtype, name]")
            w = f"{path}: {where}"
            return TensorSpec(_attrs.decode_shape(body[0], w), _attrs.decode_dtype(body[1], w), body[2])
        if kind in ("list", "tuple") and isinstance(body, list):
            items = [_decode_template(v, path, where, depth + 1) for v in body]
            return items if kind == "list" else tuple(items)
        if kind == "dict" and isinstance(body, list) and all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in body):
            return {k: _decode_template(v, path, where, depth + 1) for k, v in body}
    value = _attrs.decode(obj, None, f"{path}: {where}") if not isinstance(obj, dict) or "float" in obj else None
    if value is None and obj is not None:
        raise data_loss(path, f"{where}: not a valid traced argument")
    return value
