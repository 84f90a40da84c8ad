"""FunctionDefs of a SavedModel's library rebuilt as eagerflow graphs. Each node is checked before it
is added: a known op type (not one that runs Python or names a Python object), TensorFlow's arity for
it, attributes of the declared types that the op's kernel takes, references to earlier nodes, and
effects the load options allow; then it goes through `Graph.add_operation`, so the op's shape rule
runs again. Calls are inlined; If/While become eagerflow's control-flow ops over branches rebuilt the
same way. Every problem is a DataLossError naming the file, the function and the node."""
from __future__ import annotations

from ..._src.core.errors import DataLossError
from ..._src.core.tensor import TensorSpec
from ..._src.graph.graph import Graph
from ..._src.ops.registry import OPS
from ..files import data_loss
from ..graph_io import MAX_GRAPH_DEPTH, MAX_OPS, _check_op
from ..load_safety import refusal, refused_effects
from ..._src.formats.graph_export.op_rules import REWRITTEN
from ..._src.formats.graph_export.tf_op_signatures import SIGNATURES
from .import_adapters import INPUTS_AS_ATTRIBUTES
from .import_control_flow import ControlFlowImport
from .import_attrs import kept_attributes, kernel_parameters, with_defaults
from .import_resource_reads import BUILDS as RESOURCE_READ_BUILDS, RESOURCE_READS, resource_read
from .import_tables import MUTABLE_TABLE_OPS, TABLE_OPS, ImportedTable, table_op
from .op_support import ensure_ops
from .op_support import CALLS as _CALLS, CASES, IFS as _IFS, NOT_FROM_FILES as _NOT_FROM_FILES, PASSED_THROUGH, \
    SKIPPED as _SKIPPED, WHILES as _WHILES
from .tf_values import BadValue, attr_of, dtype_of, shape_of


class FunctionImporter(ControlFlowImport):
    def __init__(self, path, library, allowed_effects=frozenset()):
        ensure_ops(_op_types_used(library) | _IMPORTER_BUILDS | RESOURCE_READ_BUILDS)
        self.path = path
        self.library = {f.signature.name: f for f in library.function}
        self.gradients = {g.registered_op_type: g.gradient_func for g in library.registered_gradients}
        self._standalone = {}
        self.gradient_captures = {}  # gradient function -> names of the forward tensors it reads (load_tf.py)
        self.allowed = allowed_effects
        self._depth = 0
        self.inlined = []  # (graph, function name, inputs, outputs) of each call inlined (gradient_import.py)

    def fail(self, where, problem):
        return data_loss(self.path, f"{where}: {problem}")

    def function(self, name):
        fdef = self.library.get(name)
        if fdef is None:
            raise data_loss(self.path, f"function {name[:80]!r} is not in the graph's library")
        return fdef

    def function_graph(self, name, bound):
        """(graph, [(name, TensorSpec)] of its parameters, outputs) of function `name`, whose last
        len(bound) arguments are the given outside values (variable handles, asset paths)."""
        fdef = self.function(name)
        where = f"function {name!r}"
        args = list(fdef.signature.input_arg)
        if len(args) < len(bound):
            raise self.fail(where, f"{len(args)} arguments for {len(bound)} bound inputs")
        graph = Graph(name)
        refs, params = {}, []
        n_params = len(args) - len(bound)
        for i, arg in enumerate(args):
            dtype, shape, spec = self._arg_type(fdef, i, arg, where)
            if i < n_params:
                ph = graph.placeholder(dtype, shape, _node_name(arg.name), spec)
                params.append((arg.name, TensorSpec(shape, dtype)))
            elif isinstance(bound[i - n_params], ImportedTable):  # lookups on it become ops over constants
                refs[arg.name] = bound[i - n_params]
                continue
            else:
                external = bound[i - n_params]
                if external.dtype is not dtype:
                    raise self.fail(where, f"argument {arg.name!r} is {dtype.name}, its bound value "
                                           f"{external.dtype.name}")
                ph = graph.capture(external)
            refs[arg.name] = ph
        outputs = self._body(graph, fdef, refs, where)
        graph.outputs = outputs
        graph.finalize_names()
        return graph, params, outputs

    def current_values(self):
        """Name -> values of the function body being imported."""
        return self._values

    def standalone_function(self, name):
        """Function `name` (of no bound inputs) as a ConcreteFunction of its own, built once."""
        if name not in self._standalone:
            from ..._src.trace.function import ConcreteFunction
            graph, params, outputs = self.function_graph(name, [])
            try:
                self._standalone[name] = ConcreteFunction.from_graph(graph, list(outputs), params, {}, name)
            except Exception as err:
                raise self.fail(f"function {name!r}", f"cannot be compiled ({type(err).__name__}: "
                                                      f"{str(err)[:200]})") from None
        return self._standalone[name]

    def _arg_type(self, fdef, i, arg, where):
        try:
            dtype = dtype_of(arg.type)
            shape = None
            if i in fdef.arg_attr and "_output_shapes" in fdef.arg_attr[i].attr:
                shapes = fdef.arg_attr[i].attr["_output_shapes"].list.shape
                shape = shape_of(shapes[0]) if len(shapes) == 1 else None
            spec = None
            if len(arg.handle_data) == 1:
                spec = (shape_of(arg.handle_data[0].shape), dtype_of(arg.handle_data[0].dtype))
        except BadValue as err:
            raise self.fail(where, f"argument {arg.name!r}: {err}") from None
        from ..._src.core.shape import TensorShape
        if shape is None or dtype.name == "resource":
            shape = TensorShape([]) if dtype.name == "resource" else TensorShape(None)
        return dtype, shape, spec

    # --- bodies ---
    def _body(self, graph, fdef, refs, where):
        """Adds `fdef`'s nodes to `graph` (its arguments bound in `refs`); returns its outputs."""
        self._depth += 1
        try:
            if self._depth > MAX_GRAPH_DEPTH:
                raise self.fail(where, "functions nested too deeply")
            nodes = list(fdef.node_def)
            if len(nodes) > MAX_OPS:
                raise self.fail(where, f"{len(nodes)} nodes")
            values = dict(refs)  # name -> tensor (an argument) or {out arg: [tensors]} (a node)
            outer_values, self._values = getattr(self, "_values", None), values
            ops = {}
            for node in _in_order(nodes, set(refs), lambda p: self.fail(where, p)):
                at = f"{where}, node {node.name!r} ({node.op})"
                recorded = "_eagerflow_part" in node.attr or "_eagerflow_op" in node.attr  # see _rewritten
                inputs = [] if recorded else [self._resolve(values, r, at) for r in node.input if not r.startswith("^")]
                values[node.name], op = self._node(graph, node, inputs, at)
                if op is not None:
                    ops[node.name] = op
                    for r in node.input:
                        if r.startswith("^") and r[1:] in ops:
                            op.control_inputs.append(ops[r[1:]])
            self._values = outer_values
            outputs = []
            for arg in fdef.signature.output_arg:
                if arg.name not in fdef.ret:
                    raise self.fail(where, f"output {arg.name!r} has no return value")
                outputs.append(self._resolve(values, fdef.ret[arg.name], f"{where}, output {arg.name!r}"))
            return outputs
        finally:
            self._depth -= 1

    def _resolve(self, values, ref, where):
        parts = ref.split(":")
        found = values.get(parts[0])
        if found is None:
            raise self.fail(where, f"input {ref[:80]!r} names nothing written before it")
        if len(parts) == 1:
            if isinstance(found, dict):
                found = found.get(next(iter(found), None), [None])[0] if found else None
            if found is None:
                raise self.fail(where, f"input {ref[:80]!r} has no value")
            return found
        if len(parts) != 3 or not parts[2].isdigit() or not isinstance(found, dict) or parts[1] not in found:
            raise self.fail(where, f"input {ref[:80]!r} is not an output of its node")
        group, k = found[parts[1]], int(parts[2])
        if k >= len(group) or group[k] is None:
            raise self.fail(where, f"input {ref[:80]!r} is not an output of its node")
        return group[k]

    def _node(self, graph, node, inputs, where):
        try:
            return self._node_unchecked(graph, node, inputs, where)
        except BadValue as err:
            raise self.fail(where, str(err)) from None

    def _node_unchecked(self, graph, node, inputs, where):
        if node.op in _SKIPPED or "_eagerflow_part" in node.attr:
            return {}, None
        if "_eagerflow_op" in node.attr:
            return self._rewritten(graph, node, where)
        if node.op in _CALLS:
            callee = self._func_attr(node, "f", where)
            fdef = self.function(callee)
            if len(fdef.signature.input_arg) != len(inputs):
                raise self.fail(where, f"calls {callee!r} with {len(inputs)} inputs")
            outs = self._body(graph, fdef, {a.name: t for a, t in zip(fdef.signature.input_arg, inputs)},
                              f"{where} -> function {callee!r}")
            self.inlined.append((graph, callee, list(inputs), outs))  # a SymbolicGradient of it may follow
            return {"output": outs}, None
        if node.op in TABLE_OPS:
            return table_op(self, graph, node, inputs, where)
        if node.op in RESOURCE_READS:
            return resource_read(self, graph, node, inputs, where)
        gradient = node.attr["_gradient_op_type"].s.decode() if "_gradient_op_type" in node.attr else None
        if node.op == "IdentityN" and gradient in self.gradients:
            from .import_custom_gradient import custom_gradient_identity
            return custom_gradient_identity(self, graph, node, inputs, where, self.gradients[gradient])
        if node.op in PASSED_THROUGH or (node.op == "Identity" and inputs and isinstance(inputs[0], ImportedTable)):
            return {"output": list(inputs)}, None
        if node.op in CASES:  # a table passed to the branches is read or written inside them
            from .import_case import case
            return case(self, graph, node, inputs, where)
        if node.op in _IFS:
            return self._if(graph, node, inputs, where)
        if node.op in _WHILES:  # a table is passed through the loop unchanged and read inside it
            return self._while(graph, node, inputs, where)
        if any(isinstance(t, ImportedTable) for t in inputs):
            raise self.fail(where, "uses a lookup table, which eagerflow imports for lookups only")
        if node.op == "ParseExampleV2":  # keys as inputs, outputs in TensorFlow's order
            from .import_parse_example import parse_example
            return parse_example(self, graph, node, inputs, where)
        if node.op == "SymbolicGradient":
            from .gradient_import import symbolic_gradient
            return symbolic_gradient(self, graph, node, inputs, where)
        return self._op(graph, node, inputs, where)

    def _rewritten(self, graph, node, where):
        """The eagerflow op that export wrote as several TensorFlow nodes, rebuilt as itself."""
        op_type = node.attr["_eagerflow_op"].s.decode("utf-8", "replace")
        if op_type not in REWRITTEN or "_eagerflow_inputs" not in node.attr:
            raise self.fail(where, f"_eagerflow_op names {op_type[:60]!r}, which export never writes")
        inputs = [self._resolve(self._values, r.decode("utf-8", "replace"), where)
                  for r in node.attr["_eagerflow_inputs"].list.s]
        opdef = OPS[op_type]
        attrs = _recorded_int_attrs(opdef, node, lambda problem: self.fail(where, problem))
        _check_op(opdef, inputs, attrs, where)
        op = self.add_op(graph, opdef, inputs, attrs, node.name, where)
        outs = SIGNATURES[node.op][1] if node.op in SIGNATURES else ()
        if not outs and not op.outputs:  # an update written as assignments (AdamUpdate)
            return {}, op
        if len(outs) != 1 or (len(op.outputs) != 1 and outs[0][1] != "list"):  # a call returns a list
            raise self.fail(where, "a rewritten op must end in a node of one output")
        return {outs[0][0]: list(op.outputs)}, op

    def _func_attr(self, node, key, where):
        if key not in node.attr or node.attr[key].WhichOneof("value") != "func":
            raise self.fail(where, f"attribute {key!r} must name a function")
        return node.attr[key].func.name

    def _op(self, graph, node, inputs, where):
        op_type = node.op
        if op_type not in OPS or op_type in _NOT_FROM_FILES or op_type not in SIGNATURES:
            raise self.fail(where, f"unknown op type {op_type[:60]!r}")
        ins, outs, attr_defs, _ = SIGNATURES[op_type]
        inferred = {a[2] for a in ins + outs if a[1] in ("attr", "list")} | {a[3] for a in ins + outs if a[3]}
        types = {name: attr_type for name, attr_type, _ in attr_defs}
        attrs = {}
        try:
            for key in node.attr:
                if key.startswith("_") or key in inferred:
                    continue
                if key not in types:
                    raise BadValue(f"attribute {key[:60]!r}, which {op_type} does not have")
                attrs[key] = attr_of(node.attr[key], types[key])
            attrs = kept_attributes(OPS[op_type], op_type, node.name, with_defaults(op_type, node, attrs, types))
            if op_type in INPUTS_AS_ATTRIBUTES:
                inputs, attrs = INPUTS_AS_ATTRIBUTES[op_type](inputs, attrs)
        except BadValue as err:
            raise self.fail(where, str(err)) from None
        try:
            declared = {k: attr_of(node.attr[k], types[k]) for k in inferred if k in node.attr}
            for key in _kernel_type_attrs(op_type) & set(declared):  # a type attribute the kernel takes too
                attrs[key] = declared[key]
            _check_declared_types(ins, inputs, declared)
        except BadValue as err:
            raise self.fail(where, str(err)) from None
        opdef = OPS[op_type]
        try:
            _check_op(opdef, inputs, attrs, where)
        except DataLossError as err:
            raise data_loss(self.path, str(err)) from None
        if refused_effects(opdef, attrs, self.allowed):
            raise refusal(self.path, [(where, (), node.name, op_type, refused_effects(opdef, attrs, self.allowed))])
        op = self.add_op(graph, opdef, inputs, attrs, node.name, where)
        sizes = _output_sizes(outs, node, len(op.outputs))
        if sizes is None:
            raise self.fail(where, f"the op computes {len(op.outputs)} outputs, TensorFlow's op others")
        groups, position = {}, 0
        for arg, size in zip(outs, sizes):
            groups[arg[0]] = list(op.outputs[position:position + size])
            position += size
        return groups, op

    def add_op(self, graph, opdef, inputs, attrs, name, where):
        before = len(graph.get_operations())
        try:
            graph.add_operation(opdef, inputs, attrs, name=_node_name(name))
        except DataLossError:
            raise
        except Exception as err:  # the op's shape rule refused its inputs or attributes
            raise self.fail(where, f"the op does not accept its inputs or attributes "
                                   f"({type(err).__name__}: {str(err)[:300]})") from None
        added = graph.get_operations()[before:]
        if len(added) != 1:
            raise self.fail(where, "the op did not rebuild as a single node")
        return added[0]

def _recorded_int_attrs(opdef, node, fail):
    """The integer attributes export recorded for a rewritten op (`_eagerflow_int_attrs`: "name=value"
    strings, or "name=v1,v2,..." for a tuple of integers; op_rules.py's _recorded), each one the op's
    kernel takes."""
    if "_eagerflow_int_attrs" not in node.attr:
        return {}
    names, _ = kernel_parameters(opdef)
    attrs = {}
    for item in node.attr["_eagerflow_int_attrs"].list.s:
        key, _, value = item.decode("utf-8", "replace").partition("=")
        parts = value.split(",")
        if key not in names or len(parts) > 8 or not all(p.lstrip("-").isdigit() and len(p) <= 20 for p in parts):
            raise fail(f"_eagerflow_int_attrs holds {item[:60]!r}, which is not an attribute of the op it records")
        attrs[key] = int(value) if len(parts) == 1 else tuple(int(p) for p in parts)
    return attrs


# op types the importer builds for nodes of other types (Case's Equal, a table's lookup, ...)
_IMPORTER_BUILDS = frozenset({"If", "StatelessIf", "While", "StatelessWhile", "Equal", "VocabularyLookup",
                              "SavedCustomGradient", "IdentityN", "Const", "Identity"}) | MUTABLE_TABLE_OPS


def _op_types_used(library):
    """Every op type a node of the library names, and the eagerflow ops export recorded on nodes."""
    used = set()
    for fdef in library.function:
        for node in fdef.node_def:
            used.add(node.op)
            if "_eagerflow_op" in node.attr:
                used.add(node.attr["_eagerflow_op"].s.decode("utf-8", "replace"))
    return used


def _check_declared_types(in_args, inputs, declared):
    """A type attribute the node declares for a single-tensor input must be that input's dtype."""
    if any(a[1] == "list" or a[3] for a in in_args) or len(in_args) != len(inputs):
        return
    for (name, kind, ref, _), tensor in zip(in_args, inputs):
        if kind == "attr" and ref in declared and declared[ref] is not tensor.dtype:
            raise BadValue(f"input {name!r} is {tensor.dtype.name}, attribute {ref} says {declared[ref].name}")
        if kind == "fixed" and dtype_of(ref) is not tensor.dtype:
            raise BadValue(f"input {name!r} is {tensor.dtype.name}, the op takes {dtype_of(ref).name}")


def _kernel_type_attrs(op_type):
    """The attribute names eagerflow's kernel for `op_type` takes (Cast's DstT, Shape's out_type, Const's
    dtype, ...), so type attributes it needs are read rather than inferred."""
    import inspect
    try:
        return {p.name for p in inspect.signature(OPS[op_type].kernel).parameters.values()
                if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    except (TypeError, ValueError):
        return set()


def _output_sizes(out_args, node, count):
    """How many of the op's outputs each of TensorFlow's output arguments holds."""
    sizes, open_args = [], 0
    for name, kind, ref, number in out_args:
        if kind == "list":
            sizes.append(len(node.attr[ref].list.type) if ref in node.attr else None)
        elif number:
            sizes.append(node.attr[number].i if number in node.attr else None)
        else:
            sizes.append(1)
        open_args += sizes[-1] is None
    if open_args > 1:
        return None
    known = sum(s for s in sizes if s is not None)
    if open_args:
        sizes = [count - known if s is None else s for s in sizes]
    return sizes if sum(sizes) == count and all(s >= 0 for s in sizes) else None


def _node_name(name):
    return name if name and len(name) <= 256 else "node"


def _in_order(nodes, known, fail):
    """The nodes with each after the nodes its inputs name (TensorFlow does not order a
    FunctionDef's nodes); a cycle or a duplicate name is a failure."""
    by_name = {}
    for node in nodes:
        if node.name in by_name or node.name in known:
            raise fail(f"two nodes named {node.name[:80]!r}")
        by_name[node.name] = node
    done, order, visiting = set(known), [], set()
    for node in nodes:
        stack = [(node, False)]
        while stack:
            current, expanded = stack.pop()
            if current.name in done:
                continue
            if expanded:
                visiting.discard(current.name)
                done.add(current.name)
                order.append(current)
                continue
            if current.name in visiting:
                raise fail(f"node {current.name[:80]!r} depends on itself")
            visiting.add(current.name)
            stack.append((current, True))
            for ref in current.input:
                dep = ref.lstrip("^").split(":")[0]
                if dep not in done and dep in by_name:
                    stack.append((by_name[dep], False))
    return order
