"""The MetaGraphDef's top-level graph, for loaders that run a SavedModel as one graph (TF Serving,
`saved_model_cli run`, TensorFlow 1's loader): a VarHandleOp per variable, and per signature a
Placeholder per input and a StatefulPartitionedCall of its wrapper function, whose outputs the
SignatureDef names; `NoOp` is the init op, the one op those loaders run after restoring the
variables (named both by the `__saved_model_init_op` SignatureDef and by the `saved_model_main_op`
collection, as TensorFlow 2.21 writes it).

An asset is laid out as TensorFlow lays it out, because those loaders feed each asset's absolute path
(assets/NAME inside the model's directory) only while they run the init op: a string Placeholder
(`asset_path_initializer`, which the AssetFileDef names), a string variable the init op assigns
from it, and a read of that variable feeding the signatures' calls."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.formats.graph_export.attr_values import attr_value
from .signatures import tensor_info

GRAPH_PRODUCER = 2474  # the GraphDef version whose op semantics the nodes follow (TensorFlow 2.21's)
MIN_CONSUMER = 12


class ServingGraph:
    def __init__(self):
        self.nodes = []
        self._names = set()
        self._handles = {}  # id(Variable) -> (Variable, node name)
        self._asset_feeds = {}  # id(Asset) -> (Asset, its asset_path_initializer Placeholder's name)
        self._asset_holders = {}  # id(Asset) -> (its string VarHandleOp's name, the init op's Assign of it)
        self.init_op = self.add("NoOp", "NoOp", [], {})

    def run_at_init(self, node):
        """Makes the init op wait for `node`: loaders run it once, after restoring the variables."""
        self.nodes[0]["input"].append(f"^{node}")

    def add(self, base, op, inputs, attrs):
        name, k = base, 0
        while name in self._names:
            k += 1
            name = f"{base}_{k}"
        self._names.add(name)
        self.nodes.append({"name": name, "op": op, "input": list(inputs), "attr": attrs})
        return name

    def handle(self, var):
        """The node feeding a bound object: a variable's VarHandleOp, a lookup table's HashTableV2 or
        MutableHashTableV2, the read of an asset's path."""
        known = self._handles.get(id(var))
        if known is None and hasattr(var, "serving_node"):  # a mutable table's MutableHashTableV2 (mutable_tables.py)
            known = self._handles[id(var)] = (var, var.serving_node(self))
        if known is None and hasattr(var, "shared_name"):  # a lookup table's HashTableV2 (table_resources.py)
            from .table_resources import table_handle_node
            known = self._handles[id(var)] = (var, table_handle_node(self, var))
        if known is None and hasattr(var, "asset_path"):
            known = self._handles[id(var)] = (var, self._asset(var))
        if known is None:
            base = var.name[:-2] if var.name.endswith(":0") else var.name
            name = self.add(base, "VarHandleOp", [], {
                "dtype": attr_value("type", var.dtype), "shape": attr_value("shape", var.shape),
                "shared_name": attr_value("string", base), "container": attr_value("string", "")})
            self.nodes[-1]["attr"]["shared_name"] = attr_value("string", name)
            known = self._handles[id(var)] = (var, name)
        return known[1]

    def asset_feed(self, asset):
        """The Placeholder an AssetFileDef names: loaders feed it the asset's path at init time."""
        self.handle(asset)
        return self._asset_feeds[id(asset)][1]

    def asset_path_at_init(self, asset):
        """A read of an asset's path for work the init op runs (a text-file table's `_initialize`): ordered
        after the init op's assignment of the fed path, which the signatures' shared read is not."""
        self.handle(asset)
        holder, assign = self._asset_holders[id(asset)]
        return self.add(f"{holder}/Read_for_table", "ReadVariableOp", [holder, f"^{assign}"],
                        {"dtype": attr_value("type", _dt.string)})

    def _asset(self, asset):
        string, scalar = attr_value("type", _dt.string), attr_value("shape", [])
        feed = self.add("asset_path_initializer", "Placeholder", [], {"dtype": string, "shape": scalar})
        self._asset_feeds[id(asset)] = (asset, feed)
        holder = self.add("Variable", "VarHandleOp", [], {"dtype": string, "shape": scalar,
                                                          "container": attr_value("string", "")})
        self.nodes[-1]["attr"]["shared_name"] = attr_value("string", holder)
        assign = self.add(f"{holder}/Assign", "AssignVariableOp", [holder, feed], {"dtype": string})
        self.run_at_init(assign)
        self._asset_holders[id(asset)] = (holder, assign)
        return self.add(f"{holder}/Read/ReadVariableOp", "ReadVariableOp", [holder], {"dtype": string})

    def signature(self, key, wrapper, input_names, specs, variables, output_names, outputs):
        """Adds the serving nodes of one signature; returns its SignatureDef's (inputs, outputs)."""
        inputs = {}
        placeholders = []
        for name, spec in zip(input_names, specs):
            node = self.add(f"{key}_{name}", "Placeholder", [], {"dtype": attr_value("type", spec.dtype),
                                                                 "shape": attr_value("shape", spec.shape)})
            placeholders.append(node)
            inputs[name] = tensor_info(f"{node}:0", spec.dtype, spec.shape)
        handles = [self.handle(v) for v in variables]
        tin = [s.dtype for s in specs] + [_dt.string if hasattr(v, "asset_path") else _dt.resource
                                          for v in variables]
        call = self.add("StatefulPartitionedCall", "StatefulPartitionedCall", placeholders + handles, {
            "f": attr_value("func", wrapper), "Tin": attr_value("list(type)", tin),
            "Tout": attr_value("list(type)", [t.dtype for t in outputs])})
        result = {name: tensor_info(f"{call}:{k}", t.dtype, t.shape)
                  for k, (name, t) in enumerate(zip(output_names, outputs))}
        return inputs, result

    def graph_def(self, library):
        return {"node": self.nodes, "library": {"function": library.functions},
                "versions": {"producer": GRAPH_PRODUCER, "min_consumer": MIN_CONSUMER}}

