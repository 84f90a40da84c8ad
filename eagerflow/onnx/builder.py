"""Builds the ONNX graph of one exported function: names, nodes, initializers.

Tensors keep their graph names; nodes the converters add get fresh `onnx/<hint>/<n>` names. A
child builder (for an If/While sub-graph) has its own nodes and names and looks up what it does not
know in its parent, which is how ONNX sub-graphs read outer-scope values; initializers and the name
counter are shared by the whole export. The name tables are local to one export (the graph keeps its
tensors alive meanwhile) and keyed by id() of those tensors. Captured variables and eager tensors
(of the function or of a branch inside it) become one initializer each, holding the current value.
"""
from __future__ import annotations

import numpy as np

from .mapping import CONVERTERS

STRUCTURAL = {"Placeholder", "Const", "ReadVariableOp"}  # handled here, not by a converter


def build_model(onnx, cf, output_names, opset, ir_version):
    """The ModelProto of ConcreteFunction `cf`; an output whose name is also an input's gets `_output`."""
    b = Builder(onnx)
    graph = cf.graph
    n_params = len(cf._param_specs)
    inputs = []
    for (name, spec), placeholder in zip(cf._param_specs, graph.inputs[:n_params]):
        b.bind(placeholder, name)
        inputs.append(b.value_info(name, spec.dtype, spec.shape))
    for external, internal in graph.captures:
        b.bind(internal, b.name(external))
    b.emit_ops(graph.get_operations())
    outputs, taken = [], {info.name for info in inputs}
    for name, tensor in zip(output_names, cf._outputs):
        if name in taken:  # ONNX names each value once
            name = f"{name}_output"
        taken.add(name)
        b.nodes.append(b.helper.make_node("Identity", [b.name(tensor)], [name], name=f"output/{name}"))
        outputs.append(b.value_info(name, tensor.dtype, tensor.shape))
    onnx_graph = b.helper.make_graph(b.nodes, cf.name, inputs, outputs, b.initializers)
    model = b.helper.make_model(onnx_graph, producer_name="eagerflow",
                                opset_imports=[b.helper.make_opsetid("", opset)])
    model.ir_version = ir_version
    return model


class Builder:
    def __init__(self, onnx, root=None, parent=None, nodes=None):
        self.onnx, self.helper = onnx, onnx.helper
        self.root = root or self
        self.parent = parent
        self.nodes = [] if nodes is None else nodes
        self._names, self._consts = {}, {}
        if root is None:
            self.initializers, self._count = [], 0
            self.sequence_dtypes = {}  # ONNX name of a sequence (a TensorList) -> its elements' NumPy dtype

    def child(self, share_nodes=False):
        """A builder for a sub-graph (own nodes) or for inlining a branch here (`share_nodes`)."""
        return Builder(self.onnx, self.root, self, self.nodes if share_nodes else None)

    # --- names ---
    def bind(self, tensor, name):
        self._names[id(tensor)] = name

    def name(self, tensor):
        key = id(tensor)
        if key in self._names:
            return self._names[key]
        if key in self._consts:  # a Const becomes an initializer when first used as a value
            op = self._consts.pop(key)
            self._names[key] = self.constant(np.asarray(op.attrs["value"], tensor.dtype.np_dtype), op.name)
            return self._names[key]
        if self.parent is not None:
            return self.parent.name(tensor)
        if not getattr(tensor, "is_symbolic", True):  # a captured variable or eager tensor: its value
            self._names[key] = self.constant(_capture_value(tensor), "capture")
            return self._names[key]
        raise ValueError(f"cannot export: {tensor.name} is used but not produced in the exported graph")

    def fresh(self, hint):
        self.root._count += 1
        return f"onnx/{hint}/{self.root._count}"

    # --- emitting ---
    def emit_ops(self, operations):
        for op in operations:
            if op.type == "Placeholder":
                continue
            if op.type == "Const":
                self._consts[id(op.outputs[0])] = op
                continue
            converter = _read_variable if op.type == "ReadVariableOp" else CONVERTERS[op.type]
            for tensor, onnx_name in zip(op.outputs, converter(self, op)):
                self.bind(tensor, onnx_name)

    def emit_branch(self, branch):
        """An If/While branch's ops here (explicit inputs bound by the caller); its output names."""
        for external, internal in branch.graph.captures:
            self.bind(internal, self.parent.name(external))
        self.emit_ops(branch.operations)
        return [self.add("Identity", [self.name(t)]) for t in branch.outputs]

    def add(self, op_type, inputs, **attrs):
        """One ONNX node with one output; returns the output's name."""
        return self.add_multi(op_type, inputs, 1, **attrs)[0]

    def add_multi(self, op_type, inputs, n_outputs, **attrs):
        outs = [self.fresh(op_type) for _ in range(n_outputs)]
        if op_type == "Identity" and inputs[0] in self.root.sequence_dtypes:  # a list passed on
            self.root.sequence_dtypes[outs[0]] = self.root.sequence_dtypes[inputs[0]]
        self.nodes.append(self.helper.make_node(op_type, list(inputs), outs, name=outs[0], **attrs))
        return outs

    def constant(self, array, hint="const"):
        array = np.asarray(array)
        if array.dtype.kind in "OUS":
            raise ValueError(f"cannot export {hint!r}: string tensors are not mapped to ONNX")
        name = self.fresh(hint)
        self.root.initializers.append(self.onnx.numpy_helper.from_array(array, name))
        return name

    def scalar(self, value, like):
        return self.constant(np.asarray(value, like.dtype.np_dtype))

    def onnx_type(self, np_dtype):
        return self.helper.np_dtype_to_tensor_dtype(np.dtype(np_dtype))

    def value_info(self, name, dtype, shape):
        """`dtype`: an eagerflow DType or a NumPy type; `shape`: a TensorShape, a list, or None (unknown).
        A variant (a TensorList) is a sequence, of the element dtype recorded for `name` (onnx/lists.py)."""
        if getattr(dtype, "name", None) == "variant":
            if name not in self.root.sequence_dtypes:
                raise ValueError(f"cannot export: {name} is a variant tensor that is not a TensorList")
            elem = self.onnx_type(self.root.sequence_dtypes[name])
            return self.helper.make_tensor_sequence_value_info(name, elem, None)
        elem = self.onnx_type(getattr(dtype, "np_dtype", dtype))
        if shape is not None and not isinstance(shape, list):
            shape = None if shape.rank is None else shape.as_list()
        dims = None if shape is None else [d if d is not None else f"{name}_dim{i}" for i, d in enumerate(shape)]
        return self.helper.make_tensor_value_info(name, elem, dims)

    def graph_proto(self, name, inputs, outputs):
        return self.helper.make_graph(self.nodes, name, inputs, outputs)


def _read_variable(b, op):
    return [b.add("Identity", [b.name(op.inputs[0])])]


def _capture_value(external):
    """A capture's current value: the variable's for a resource handle, else the tensor's."""
    from .._src.state.variables import variable_of
    variable = variable_of(external)
    value = variable.numpy() if variable is not None else external.numpy()
    return np.asarray(value)
