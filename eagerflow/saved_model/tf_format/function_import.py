"""FunctionDefs of a SavedModel's library rebuilt as eagerflow graphs. Each node is checked before it
is added: a known op type (not one that runs Python or names a Python object), TensorFlow's arity for
it, attributes of the declared types that the op's kernel takes, references to earlier nodes, and
effects the load options allow; then it goes through `Graph.add_operation`, so the op's shape rule
runs again. Calls are inlined; If/While become eagerflow's control-flow ops over branches rebuilt the
same way. Every problem is a DataLossError naming the file, the function and the node."""
from __future__ import annotations

from ..._src.control_flow.subgraph import Branch, share_externals
from ..._src.core.errors import DataLossError
from ..._src.core.tensor import TensorSpec
from ..._src.graph.graph import Graph
from ..._src.ops.registry import OPS
from ..files import data_loss
from ..graph_io import MAX_GRAPH_DEPTH, MAX_OPS, _check_op, register_every_op
from ..load_safety import refusal, refused_effects
from ..._src.formats.graph_export.op_rules import REWRITTEN
from ..._src.formats.graph_export.tf_op_signatures import SIGNATURES
from .tf_values import BadValue, attr_of, dtype_of, shape_of, tensor_of

_NOT_FROM_FILES = frozenset({"Placeholder", "PyFunc", "PyFuncStateless", "EagerPyFunc"})
_CALLS = frozenset({"PartitionedCall", "StatefulPartitionedCall"})
_IFS = frozenset({"If", "StatelessIf"})
_WHILES = frozenset({"While", "StatelessWhile"})
_SKIPPED = frozenset({"NoOp"})


class FunctionImporter:
    def __init__(self, path, library, allowed_effects=frozenset()):
        register_every_op()
        self.path = path
        self.library = {f.signature.name: f for f in library.function}
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
        if node.op in _IFS:
            return self._if(graph, node, inputs, where)
        if node.op in _WHILES:
            return self._while(graph, node, inputs, where)
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
        _check_op(opdef, inputs, {}, where)
        op = self._add(graph, opdef, inputs, {}, node.name, where)
        outs = SIGNATURES[node.op][1] if node.op in SIGNATURES else ()
        if not outs and not op.outputs:  # an update written as assignments (AdamUpdate)
            return {}, op
        if len(outs) != 1 or len(op.outputs) != 1:
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
        op = self._add(graph, opdef, inputs, attrs, node.name, where)
        sizes = _output_sizes(outs, node, len(op.outputs))
        if sizes is None:
            raise self.fail(where, f"the op computes {len(op.outputs)} outputs, TensorFlow's op others")
        groups, position = {}, 0
        for arg, size in zip(outs, sizes):
            groups[arg[0]] = list(op.outputs[position:position + size])
            position += size
        return groups, op

    def _add(self, graph, opdef, inputs, attrs, name, where):
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

    # --- control flow ---
    def _branch(self, graph, fname, values, explicit, where, kept=None):
        """A Branch for function `fname` inside `graph`: the arguments at positions `explicit` are
        its placeholders (loop variables, in that order), the others capture the given outer values;
        `kept`: the positions of the outputs it returns (default all)."""
        fdef = self.function(fname)
        args = list(fdef.signature.input_arg)
        if len(args) != len(values):
            raise self.fail(where, f"function {fname!r} takes {len(args)} arguments, the op passes {len(values)}")
        sub = Graph(fname, outer=graph)
        refs, placeholders = {}, {}
        for i, (arg, value) in enumerate(zip(args, values)):
            if dtype_of(arg.type) is not value.dtype:
                raise self.fail(where, f"function {fname!r} argument {i} is not {value.dtype.name}")
            if i in explicit:
                ph = placeholders[i] = sub.placeholder(value.dtype, value.shape, f"{fname}_input_{i}",
                                                       _variable_spec(value))
            else:
                ph = sub.capture(value)
            refs[arg.name] = ph
        outputs = self._body(sub, fdef, refs, f"{where} -> function {fname!r}")
        outputs = outputs if kept is None else [outputs[i] for i in kept]
        sub.outputs = outputs
        sub.finalize_names()
        try:
            return Branch.from_graph(sub, [placeholders[i] for i in explicit], outputs, list(outputs), fname), fdef
        except Exception as err:
            raise self.fail(where, f"function {fname!r} cannot be compiled ({type(err).__name__}: "
                                   f"{str(err)[:200]})") from None

    def _if(self, graph, node, inputs, where):
        if not inputs:
            raise self.fail(where, "an If without its predicate")
        then_b, _ = self._branch(graph, self._func_attr(node, "then_branch", where), inputs[1:], [], where)
        else_b, _ = self._branch(graph, self._func_attr(node, "else_branch", where), inputs[1:], [], where)
        if [t.dtype for t in then_b.outputs] != [t.dtype for t in else_b.outputs]:
            raise self.fail(where, "the branches return different dtypes")
        externals, stateful = share_externals(then_b, else_b)
        specs = [(a.shape.most_specific_compatible_shape(b.shape), a.dtype)
                 for a, b in zip(then_b.outputs, else_b.outputs)]
        op = self._add(graph, OPS["If" if stateful else "StatelessIf"], [inputs[0], *externals],
                       {"then_branch": then_b, "else_branch": else_b, "output_specs": specs}, node.name, where)
        return {"output": list(op.outputs[:-1])}, op

    def _while(self, graph, node, inputs, where):
        """TensorFlow's While carries every value through its body; the ones the body returns
        unchanged become captured values of eagerflow's While, the others its loop variables."""
        body_name = self._func_attr(node, "body", where)
        body_fdef = self.function(body_name)
        names = [a.name for a in body_fdef.signature.input_arg]
        rets = [body_fdef.ret.get(a.name) for a in body_fdef.signature.output_arg]
        if len(rets) != len(inputs) or len(names) != len(inputs):
            raise self.fail(where, "a While's body must take and return every loop value")
        carried = [i for i in range(len(inputs)) if rets[i] != names[i]]
        cond_b, _ = self._branch(graph, self._func_attr(node, "cond", where), inputs, carried, where)
        body_b, _ = self._branch(graph, body_name, inputs, carried, where, kept=carried)
        if len(cond_b.outputs) != 1 or cond_b.outputs[0].dtype.name != "bool":
            raise self.fail(where, "a While's condition must return one boolean")
        loop_vars = [inputs[i] for i in carried]
        for t, v in zip(body_b.outputs, loop_vars):
            if t.dtype is not v.dtype:
                raise self.fail(where, "a While's body changes a loop value's dtype")
        externals, stateful = share_externals(cond_b, body_b)
        specs = [(v.shape.most_specific_compatible_shape(t.shape), v.dtype) for v, t in zip(loop_vars, body_b.outputs)]
        op = self._add(graph, OPS["While" if stateful else "StatelessWhile"], [*loop_vars, *externals],
                       {"cond": cond_b, "body": body_b, "n_vars": len(carried), "output_specs": specs},
                       node.name, where)
        position = {i: k for k, i in enumerate(carried)}
        return {"output": [op.outputs[position[i]] if i in position else inputs[i] for i in range(len(inputs))]}, op


def _variable_spec(value):
    """The (shape, dtype) of the variable a resource value points to, when its placeholder knows it."""
    op = getattr(value, "_op", None)
    spec = op.attrs.get("variable_spec") if op is not None and op.type == "Placeholder" else None
    return spec if spec else None


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
