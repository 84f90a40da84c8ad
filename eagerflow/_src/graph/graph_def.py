"""`Graph.as_graph_def()`: the graph as a GraphDef-shaped structure that TensorFlow users walk.

TensorFlow users inspect a traced function with `cf.graph.as_graph_def()` and loops such as
`for node in graph_def.node: node.name, node.op, node.input, node.attr["T"].type`. We have no
protobufs, so these are small Python objects with the same field names and the same values:

- `GraphDef.node`: one `NodeDef` per operation, in creation order;
- `NodeDef.input`: TensorFlow's strings, `"name"` for output 0, `"name:1"` for another output,
  `"^name"` for a control input;
- `NodeDef.attr`: name -> `AttrValue` with one field set (`type`, `shape`, `s`, `i`, `f`, `b`,
  `tensor`, `list`), as TensorFlow fills it: `dtype`/`shape`/`_user_specified_name` on a
  Placeholder, `dtype`/`value` on a Const, `T` (the input dtype) on ordinary ops, `dtype` on
  ReadVariableOp, `SrcT`/`DstT` on Cast, plus the op's own attributes.

Why a separate file: it is a read-only view over graph/graph.py's IR, written once per request,
with nothing of the execution path in it.
"""
from __future__ import annotations

import numpy as np

from ..core.dtypes import DType
from ..core.shape import TensorShape

_ENUM_NAMES = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}
# Op types whose dtype attribute TensorFlow calls something other than `T`.
_OUTPUT_DTYPE_ATTR = {"ReadVariableOp": "dtype", "Placeholder": "dtype", "Const": "dtype"}
_INTERNAL_ATTRS = {"variable_spec"}  # ours, not TensorFlow's


def datatype_name(dtype) -> str:
    """`DT_FLOAT`, `DT_INT32`, `DT_RESOURCE`: TensorFlow's DataType enum name for a dtype."""
    return "DT_" + _ENUM_NAMES.get(dtype.name, dtype.name.upper())


class AttrValue:
    """One attribute; exactly one of its fields is set (`WhichOneof("value")` names it)."""

    _FIELDS = ("type", "shape", "s", "i", "f", "b", "tensor", "list", "func")

    def __init__(self, **field):
        (self._which, value), = field.items()
        setattr(self, self._which, value)

    def __getattr__(self, name):  # an unset field reads as empty, as in a protobuf message
        if name in AttrValue._FIELDS:
            return None
        raise AttributeError(name)

    def WhichOneof(self, group="value"):
        return self._which

    def __eq__(self, other):
        return isinstance(other, AttrValue) and self._which == other._which and _same(
            getattr(self, self._which), getattr(other, other._which))

    def __repr__(self):
        value = getattr(self, self._which)
        if self._which == "type":
            return f"type: {datatype_name(value)}"
        if self._which == "s":
            return f's: "{value.decode(errors="replace")}"'
        if self._which == "shape":
            return "shape { unknown_rank: true }" if value.rank is None else \
                "shape {" + "".join(f" dim {{ size: {-1 if d is None else d} }}" for d in value.as_list()) + " }"
        if self._which == "tensor":
            return f"tensor {{ dtype: {datatype_name(_dtype_of(value))} shape: {list(np.shape(value))} }}"
        if self._which == "b":
            return f"b: {'true' if value else 'false'}"
        return f"{self._which}: {value!r}"


def _same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def _dtype_of(array):
    """The dtype of a Const value (for its AttrValue text)."""
    from ..core import dtypes
    return dtypes.as_dtype(np.asarray(array).dtype)


def attr_value(value) -> AttrValue:
    """A Python attribute value as the AttrValue field TensorFlow would use for it."""
    if isinstance(value, DType):
        return AttrValue(type=value)
    if isinstance(value, TensorShape):
        return AttrValue(shape=value)
    if isinstance(value, bool):
        return AttrValue(b=value)
    if isinstance(value, (int, np.integer)):
        return AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return AttrValue(f=float(value))
    if isinstance(value, str):
        return AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, (np.ndarray, np.generic)):
        return AttrValue(tensor=np.asarray(value))
    if isinstance(value, (list, tuple)):
        return AttrValue(list=[attr_value(v) for v in value])
    return AttrValue(func=value)  # a sub-graph (If/While branches) or another object


class NodeDef:
    """One operation: `name`, `op`, `input` (TensorFlow's strings), `attr`, `device`."""

    __slots__ = ("name", "op", "input", "attr", "device")

    def __init__(self, name, op, inputs, attr):
        self.name, self.op, self.input, self.attr, self.device = name, op, inputs, attr, ""

    def __repr__(self):
        return f"NodeDef(name={self.name!r}, op={self.op!r}, input={self.input!r})"


class GraphDef:
    """The nodes of a graph, in creation order."""

    __slots__ = ("node",)

    def __init__(self, nodes):
        self.node = nodes

    def __repr__(self):
        return "\n".join(f"node {{ name: {n.name!r} op: {n.op!r} input: {n.input!r} }}" for n in self.node)


def input_name(tensor) -> str:
    """TensorFlow's reference to a tensor in a NodeDef: `op` for output 0, `op:i` otherwise."""
    op_name = tensor.op.name
    return op_name if tensor.value_index == 0 else f"{op_name}:{tensor.value_index}"


def node_attrs(op) -> dict:
    attrs = {}
    if op.type == "Placeholder":
        attrs["dtype"] = AttrValue(type=op.attrs["dtype"])
        attrs["shape"] = AttrValue(shape=op.attrs["shape"])
        attrs["_user_specified_name"] = AttrValue(s=op.name.encode())
        return attrs
    if op.type == "Const":
        return {"dtype": AttrValue(type=op.outputs[0].dtype), "value": AttrValue(tensor=np.asarray(op.attrs["value"]))}
    if op.type == "Cast" and op.inputs:
        attrs["SrcT"] = AttrValue(type=op.inputs[0].dtype)
    elif op.type in _OUTPUT_DTYPE_ATTR and op.outputs:
        attrs[_OUTPUT_DTYPE_ATTR[op.type]] = AttrValue(type=op.outputs[0].dtype)
    elif op.inputs and not any(isinstance(v, DType) for v in op.attrs.values()):
        # `T` is the data's dtype: the output's (Split's first input is an int32 axis), or for a
        # comparison (a bool output) its inputs'.
        data = op.outputs[0] if op.outputs and op.outputs[0].dtype.name != "bool" else op.inputs[0]
        attrs["T"] = AttrValue(type=data.dtype)
    for name, value in op.attrs.items():
        if name not in _INTERNAL_ATTRS:
            attrs[name] = attr_value(value)
    return attrs


def as_graph_def(graph) -> GraphDef:
    nodes = []
    for op in graph.get_operations():
        inputs = [input_name(t) for t in op.inputs] + [f"^{getattr(c, 'op', c).name}" for c in op.control_inputs]
        nodes.append(NodeDef(op.name, op.type, inputs, node_attrs(op)))
    return GraphDef(nodes)
