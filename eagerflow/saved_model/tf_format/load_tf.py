"""`tf.saved_model.load` of TensorFlow's layout: the object tree of saved_model.pb rebuilt without the
code that defined it (plain restored objects, lists, dicts, live Variables with the bundle's values,
Assets pointing into assets/, tf.functions dispatching over their restored traces, and `.signatures`
taking keyword arguments and returning dicts). Nothing is imported or run from the files; every
function is validated as it is rebuilt (function_import.py)."""
from __future__ import annotations

import inspect
import os

import numpy as np

from ..._src.core import nest
from ..._src.core.errors import DataLossError
from ..._src.core.tensor import Tensor, TensorSpec
from ..._src.formats.tensor_bundle import BundleReader
from ..._src.state.variables import Variable
from ..._src.trace.function import ConcreteFunction
from ..files import data_loss, read_regular_file
from ..load_safety import find_refused_nodes, refusal
from ..restored_specs import named_parameter, output_specs
from .build import OBJECT_GRAPH_KEY
from .function_import import FunctionImporter
from .import_tables import MUTABLE_CREATORS, ImportedMutableTable, ImportedTable, initial_contents, table_types
from .op_support import unsupported_message, unsupported_ops
from .structured_read import decode
from .tf_values import BadValue, dtype_of, shape_of
from .write import ASSETS_DIRECTORY, SAVED_MODEL_FILENAME_PB, VARIABLES_DIRECTORY, VARIABLES_FILENAME

_P = inspect.Parameter
MAX_FILE = 1 << 31
_CONTAINERS = {"trackable_list_wrapper": list, "trackable_tuple_wrapper": tuple, "trackable_dict_wrapper": dict}


def read_saved_model(export_dir):
    from ..._src.formats.protos import saved_model_pb2
    path = os.path.join(export_dir, SAVED_MODEL_FILENAME_PB)
    raw = read_regular_file(path, MAX_FILE, "SavedModel", inside=export_dir)  # no FIFO, device or outside link
    try:
        message = saved_model_pb2.SavedModel.FromString(raw)
    except Exception as err:  # protobuf's DecodeError: not a SavedModel message
        raise data_loss(path, f"not a SavedModel message ({type(err).__name__})") from None
    if len(message.meta_graphs) != 1:
        raise data_loss(path, f"{len(message.meta_graphs)} MetaGraphDefs; eagerflow reads a SavedModel with one")
    return path, message.meta_graphs[0]


def load_tf(export_dir, allowed):
    path, meta = read_saved_model(export_dir)
    refused = find_refused_nodes(meta, allowed)  # every refused op named before anything is built
    if refused:
        raise refusal(path, refused)
    return _TFLoader(export_dir, path, meta, allowed).root()


class _TFLoader:
    def __init__(self, export_dir, path, meta, allowed):
        from ..load import RestoredFunction, _RestoredObject
        self._restored_function, self._restored_object = RestoredFunction, _RestoredObject
        self.dir, self.path, self.meta = export_dir, path, meta
        self.graph = meta.object_graph_def
        self.nodes = list(self.graph.nodes)
        if not self.nodes:
            raise data_loss(path, "the object graph has no root")
        self.importer = FunctionImporter(path, meta.graph_def.library, allowed)
        self.importer.gradient_captures = self._gradient_captures()
        self._keys = self._checkpoint_keys()
        self._objects = {}
        self._concrete = {}
        self._namedtuples = {}

    # --- variables and assets ---
    def _checkpoint_keys(self):
        prefix = os.path.join(self.dir, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
        if not any(n.WhichOneof("kind") in ("variable", "resource") for n in self.nodes):
            self.bundle = None
            return {}
        self.bundle = BundleReader(prefix)
        from ..._src.formats.protos import trackable_object_graph_pb2
        if OBJECT_GRAPH_KEY not in self.bundle and not any(n.WhichOneof("kind") == "variable" for n in self.nodes):
            return {}
        if OBJECT_GRAPH_KEY not in self.bundle:
            raise data_loss(prefix + ".index", f"no {OBJECT_GRAPH_KEY} entry")
        try:
            graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
                self.bundle.read(OBJECT_GRAPH_KEY).item())
        except DataLossError:
            raise
        except Exception as err:
            raise data_loss(prefix + ".index", f"the object graph does not parse ({type(err).__name__})") from None
        return {(i, a.name): a.checkpoint_key for i, node in enumerate(graph.nodes) for a in node.attributes}

    def _variable(self, index, saved):
        where = f"node {index} (variable {saved.name!r})"
        key = self._keys.get((index, "VARIABLE_VALUE"))
        if key is None or key not in self.bundle:
            raise data_loss(self.path, f"{where}: its value is not in the variables bundle")
        try:
            dtype, shape = dtype_of(saved.dtype), shape_of(saved.shape)
        except BadValue as err:
            raise data_loss(self.path, f"{where}: {err}") from None
        value = self.bundle.read(key)
        if self.bundle.dtype(key) is not dtype or not shape.is_compatible_with(value.shape):
            raise data_loss(self.path, f"{where}: the stored value is not the declared {dtype.name} {shape}")
        # a declared shape with unknown sizes (a table's keys) stays so: assignments may change them
        return Variable(value, trainable=saved.trainable, name=saved.name or None, dtype=dtype,
                        shape=None if shape.is_fully_defined() else shape)

    def _asset(self, index, saved):
        from ..asset import Asset
        files = self.meta.asset_file_def
        i = saved.asset_file_def_index
        if not 0 <= i < len(files):
            raise data_loss(self.path, f"node {index}: asset {i} is not in the asset file list")
        name = files[i].filename
        if not name or os.path.basename(name) != name or name in (".", ".."):
            raise data_loss(self.path, f"node {index}: asset file name {name[:80]!r} is not a plain file name")
        return Asset(os.path.join(self.dir, ASSETS_DIRECTORY, name))

    def _constant(self, index, operation):
        """A tensor a function captured when TensorFlow saved it: a Const node of the top-level graph."""
        from ..._src.core.convert import convert_to_tensor
        from .tf_values import tensor_of
        node = next((n for n in self.meta.graph_def.node if n.name == operation and n.op == "Const"), None)
        if node is None or "value" not in node.attr:
            raise data_loss(self.path, f"node {index}: constant {operation[:80]!r} is not a Const of the graph")
        try:
            value = tensor_of(node.attr["value"].tensor)
        except BadValue as err:
            raise data_loss(self.path, f"node {index}: constant {operation[:80]!r}: {err}") from None
        return convert_to_tensor(value, dtype=dtype_of(node.attr["value"].tensor.dtype))

    def _table(self, index, node):
        """A resource object: a lookup table, read without running its creator or initializer."""
        children = {c.local_name: c.node_id for c in node.children}
        where = f"node {index} (a resource)"
        try:
            creator, key_dtype, value_dtype = table_types(self._only_function(children.get("_create_resource")))
            if creator.op in MUTABLE_CREATORS:
                base = self._keys.get((index, "table"))  # the checkpoint holds <key>-keys and <key>-values
                keys = [f"{base}-keys", f"{base}-values"]
                if self.bundle is None or base is None or any(k not in self.bundle for k in keys):
                    raise BadValue("its table-keys and table-values are not in the variables bundle")
                if (self.bundle.dtype(keys[0]), self.bundle.dtype(keys[1])) != (key_dtype, value_dtype):
                    raise BadValue(f"its stored entries are not {key_dtype.name} -> {value_dtype.name}")
                contents = [self.bundle.read(k) for k in keys]
            else:
                init = self._only_function(children.get("_initialize"))
                saved = self.graph.concrete_functions.get(init.signature.name)
                if saved is None:
                    raise BadValue(f"its initializer {init.signature.name[:80]!r} has no saved signature")
                bound = list(saved.bound_inputs)
                first = len(init.signature.input_arg) - len(bound)  # the bound inputs are the last arguments

                def bound_value(i):
                    j = bound[i - first] if 0 <= i - first < len(bound) else None
                    kind = self._node(j).WhichOneof("kind") if j is not None else None
                    if kind == "asset":  # a TextFileInitializer's file: read only if it lies inside assets/
                        path = self.obj(j)._path()
                        assets = os.path.realpath(os.path.join(self.dir, ASSETS_DIRECTORY))
                        if os.path.dirname(os.path.realpath(path)) != assets:
                            raise BadValue(f"its text file {os.path.basename(path)!r} leads outside the assets")
                        return np.array([path.encode()], object)
                    if kind not in ("constant", "variable"):
                        return None
                    value = self.obj(j)
                    return value.numpy()
                contents = initial_contents(init, bound_value, key_dtype, value_dtype)
            name = creator.attr["shared_name"].s.decode() or creator.name
            if creator.op in MUTABLE_CREATORS:
                shape = shape_of(creator.attr["value_shape"].shape) if "value_shape" in creator.attr else None
                if shape is not None and not shape.is_fully_defined():
                    raise BadValue(f"its {creator.op} has value_shape {shape}, not a fixed shape")
                return ImportedMutableTable(*contents, key_dtype, value_dtype, name,
                                            shape.as_list() if shape is not None else ())
            return ImportedTable(*contents, key_dtype, value_dtype, name)
        except BadValue as err:
            raise data_loss(self.path, f"{where}: {err}") from None

    def _only_function(self, node_id):
        """The FunctionDef of the one concrete function of a restored function's node."""
        if node_id is None:
            raise BadValue("it has no creating or initializing function")
        fn = self._node(node_id)
        names = list(fn.function.concrete_functions) if fn.WhichOneof("kind") == "function" else []
        if len(names) != 1:
            raise BadValue(f"node {node_id} is not a function with one concrete function")
        return self.importer.function(names[0])

    # --- functions ---
    def concrete(self, name, parameter_names=None, signature_key=None):
        known = self._concrete.get(name)
        if known is not None:
            return known
        saved = self.graph.concrete_functions.get(name) if name in self.graph.concrete_functions else None
        if saved is None:
            raise data_loss(self.path, f"function {name[:80]!r} has no saved signature")
        where = f"function {name!r}"
        bound = []
        for i in saved.bound_inputs:
            value = self.obj(i)
            bound.append(value.handle if isinstance(value, Variable) else value
                         if isinstance(value, (Tensor, ImportedTable)) else getattr(value, "asset_path", None))
            if bound[-1] is None:
                raise data_loss(self.path, f"{where}: bound input {i} is not a variable, constant, table or asset")
        graph, params, outputs = self.importer.function_graph(name, bound)
        inputs = decode(saved.canonicalized_input_signature, self.path, where, self._namedtuples)
        if not (isinstance(inputs, tuple) and len(inputs) == 2 and isinstance(inputs[0], tuple)
                and isinstance(inputs[1], dict)):
            raise data_loss(self.path, f"{where}: the input signature must be (args, kwargs)")
        args, kwargs = inputs
        specs = [t for t in nest.flatten([list(args), kwargs]) if isinstance(t, TensorSpec)]
        if [(s.dtype, _dims(s.shape)) for s in specs] != [(s.dtype, _dims(s.shape)) for _, s in params]:
            raise data_loss(self.path, f"{where}: the input signature does not match the function's arguments")
        names = list(parameter_names or [])[:len(args)]
        names += [f"arg_{i}" for i in range(len(names), len(args))]
        if not all(isinstance(n, str) and n.isidentifier() for n in list(names) + list(kwargs)):
            raise data_loss(self.path, f"{where}: parameter names must be identifiers")
        signature = inspect.Signature([_P(n, _P.POSITIONAL_OR_KEYWORD) for n in names] +
                                      [_P(k, _P.KEYWORD_ONLY) for k in kwargs])
        template = decode(saved.output_signature, self.path, where, self._namedtuples)
        flat = [t for t in nest.flatten(template) if isinstance(t, TensorSpec)]
        if len(flat) != len(outputs):
            raise data_loss(self.path, f"{where}: {len(outputs)} outputs for an output signature of {len(flat)}")
        it = iter(outputs)
        structure = nest.map_structure(lambda t: next(it) if isinstance(t, TensorSpec) else t, template)
        named_args = tuple(named_parameter(t, p) for t, p in zip(args, names))
        named_kwargs = {k: named_parameter(t, k) for k, t in kwargs.items()}
        param_specs = [(spec.name or name_, TensorSpec(s.shape, s.dtype, spec.name or name_))
                       for (name_, s), spec in zip(params, nest.flatten([list(named_args), named_kwargs]))
                       if isinstance(spec, TensorSpec)] if specs else []
        captures = {id(internal): external._value for external, internal in graph.captures}
        kw = {"flat_positional": 1 if len(param_specs) == 1 else 0} if signature_key is not None else {}
        if _must_compile(self.importer.function(name)):  # tf.function(jit_compile=True): the same JAX lowering
            from ..._src.codegen.program import CompileOptions
            kw["options"] = CompileOptions(jit_compile=True)
        try:
            cf = ConcreteFunction.from_graph(graph, structure, param_specs, captures, _python_name(name),
                                             traced_call=(signature, named_args, named_kwargs),
                                             output_specs=output_specs(structure), **kw)
        except DataLossError:
            raise
        except Exception as err:
            raise data_loss(self.path, f"{where}: the function cannot be compiled ({type(err).__name__}: "
                                       f"{str(err)[:300]})") from None
        self._concrete[name] = cf
        return cf

    def _function(self, index, saved):
        spec = self._fullargspec(saved.function_spec) if saved.HasField("function_spec") else None
        names = spec.parameters and [n for n, p in spec.parameters.items()
                                     if p.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD)] if spec else None
        cfs = [self.concrete(n, names) for n in saved.concrete_functions]
        return self._restored_function(cfs, spec, self._input_signature(saved))

    def _input_signature(self, saved):
        """The saved function's input_signature (a tuple of TensorSpecs and their nests), or None."""
        if not saved.HasField("function_spec") or not saved.function_spec.HasField("input_signature"):
            return None
        value = decode(saved.function_spec.input_signature, self.path, "a function's input_signature",
                       self._namedtuples)
        return tuple(value) if isinstance(value, (tuple, list)) else None

    def _fullargspec(self, function_spec):
        value = decode(function_spec.fullargspec, self.path, "a function's argument spec", self._namedtuples)
        if value is None:
            return None
        fields = value._asdict() if hasattr(value, "_asdict") else {}
        args, defaults = list(fields.get("args") or []), list(fields.get("defaults") or [])
        kwonly, kwdefaults = list(fields.get("kwonlyargs") or []), dict(fields.get("kwonlydefaults") or {})
        params = []
        try:
            for i, name in enumerate(args):
                d = i - (len(args) - len(defaults))
                params.append(_P(name, _P.POSITIONAL_OR_KEYWORD, default=defaults[d] if d >= 0 else _P.empty))
            if fields.get("varargs"):
                params.append(_P(fields["varargs"], _P.VAR_POSITIONAL))
            params += [_P(k, _P.KEYWORD_ONLY, default=kwdefaults.get(k, _P.empty)) for k in kwonly]
            if fields.get("varkw"):
                params.append(_P(fields["varkw"], _P.VAR_KEYWORD))
            return inspect.Signature(params)
        except (TypeError, ValueError) as err:
            raise data_loss(self.path, f"a function's argument spec is invalid ({err})") from None

    # --- the tree ---
    def root(self):
        gradients = [g.gradient_func for g in self.meta.graph_def.library.registered_gradients]
        found = unsupported_ops(self.importer.library, self._reachable_functions() + gradients)
        if found:
            raise data_loss(self.path, unsupported_message(found))
        obj = self.obj(0)
        signatures = {}
        for child in self.nodes[0].children:
            node = self._node(child.node_id)
            if child.local_name == "signatures" and node.WhichOneof("kind") == "user_object" \
                    and node.user_object.identifier == "signature_map":
                for entry in node.children:
                    fn = self._node(entry.node_id)
                    if fn.WhichOneof("kind") != "bare_concrete_function":
                        raise data_loss(self.path, f"signature {entry.local_name!r} is not a concrete function")
                    name = fn.bare_concrete_function.concrete_function_name
                    signatures[entry.local_name] = self.concrete(
                        name, list(fn.bare_concrete_function.argument_keywords), signature_key=entry.local_name)
        try:
            obj.signatures = signatures
        except AttributeError:
            pass
        return obj

    def _gradient_captures(self):
        """Saved custom gradient function -> the forward tensors it reads (captured_tensor objects)."""
        captures = {}
        for g in self.meta.graph_def.library.registered_gradients:
            saved = self.graph.concrete_functions.get(g.gradient_func)
            if saved is None:
                continue
            nodes = [self._node(i) for i in saved.bound_inputs]
            if any(n.WhichOneof("kind") != "captured_tensor" for n in nodes):
                raise data_loss(self.path, f"gradient function {g.gradient_func!r} reads values other than tensors "
                                           f"of the forward function")
            captures[g.gradient_func] = [n.captured_tensor.name for n in nodes]
        return captures

    def _reachable_functions(self):
        """The concrete functions the object tree from the root holds (a table's are not imported)."""
        names, seen, stack = [], set(), [0]
        while stack:
            index = stack.pop()
            if index in seen or not 0 <= index < len(self.nodes):
                continue
            seen.add(index)
            node = self.nodes[index]
            kind = node.WhichOneof("kind")
            if kind == "function":
                names.extend(node.function.concrete_functions)
            elif kind == "bare_concrete_function":
                names.append(node.bare_concrete_function.concrete_function_name)
            if kind != "resource":
                stack.extend(c.node_id for c in node.children)
        return names

    def _node(self, index):
        if not 0 <= index < len(self.nodes):
            raise data_loss(self.path, f"reference to node {index}, which does not exist")
        return self.nodes[index]

    def obj(self, index, building=None):
        if index in self._objects:
            return self._objects[index]
        building = set() if building is None else building
        if index in building:
            raise data_loss(self.path, f"node {index} contains itself")
        building.add(index)
        node = self._node(index)
        kind = node.WhichOneof("kind")
        if kind == "variable":
            value = self._variable(index, node.variable)
        elif kind == "asset":
            value = self._asset(index, node.asset)
        elif kind == "function":
            value = self._function(index, node.function)
        elif kind == "constant":
            value = self._constant(index, node.constant.operation)
        elif kind == "resource":
            value = self._table(index, node)
        elif kind == "bare_concrete_function":
            bare = node.bare_concrete_function
            value = self.concrete(bare.concrete_function_name, list(bare.argument_keywords))
        elif kind == "user_object":
            container = _CONTAINERS.get(node.user_object.identifier)
            value = self._container(index, node, container, building) if container else \
                self._user_object(index, node, building)
        else:
            raise data_loss(self.path, f"node {index}: a {kind} object, which eagerflow does not restore")
        building.discard(index)
        self._objects[index] = value
        return value

    def _user_object(self, index, node, building):
        value = self._objects[index] = self._restored_object()
        for child in node.children:
            name = child.local_name
            if name == "signatures" and index == 0:
                continue
            # Any name TensorFlow's setattr takes (Keras 2 writes `layer-0`, `layer_with_weights-0`),
            # but never one of Python's own (`__class__`, `__dict__`, ...) but `__call__`.
            if not name or (name.startswith("__") and name != "__call__"):
                raise data_loss(self.path, f"node {index}: attribute name {name[:40]!r} is not allowed")
            setattr(value, name, self.obj(child.node_id, building))
        return value

    def _container(self, index, node, container, building):
        items = [(c.local_name, c.node_id) for c in node.children]
        if container is dict:
            value = self._objects[index] = {}
            for k, i in items:
                value[k] = self.obj(i, building)
            return value
        if not all(k.isdigit() for k, _ in items):
            raise data_loss(self.path, f"node {index}: a list's children must be numbered")
        ordered = [i for _, i in sorted(items, key=lambda p: int(p[0]))]
        if container is list:
            value = self._objects[index] = []
            value.extend(self.obj(i, building) for i in ordered)
            return value
        return tuple(self.obj(i, building) for i in ordered)


def _must_compile(fdef):
    """Whether TensorFlow compiles the function with XLA: saved from tf.function(jit_compile=True), or a
    signature wrapper whose calls all are."""
    if fdef.attr["_XlaMustCompile"].b if "_XlaMustCompile" in fdef.attr else False:
        return True
    calls = [n for n in fdef.node_def if n.op in ("PartitionedCall", "StatefulPartitionedCall")]
    return bool(calls) and all(n.attr["_XlaMustCompile"].b for n in calls if "_XlaMustCompile" in n.attr) and \
        all("_XlaMustCompile" in n.attr for n in calls)


def _python_name(function_name):
    """A restored function's name as TensorFlow shows it: without the library's `__inference_` prefix."""
    return function_name[len("__inference_"):] if function_name.startswith("__inference_") else function_name


def _dims(shape):
    return None if shape.rank is None else shape.as_list()



