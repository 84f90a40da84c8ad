"""The SaverDef and its two functions, for loaders that restore variables by running the graph
(TensorFlow 1's loader, TF Serving, TFLite's converter): `restore` reads every variable's
checkpoint key from the bundle with RestoreV2 and assigns it; `save` writes them with SaveV2.
Both take the file prefix and the variables' resource handles, then the mutable tables' handles
(mutable_tables.py: a table's entries are stored as `<key>-keys` and `<key>-values`, written from its
LookupTableExportV2 and put back with LookupTableImportV2), and return the prefix."""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.formats.graph_export.attr_values import attr_value
from ..._src.formats.graph_export.function_def import FunctionBuilder
from ..._src.formats.graph_export.rewrites import const
from .mutable_tables import SUFFIXES

SAVER_V2 = 2


def _function(library, kind, variables, tables):
    b = FunctionBuilder(library, library.unique_name(f"_traced_{kind}"))
    prefix = b.add_arg("file_prefix", _dt.string)
    handles = [b.add_arg(f"variable_{i}", _dt.resource, handle=(v.shape, v.dtype)) for i, (_, v) in
               enumerate(variables)]
    table_handles = [b.add_arg(f"table_{i}", _dt.resource) for i in range(len(tables))]
    keys = [k for k, _ in variables] + [t.checkpoint_key + suffix for t in tables for suffix in SUFFIXES]
    dtypes = [v.dtype for _, v in variables] + [d for t in tables for d in (t.key_dtype, t.value_dtype)]
    names = const(b, "tensor_names", np.array([k.encode() for k in keys], object), _dt.string).ref
    slices = const(b, "shape_and_slices", np.array([b""] * len(keys), object), _dt.string).ref
    dtypes_attr = attr_value("list(type)", dtypes)
    if kind == "restore":
        node = b.add_node("RestoreV2", "RestoreV2", [prefix, names, slices], {"dtypes": dtypes_attr}, stateful=True)
        done = [b.add_node(f"Assign_{i}", "AssignVariableOp", [h, f"{node}:tensors:{i}"],
                           {"dtype": attr_value("type", v.dtype)}, stateful=True)
                for i, (h, (_, v)) in enumerate(zip(handles, variables))]
        for j, (h, t) in enumerate(zip(table_handles, tables)):
            first = len(variables) + 2 * j
            done.append(b.add_node(f"Import_{j}", "LookupTableImportV2",
                                   [h, f"{node}:tensors:{first}", f"{node}:tensors:{first + 1}"],
                                   {"Tin": attr_value("type", t.key_dtype), "Tout": attr_value("type", t.value_dtype)},
                                   stateful=True))
    else:
        reads = [f"{r}:value:0" for r in (
            b.add_node(f"Read_{i}", "ReadVariableOp", [h], {"dtype": attr_value("type", v.dtype)}, stateful=True)
            for i, (h, (_, v)) in enumerate(zip(handles, variables)))]
        for j, (h, t) in enumerate(zip(table_handles, tables)):
            export = b.add_node(f"Export_{j}", "LookupTableExportV2", [h], {
                "Tkeys": attr_value("type", t.key_dtype), "Tvalues": attr_value("type", t.value_dtype)}, stateful=True)
            reads += [f"{export}:keys:0", f"{export}:values:0"]
        done = [b.add_node("SaveV2", "SaveV2", [prefix, names, slices] + reads, {"dtypes": dtypes_attr},
                           stateful=True)]
    out = b.add_node("Identity", "Identity", [prefix] + [f"^{d}" for d in done],
                     {"T": attr_value("type", _dt.string)})
    b.control.extend(done)
    b.add_output("identity", f"{out}:output:0", _dt.string)
    return library.add(b)


def add_saver(graph, library, variables, tables=()):
    """Adds the saver's nodes to the serving graph; returns the SaverDef data. `variables`:
    [(checkpoint key, Variable)]; `tables`: [SavedMutableTable]."""
    save, restore = _function(library, "save", variables, tables), _function(library, "restore", variables, tables)
    filename = graph.add("saver_filename", "Placeholder", [], {"dtype": attr_value("type", _dt.string),
                                                               "shape": attr_value("shape", [])})
    handles = [graph.handle(v) for _, v in variables] + [graph.handle(t) for t in tables]
    calls = []
    for function in (save, restore):
        calls.append(graph.add("StatefulPartitionedCall", "StatefulPartitionedCall", [filename] + handles, {
            "f": attr_value("func", function),
            "Tin": attr_value("list(type)", [_dt.string] + [_dt.resource] * len(handles)),
            "Tout": attr_value("list(type)", [_dt.string])}))
    return {"filename_tensor_name": f"{filename}:0", "save_tensor_name": f"{calls[0]}:0",
            "restore_op_name": calls[1], "version": SAVER_V2}
