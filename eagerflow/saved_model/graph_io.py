"""Graph IR <-> JSON: a traced graph written as a declarative description, and rebuilt from one.

A graph document:
    {"name": ..., "inputs": [input...], "ops": [op...], "outputs": [[node, output index], ...]}
Nodes are numbered inputs first, then ops, so a reference `[node, k]` is output k of that node and
must point backwards (no cycles). An input is a Placeholder:
    {"name", "dtype", "shape", "variable_spec": null | [shape, dtype], "capture": null | capture}
where a top-level graph's capture is {"variable": i} (a saved Variable) or {"tensor": ref} (an
eager tensor the function closed over), and a sub-graph's is {"op_input": i}: input i of the
control-flow op that runs it. An op:
    {"name", "type", "inputs": [[node, k], ...], "attrs": [[name, attr], ...],
     "outputs": [[dtype, shape], ...], "control": [node, ...]}
with attributes in the typed encoding of attrs.py.

Rebuilding goes through the same doors as tracing: `Graph.placeholder`, `Graph.capture` and
`Graph.add_operation` with the op looked up in the registry (ops/registry.py OPS), so every op's
shape rule runs again, and the result must agree with the declared outputs. Every check failure is
a DataLossError naming the file and the node.
"""
from __future__ import annotations

import functools
import inspect
import keyword

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.errors import DataLossError
from .._src.core.shape import TensorShape
from .._src.graph.graph import Graph
from .._src.ops.registry import OPS
from . import attrs as _attrs
from .files import data_loss
from .load_safety import STREAMS, printing_to_a_file, refusal, refused_effects
from .loop_gradient import check_while_grad

MAX_OPS = 200_000
MAX_NAME = 256
MAX_GRAPH_DEPTH = 16
# Not loadable from a file: a Placeholder is described as an input; a call op holds a Python
# function object. PrintV2's file:// streams would let a model write files: only stdout/stderr.
_NOT_FROM_FILES = frozenset({"Placeholder", "PartitionedCall", "StatefulPartitionedCall"})
_CONTROL_FLOW = frozenset({"If", "StatelessIf", "While", "StatelessWhile"})
_WITH_SUBGRAPHS = _CONTROL_FLOW | {"WhileGrad"}  # a loop's gradient: its body's gradient and the body


# --- writing ---
class GraphWriter:
    """Encodes graphs; `tensor(array)` stores arrays, `capture(external)` describes a top-level
    capture (set by the saver)."""

    def __init__(self, store_tensor, describe_capture):
        self._store_tensor = store_tensor
        self._describe_capture = describe_capture
        self._op_stack = []

    def tensor(self, array):
        return self._store_tensor(array)

    def function_graph(self, graph, outputs):
        return self._encode(graph, graph.inputs, outputs, {id(internal): self._describe_capture(external)
                                                             for external, internal in graph.captures})

    def graph(self, branch):
        """A branch or loop body inside the op being encoded: its captures name that op's inputs."""
        op = self._op_stack[-1]
        if op.type not in _WITH_SUBGRAPHS:
            raise _attrs.Unsavable(f"a sub-graph of {op.type}, an op the loader does not rebuild (only If, While "
                                   f"and WhileGrad)")
        captures = {}
        if op.type == "WhileGrad" and branch is op.attrs.get("body") and branch.index is not None:
            # The loop body a gradient differentiates: its captures are the WhileGrad's inputs after
            # the history by position (a loop nested in a body was traced against the outer values,
            # and its gradient replayed on others), as bound when the loop was built.
            for j, (_, internal) in enumerate(branch.graph.captures):
                captures[id(internal)] = {"op_input": 1 + branch.index[j]}
            return self._encode(branch.graph, branch.graph.inputs, branch.outputs, captures)
        for external, internal in branch.graph.captures:
            here = _as_seen_by(op.graph, external)
            position = next((i for i, t in enumerate(op.inputs) if t is here), None)
            if position is None:
                raise _attrs.Unsavable(f"a sub-graph capturing {_describe(external)}, which is not an input of "
                                       f"the op")
            captures[id(internal)] = {"op_input": position}
        return self._encode(branch.graph, branch.graph.inputs, branch.outputs, captures)

    def _encode(self, graph, inputs, outputs, captures):
        nodes = {}
        doc_inputs = []
        for ph in inputs:
            nodes[id(ph._op)] = len(nodes)
            spec = ph._op.attrs.get("variable_spec")
            doc_inputs.append({
                "name": ph._op.name, "dtype": ph.dtype.name, "shape": _attrs.encode_shape(ph.shape),
                "variable_spec": None if spec is None else [_attrs.encode_shape(TensorShape(spec[0])), spec[1].name],
                "capture": captures.get(id(ph))})
        ops = []
        for op in graph.get_operations():
            if op.type == "Placeholder":
                if id(op) not in nodes:
                    raise ValueError(f"Cannot save graph {graph.name!r}: placeholder {op.name} is not an input")
                continue
            nodes[id(op)] = len(nodes)
            if op.type == "PrintV2" and op.attrs.get("output_stream") not in STREAMS:
                raise ValueError(f"Cannot save op {op.name!r} (type PrintV2) of graph {graph.name!r}: it prints to "
                                 f"{op.attrs.get('output_stream')!r}, and a loaded model may print to stdout or "
                                 f"stderr only (a file stream would let a model file write files).")
            self._op_stack.append(op)
            try:
                encoded = [[k, _attrs.encode(v, self)] for k, v in op.attrs.items()]
            except _attrs.Unsavable as err:
                raise ValueError(f"Cannot save op {op.name!r} (type {op.type}) of graph {graph.name!r}: its "
                                 f"attribute holds {err}, which a SavedModel cannot store.") from None
            finally:
                self._op_stack.pop()
            ops.append({"name": op.name, "type": op.type,
                        "inputs": [_ref(nodes, t, graph) for t in op.inputs], "attrs": encoded,
                        "outputs": [[t.dtype.name, _attrs.encode_shape(t.shape)] for t in op.outputs],
                        "control": [nodes[id(c)] for c in op.control_inputs]})
        return {"name": graph.name, "inputs": doc_inputs, "ops": ops,
                "outputs": [_ref(nodes, t, graph) for t in outputs]}


def _describe(tensor):
    """A tensor's name for a message (an eager tensor has none)."""
    return tensor.name if getattr(tensor, "_op", None) is not None else f"an eager {tensor.dtype.name} tensor"


def _as_seen_by(graph, tensor):
    """`tensor` as `graph` sees it: itself, or the placeholder capturing it."""
    if getattr(tensor, "_op", None) is not None and tensor._op.graph is graph:
        return tensor
    for external, internal in graph.captures:
        if external is tensor:
            return internal
    return tensor


def _ref(nodes, tensor, graph):
    node = nodes.get(id(tensor._op))
    if node is None:
        raise ValueError(f"Cannot save graph {graph.name!r}: tensor {tensor.name} comes from another graph")
    return [node, tensor.value_index]


# --- reading ---
@functools.lru_cache(maxsize=None)  # once per process: the folder is listed on the first load only
def register_every_op():
    """Imports every module that defines ops, so a file can name any of them: `import eagerflow`
    leaves some to their first use (tf.keras's fused optimizer ops, the call op, tf.data's iterator
    and shuffle ops, tf.summary's writers)."""
    import importlib
    from .._src.ops import import_every_op_module
    import_every_op_module()
    for module in _OP_MODULES_OUTSIDE_OPS:
        importlib.import_module(module)


# Modules outside _src/ops/ that define ops and that `import eagerflow` does not load.
_OP_MODULES_OUTSIDE_OPS = ("eagerflow.summary.ops", "eagerflow._src.data.stream", "eagerflow._src.data.shuffle")


class GraphReader:
    """Rebuilds graphs from documents of one file (`path`, for messages). `tensor(ref, where)`
    reads tensors; `top_capture(doc, where)` gives the eager tensor a top-level capture names."""

    def __init__(self, path, read_tensor, top_capture, allowed_effects=frozenset()):
        register_every_op()
        self.path = path
        self._allowed = allowed_effects  # what the load options let ops do (load_safety.py)
        self._read_tensor = read_tensor
        self._top_capture = top_capture
        self._contexts = []  # (graph, op inputs) of the control-flow ops whose sub-graphs are being read

    def tensor(self, ref, where):
        return self._read_tensor(ref, where)

    def function_graph(self, doc, where):
        """(graph, params: [(name, TensorSpec)] in order, outputs) of a function's graph."""
        return self._build(doc, where, None)

    def graph(self, doc, where):
        """A sub-graph attribute: a Branch over the enclosing op's inputs."""
        if not self._contexts:
            raise data_loss(where, "a sub-graph attribute outside a control-flow op")
        if len(self._contexts) > MAX_GRAPH_DEPTH:
            raise data_loss(where, "sub-graphs nested too deeply")
        from .._src.control_flow.subgraph import Branch
        graph, params, outputs = self._build(doc, where, self._contexts[-1])
        explicit = graph.inputs[:len(params)]
        try:
            return Branch.from_graph(graph, explicit, outputs, list(outputs), graph.name)
        except Exception as err:  # the passes or code generation refused the rebuilt graph
            raise data_loss(where, f"sub-graph {graph.name!r} cannot be compiled ({_brief(err)})") from None

    def _build(self, doc, where, context):
        _check_keys(doc, {"name", "inputs", "ops", "outputs"}, where, "graph")
        name = _name(doc["name"], where)
        where = f"{where}, graph {name!r}"
        inputs, ops = doc["inputs"], doc["ops"]
        if not isinstance(inputs, list) or not isinstance(ops, list) or len(inputs) + len(ops) > MAX_OPS:
            raise data_loss(where, "inputs and ops must be lists of sane length")
        graph = Graph(name, outer=context[0] if context else None)
        nodes = []  # node index -> list of output tensors
        params = []
        for i, entry in enumerate(inputs):
            ph, param = self._input(graph, entry, f"{where}, input {i}", context, captured=len(params) < i)
            if param is not None:
                params.append(param)
            nodes.append([ph])
        for i, entry in enumerate(ops):
            nodes.append(self._op(graph, entry, nodes, f"{where}, op {i}"))
        graph.outputs = [_resolve(nodes, r, f"{where}, outputs") for r in _list(doc["outputs"], where, "outputs")]
        graph.finalize_names()
        return graph, params, graph.outputs

    def _input(self, graph, entry, where, context, captured):
        _check_keys(entry, {"name", "dtype", "shape", "variable_spec", "capture"}, where, "input")
        dtype = _attrs.decode_dtype(entry["dtype"], where)
        shape = _attrs.decode_shape(entry["shape"], where)
        name = _name(entry["name"], where)
        spec = entry["variable_spec"]
        if spec is not None:
            if not (isinstance(spec, list) and len(spec) == 2) or dtype is not _dt.resource:
                raise data_loss(where, "variable_spec must be [shape, dtype] on a resource input")
            spec = (_attrs.decode_shape(spec[0], where), _attrs.decode_dtype(spec[1], where))
        capture = entry["capture"]
        if capture is None:
            if captured:
                raise data_loss(where, "a parameter input after a captured one")
            from .._src.core.tensor import TensorSpec
            return graph.placeholder(dtype, shape, name, spec), (name, TensorSpec(shape, dtype))
        if not isinstance(capture, dict) or len(capture) != 1:
            raise data_loss(where, "a capture must be a one-key object")
        if context is None:
            external = self._top_capture(capture, where)
        else:
            position = capture.get("op_input")
            op_inputs = context[1]
            if type(position) is not int or not 0 <= position < len(op_inputs):
                raise data_loss(where, f"capture of op input {str(position)[:20]}, which does not exist")
            external = op_inputs[position]
        if external.dtype is not dtype:
            raise data_loss(where, f"captured value has dtype {external.dtype.name}, declared {dtype.name}")
        if dtype is not _dt.resource and not shape.is_compatible_with(external.shape):
            raise data_loss(where, f"captured value has shape {external.shape}, declared {shape}")
        return graph.capture(external), None

    def _op(self, graph, entry, nodes, where):
        _check_keys(entry, {"name", "type", "inputs", "attrs", "outputs", "control"}, where, "op")
        op_type = entry["type"]
        if not isinstance(op_type, str) or op_type not in OPS or op_type in _NOT_FROM_FILES:
            raise data_loss(where, f"unknown op type {str(op_type)[:60]!r}")
        opdef = OPS[op_type]
        name = _name(entry["name"], where)
        where = f"{where} ({name}: {op_type})"
        inputs = [_resolve(nodes, r, where) for r in _list(entry["inputs"], where, "inputs")]
        raw_attrs = _list(entry["attrs"], where, "attrs")
        if not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in raw_attrs):
            raise data_loss(where, "attrs must be [name, value] pairs")
        for key, _ in raw_attrs:
            # NOTE: codegen writes attribute names as keyword arguments into the generated source:
            # anything but a plain identifier would be code.
            if not key.isidentifier() or keyword.iskeyword(key) or not key.isascii():
                raise data_loss(where, f"attribute name {key[:60]!r} is not an identifier")
        self._contexts.append((graph, inputs))
        try:
            attrs = {k: _attrs.decode(v, self, where) for k, v in raw_attrs}
        finally:
            self._contexts.pop()
        _check_op(opdef, inputs, attrs, where)
        if refused_effects(opdef, attrs, self._allowed):  # load() found none: its scan and this one disagree
            raise refusal(self.path, [(where, (), name, op_type, refused_effects(opdef, attrs, self._allowed))])
        _check_subgraph_inputs(opdef, inputs, attrs, where)
        before = len(graph.get_operations())
        try:
            graph.add_operation(opdef, inputs, attrs, name=name)
        except DataLossError:
            raise
        except Exception as err:  # the op's shape rule refused its inputs or attributes
            raise data_loss(where, f"the op does not accept its inputs or attributes ({_brief(err)})") from None
        added = graph.get_operations()[before:]
        if len(added) != 1:
            raise data_loss(where, "the op did not rebuild as a single node")
        op = added[0]
        declared = _list(entry["outputs"], where, "outputs")
        if len(declared) != len(op.outputs):
            raise data_loss(where, f"{len(declared)} outputs declared, the op has {len(op.outputs)}")
        for k, (decl, t) in enumerate(zip(declared, op.outputs)):
            if not (isinstance(decl, list) and len(decl) == 2):
                raise data_loss(where, "an output must be [dtype, shape]")
            dtype, shape = _attrs.decode_dtype(decl[0], where), _attrs.decode_shape(decl[1], where)
            if dtype is not t.dtype or _dims(shape) != _dims(t.shape):
                raise data_loss(where, f"output {k} declared {dtype.name} {shape}, the op computes "
                                       f"{t.dtype.name} {t.shape}")
        for c in _list(entry["control"], where, "control"):
            if type(c) is not int or not 0 <= c < len(nodes):
                raise data_loss(where, "a control input must name an earlier node")
            source = nodes[c][0]._op if nodes[c] else None
            if source is None:
                raise data_loss(where, "a control input names a node without outputs")
            op.control_inputs.append(source)
        return list(op.outputs) if op.outputs else [_NoOutputs(op)]


class _NoOutputs:
    """Stands in a node list for an op without outputs, so control inputs can still name it."""

    def __init__(self, op):
        self._op = op


def _dims(shape):
    return None if shape.rank is None else shape.as_list()


def _brief(err):
    text = getattr(err, "message", None) or str(err)
    return f"{type(err).__name__}: {text[:300]}"


def _check_keys(doc, keys, where, what):
    if not isinstance(doc, dict) or set(doc) != keys:
        raise data_loss(where, f"a {what} entry must have exactly the keys {', '.join(sorted(keys))}")


def _list(value, where, what):
    if not isinstance(value, list) or len(value) > MAX_OPS:
        raise data_loss(where, f"{what} must be a list")
    return value


def _name(value, where):
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
        raise data_loss(where, "a name must be a non-empty string of at most 256 characters")
    return value


def _resolve(nodes, ref, where):
    if not (isinstance(ref, list) and len(ref) == 2 and type(ref[0]) is int and type(ref[1]) is int):
        raise data_loss(where, "a tensor reference must be [node, output index]")
    node, k = ref
    if not 0 <= node < len(nodes):
        raise data_loss(where, f"reference to node {node}, which is not an earlier node")
    outs = nodes[node]
    if not 0 <= k < len(outs) or isinstance(outs[k], _NoOutputs):
        raise data_loss(where, f"reference to output {k} of node {node}, which has {len(outs)} outputs")
    return outs[k]


@functools.lru_cache(maxsize=None)
def _kernel_signature(opdef):
    try:
        return inspect.signature(opdef.kernel)
    except (TypeError, ValueError):  # a NumPy ufunc or builtin: no Python signature to check against
        return None


def _check_op(opdef, inputs, attrs, where):
    """Arity and attribute names against the kernel's own parameters, and the few attribute
    values that would reach outside the process."""
    if opdef.name == "Const":
        value, dtype = attrs.get("value"), attrs.get("dtype")
        if set(attrs) != {"value", "dtype"} or not isinstance(value, np.ndarray) or not isinstance(dtype, _dt.DType) \
                or _dt.from_numpy(value.dtype) is not dtype or inputs:
            raise data_loss(where, "a Const needs exactly a tensor value and its dtype, and no inputs")
    if printing_to_a_file(opdef.name, attrs):
        raise data_loss(where, "a PrintV2 loaded from a file may print to stdout or stderr only")
    sig = _kernel_signature(opdef)
    if sig is None:
        return
    try:
        sig.bind(*([None] * len(inputs)), **attrs)
    except TypeError as err:
        raise data_loss(where, f"{len(inputs)} inputs and attributes {sorted(attrs)} do not fit the op ({err})") \
            from None


def _check_subgraph_inputs(opdef, inputs, attrs, where):
    """An op running sub-graphs takes their captured values as its last inputs, in first-capture
    order (control_flow/subgraph.py share_externals); the rebuilt branches must agree."""
    branches = [v for v in attrs.values() if hasattr(v, "externals") and hasattr(v, "graph")]
    if opdef.name == "WhileGrad":
        check_while_grad(inputs, attrs, where)
        return
    if not branches:
        if opdef.name in _CONTROL_FLOW:
            raise data_loss(where, "an If or While without its sub-graphs")
        return
    from .._src.control_flow.subgraph import share_externals
    externals, _ = share_externals(*branches)
    tail = inputs[len(inputs) - len(externals):] if externals else []
    if len(externals) > len(inputs) or any(a is not b for a, b in zip(externals, tail)):
        raise data_loss(where, "the sub-graphs' captured values are not the op's last inputs")
    own = len(inputs) - len(externals)  # the op's own inputs: an If's predicate, a While's loop variables
    specs = attrs.get("output_specs")
    if not (isinstance(specs, list) and all(isinstance(s, (list, tuple)) and len(s) == 2
                                            and isinstance(s[0], TensorShape) and isinstance(s[1], _dt.DType)
                                            for s in specs)):
        raise data_loss(where, "output_specs must be a list of (shape, dtype)")
    names = {k for k, v in attrs.items() if any(v is b for b in branches)}
    if opdef.name in ("If", "StatelessIf") and names == {"then_branch", "else_branch"}:
        if own != 1 or any(b.explicit for b in branches) or not all(_fits(b.outputs, specs) for b in branches):
            raise data_loss(where, "an If takes a predicate, and its branches no inputs and the declared outputs")
    elif opdef.name in ("While", "StatelessWhile") and names == {"cond", "body"}:
        cond, body = attrs["cond"], attrs["body"]
        variables = [(t.shape, t.dtype) for t in inputs[:own]]
        invariants = [(t.shape, t.dtype) for t in body.explicit]
        if attrs.get("n_vars") != own or not _fits(inputs[:own], specs) or not _fits(cond.explicit, variables) \
                or not _fits(body.explicit, variables) or not _fits(body.outputs, invariants) \
                or [t.dtype for t in cond.outputs] != [_dt.bool_] \
                or type(attrs.get("maximum_iterations", -1)) is not int:
            raise data_loss(where, "a While's loop variables, condition and body do not agree")
    else:
        raise data_loss(where, "sub-graph attributes other than an If's two branches or a While's cond and body")


def _fits(tensors, specs):
    """Same count, same dtypes, compatible shapes."""
    return len(tensors) == len(specs) and all(
        t.dtype is dtype and t.shape.is_compatible_with(shape) for t, (shape, dtype) in zip(tensors, specs))
