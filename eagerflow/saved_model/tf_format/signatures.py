"""Signatures as TensorFlow writes them: a wrapper FunctionDef per signature taking its inputs by
name (in sorted-name order, as a keyword-argument dict flattens) and the variables, calling the
traced function and returning its outputs in the order of the sorted output names; the signature
map object holding the wrappers; and the SignatureDef naming the serving graph's tensors."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.tensor import TensorSpec
from ..._src.formats.graph_export.attr_values import attr_value, shape_proto
from ..._src.formats.dtypes import datatype_number as datatype
from ..._src.formats.graph_export.function_def import FunctionBuilder
from . import structured
from .objects import user_object

PREDICT_METHOD_NAME = "tensorflow/serving/predict"


class SignatureWriter:
    def __init__(self, objects, graph):
        self.objects = objects
        self.graph = graph  # the serving GraphDef's top-level nodes (meta_graph.ServingGraph)
        self.map_node = None
        self.defs = {}

    def add(self, key, cf, input_names, output_names):
        inner = self.objects.export(cf)
        bound = self.objects.concrete[inner]["bound_inputs"]
        variables = [self.objects.variable_of(i) for i in bound]
        specs = list(cf.flat_input_signature)
        # the wrapper returns a dict, whose values a flat list holds in sorted-key order
        flat_outputs = list(cf.outputs)
        order = sorted(range(len(output_names)), key=lambda k: output_names[k])
        positions = {output_names[k]: k for k in order}  # each name's position among the call's outputs
        output_names = [output_names[k] for k in order]
        outputs = [flat_outputs[k] for k in order]
        library = self.objects.library
        b = FunctionBuilder(library, library.unique_name(f"signature_wrapper_{cf.name}"))
        order = sorted(range(len(specs)), key=lambda i: input_names[i])
        refs = {}
        for i in order:
            refs[i] = b.add_arg(input_names[i], specs[i].dtype, specs[i].shape, user_name=input_names[i])
        handles = [b.add_arg("unknown", *bound_arg(v)) for v in variables]
        tin = [specs[i].dtype for i in range(len(specs))] + [bound_arg(v)[0] for v in variables]
        call = b.add_node("StatefulPartitionedCall", "StatefulPartitionedCall",
                          [refs[i] for i in range(len(specs))] + handles,
                          {"f": attr_value("func", inner), "Tin": attr_value("list(type)", tin),
                           "Tout": attr_value("list(type)", [t.dtype for t in outputs])}, stateful=True)
        b.control.append(call)
        for name, t in zip(output_names, outputs):
            b.add_output(name, f"{call}:output:{positions[name]}", t.dtype)
        wrapper = library.add(b)
        inputs = {input_names[i]: TensorSpec(specs[i].shape, specs[i].dtype, input_names[i]) for i in order}
        self.objects.concrete[wrapper] = {
            "bound_inputs": list(bound),
            "canonicalized_input_signature": {"tuple_value": {"values": [
                {"tuple_value": {}}, structured.encode(inputs, f"signature {key!r}")]}},
            "output_signature": {"dict_value": {"fields": {
                name: structured.spec_value(t, name) for name, t in zip(output_names, outputs)}}}}
        node = self.objects.add_plain({"bare_concrete_function": {
            "concrete_function_name": wrapper, "argument_keywords": [input_names[i] for i in order],
            "allowed_positional_arguments": 0}})
        if self.map_node is None:
            self.map_node = self.objects.add_plain(user_object("signature_map"))
            self.objects.nodes[0]["children"].append({"node_id": self.map_node, "local_name": "signatures"})
        self.objects.nodes[self.map_node]["children"].append({"node_id": node, "local_name": key})
        self.defs[key] = self.graph.signature(key, wrapper, [input_names[i] for i in order],
                                              [specs[i] for i in order], variables, output_names, outputs)

    def signature_defs(self):
        defs = {key: {"inputs": inputs, "outputs": outputs, "method_name": PREDICT_METHOD_NAME}
                for key, (inputs, outputs) in self.defs.items()}
        defs["__saved_model_init_op"] = {"outputs": {"__saved_model_init_op": {
            "name": self.graph.init_op, "tensor_shape": {"unknown_rank": True}}}}
        return defs


def tensor_info(name, dtype, shape):
    return {"name": name, "dtype": datatype(dtype), "tensor_shape": shape_proto(shape)}


def bound_arg(obj):
    """(dtype, shape, handle) of the argument a bound object fills: a variable's resource handle,
    or an asset's path."""
    if hasattr(obj, "asset_path"):
        return _dt.string, obj.asset_path.shape, None
    if hasattr(obj, "shared_name"):  # a lookup table (table_resources.py): its handle carries no variable data
        return _dt.resource, None, None
    return _dt.resource, None, (obj.shape, obj.dtype)
