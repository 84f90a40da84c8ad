"""The SaverDef and its two functions, for loaders that restore variables by running the graph
(TensorFlow 1's loader, TF Serving, TFLite's converter): `restore` reads every variable's
checkpoint key from the bundle with RestoreV2 and assigns it; `save` writes them with SaveV2.
Both take the file prefix and the variables' resource handles, and return the prefix."""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.formats.graph_export.attr_values import attr_value
from ..._src.formats.graph_export.function_def import FunctionBuilder
from ..._src.formats.graph_export.rewrites import const

SAVER_V2 = 2


def _function(library, kind, variables):
    b = FunctionBuilder(library, library.unique_name(f"_traced_{kind}"))
    prefix = b.add_arg("file_prefix", _dt.string)
    handles = [b.add_arg(f"variable_{i}", _dt.resource, handle=(v.shape, v.dtype)) for i, (_, v) in
               enumerate(variables)]
    names = const(b, "tensor_names", np.array([k.encode() for k, _ in variables], object), _dt.string).ref
    slices = const(b, "shape_and_slices", np.array([b""] * len(variables), object), _dt.string).ref
    dtypes = attr_value("list(type)", [v.dtype for _, v in variables])
    if kind == "restore":
        node = b.add_node("RestoreV2", "RestoreV2", [prefix, names, slices], {"dtypes": dtypes}, stateful=True)
        done = [b.add_node(f"Assign_{i}", "AssignVariableOp", [h, f"{node}:tensors:{i}"],
                           {"dtype": attr_value("type", v.dtype)}, stateful=True)
                for i, (h, (_, v)) in enumerate(zip(handles, variables))]
    else:
        reads = [b.add_node(f"Read_{i}", "ReadVariableOp", [h], {"dtype": attr_value("type", v.dtype)},
                            stateful=True) for i, (h, (_, v)) in enumerate(zip(handles, variables))]
        done = [b.add_node("SaveV2", "SaveV2", [prefix, names, slices] + [f"{r}:value:0" for r in reads],
                           {"dtypes": dtypes}, stateful=True)]
    out = b.add_node("Identity", "Identity", [prefix] + [f"^{d}" for d in done],
                     {"T": attr_value("type", _dt.string)})
    b.control.extend(done)
    b.add_output("identity", f"{out}:output:0", _dt.string)
    return library.add(b)


def add_saver(graph, library, variables):
    """Adds the saver's nodes to the serving graph; returns the SaverDef data. `variables`:
    [(checkpoint key, Variable)]."""
    save, restore = _function(library, "save", variables), _function(library, "restore", variables)
    filename = graph.add("saver_filename", "Placeholder", [], {"dtype": attr_value("type", _dt.string),
                                                               "shape": attr_value("shape", [])})
    handles = [graph.handle(v) for _, v in variables]
    calls = []
    for function in (save, restore):
        calls.append(graph.add("StatefulPartitionedCall", "StatefulPartitionedCall", [filename] + handles, {
            "f": attr_value("func", function),
            "Tin": attr_value("list(type)", [_dt.string] + [_dt.resource] * len(handles)),
            "Tout": attr_value("list(type)", [_dt.string])}))
    return {"filename_tensor_name": f"{filename}:0", "save_tensor_name": f"{calls[0]}:0",
            "restore_op_name": calls[1], "version": SAVER_V2}
