"""One FunctionDef being written: unique node and argument names, the reference string of every
tensor already written (`arg` for an argument, `node:out_arg:index` for a node's output, as
TensorFlow's function bodies name them), and the nodes."""
from __future__ import annotations

import re

from .attr_values import ExportError, shape_proto
from ..dtypes import datatype_number as datatype

_ARG_NAME = re.compile(r"[^a-z0-9_]")
_NODE_NAME = re.compile(r"[^A-Za-z0-9_./-]")


class Value:
    """A tensor that exists only in the exported function (a node an eagerflow op is rewritten
    into): its dtype, and its reference once written."""
    __slots__ = ("dtype", "ref")

    def __init__(self, dtype, ref=None):
        self.dtype, self.ref = dtype, ref


class FunctionBuilder:
    """Collects one function's arguments, nodes and returns. `library` gives function names
    unique in the whole GraphDef and keeps every FunctionDef written (FunctionLibrary)."""

    def __init__(self, library, name):
        self.library = library
        self.name = name
        self.input_args, self.arg_attrs = [], {}
        self.output_args, self.ret = [], {}
        self.nodes = []
        self.table_handles = {}  # VocabularyLookup op -> the table handle argument it reads (table_export.py)
        self.table_refs = {}  # id(table) -> its handle's reference here (an argument), for nested lookups
        self.control = []  # stateful nodes nothing else depends on: TensorFlow prunes them unless named
        self.stateful = False
        self._refs = {}  # (graph op, output index) -> reference; the graph outlives the builder
        self._used = set()
        self._consumed = set()

    # --- names ---
    def unique(self, base, argument=False):
        """A name not used yet in this function; an argument's name in TensorFlow's lower-case form."""
        base = _ARG_NAME.sub("_", base.lower()) if argument else _NODE_NAME.sub("_", base)
        if argument and not base[:1].isalpha():
            base = "arg_" + base
        base = base or "node"
        name, k = base, 0
        while name in self._used:
            k += 1
            name = f"{base}_{k}"
        self._used.add(name)
        return name

    # --- tensors ---
    def ref(self, tensor) -> str:
        if isinstance(tensor, Value):
            return tensor.ref
        key = (tensor._op, tensor.value_index)
        if key not in self._refs:
            raise ExportError(f"tensor {tensor.name} is used before it is written (it comes from another graph)")
        found = self._refs[key]
        if found is None:
            raise ExportError(f"tensor {tensor.name} is the history a control-flow op keeps for a gradient, which "
                              f"TensorFlow's ops do not have")
        self._consumed.add(key)
        return found

    def set_ref(self, tensor, ref):
        if isinstance(tensor, Value):
            tensor.ref = ref
            return
        self._refs[(tensor._op, tensor.value_index)] = ref

    def is_consumed(self, tensor):
        return (tensor._op, tensor.value_index) in self._consumed

    # --- contents ---
    def add_arg(self, base, dtype, shape=None, handle=None, user_name=None):
        """An input argument; returns its reference (its name). `handle` = (shape, dtype) of the
        variable a resource argument points to."""
        name = self.unique(base, argument=True)
        arg = {"name": name, "type": datatype(dtype)}
        if handle is not None:
            arg["handle_data"] = [{"dtype": datatype(handle[1]), "shape": shape_proto(handle[0])}]
        self.input_args.append(arg)
        attrs = {"_user_specified_name": {"s": (user_name or name).encode()}}
        if shape is not None:
            attrs["_output_shapes"] = {"list": {"shape": [shape_proto(shape)]}}
        self.arg_attrs[len(self.input_args) - 1] = {"attr": attrs}
        return name

    def add_node(self, base, op_type, inputs, attrs, stateful=False, device=None):
        name = self.unique(base)
        node = {"name": name, "op": op_type, "input": list(inputs), "attr": attrs}
        if device:
            node["device"] = device
        self.nodes.append(node)
        self.stateful = self.stateful or stateful
        return name

    def add_output(self, base, ref, dtype):
        name = self.unique(base, argument=True)
        self.output_args.append({"name": name, "type": datatype(dtype)})
        self.ret[name] = ref

    def function_def(self) -> dict:
        signature = {"name": self.name, "input_arg": self.input_args, "output_arg": self.output_args,
                     "is_stateful": self.stateful, "control_output": list(self.control)}
        return {"signature": signature, "node_def": self.nodes, "ret": dict(self.ret),
                "control_ret": {n: n for n in self.control}, "arg_attr": dict(self.arg_attrs),
                "attr": {"_construction_context": {"s": b"kEagerRuntime"}}}
