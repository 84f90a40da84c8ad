"""The whole SavedModel as plain data: the SavedModel message (one MetaGraphDef tagged `serve`)
and the variables' tensor bundle entries, checkpoint object graph included."""
from __future__ import annotations

import os

import numpy as np

from ..._src.formats.graph_export.function_export import FunctionLibrary
from .custom_gradients import add_custom_gradients
from .objects import ObjectGraph
from .saver import add_saver
from .serving_graph import ServingGraph
from .signatures import SignatureWriter

SERVING_TAG = "serve"
MAIN_OP_COLLECTION = "saved_model_main_op"  # names the init op for loaders that predate its SignatureDef
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


class BuiltModel:
    """`saved_model`: SavedModel data; `variables`: {checkpoint key: array}; `object_graph`:
    TrackableObjectGraph data (stored under OBJECT_GRAPH_KEY once serialized)."""

    def __init__(self, saved_model, variables, object_graph, asset_files=()):
        self.saved_model, self.variables, self.object_graph = saved_model, variables, object_graph
        self.asset_files = list(asset_files)  # the files copied into assets/


def build(obj, signature_functions, default_save_functions=None):
    """`signature_functions`: {key: ConcreteFunction} (save.py chose and checked them);
    `default_save_functions`: the Keras models' _default_save_signature functions
    (saved_model/default_save_signature.py), shared with the choice of serving_default."""
    from ..save import _signature_output_names, signature_input_names
    library = FunctionLibrary()
    objects = ObjectGraph(library)
    objects.default_save_functions = default_save_functions
    objects.root(obj)
    objects.write_functions()
    graph = ServingGraph()
    signatures = SignatureWriter(objects, graph)
    for key, cf in signature_functions.items():
        signatures.add(key, cf, signature_input_names(cf), _signature_output_names(cf, key))
    for _, var, _ in objects.variables:
        graph.handle(var)
    objects.tables.add_serving_nodes(graph)
    tables = objects.mutable_tables.tables
    saver = add_saver(graph, library, [(key, var) for key, var, _ in objects.variables], tables) \
        if objects.variables or tables else None
    graph_def = graph.graph_def(library)
    registered = add_custom_gradients(objects, library)
    if registered:
        graph_def["library"]["registered_gradients"] = registered
    meta_graph = {
        "meta_info_def": {"tags": [SERVING_TAG], "stripped_default_attrs": True},
        "graph_def": graph_def,
        "signature_def": signatures.signature_defs(),
        "collection_def": {MAIN_OP_COLLECTION: {"node_list": {"value": [graph.init_op]}}},
        "object_graph_def": {"nodes": objects.nodes, "concrete_functions": objects.concrete},
    }
    if saver is not None:  # a model without variables has nothing to restore
        meta_graph["saver_def"] = saver
    if objects.assets:
        meta_graph["asset_file_def"] = [{"tensor_info": {"name": f"{graph.asset_feed(a)}:0"},
                                         "filename": os.path.basename(a._path())} for a in objects.assets]
    variables = {key: np.asarray(var._array) for key, var, _ in objects.variables}
    variables.update(objects.mutable_tables.bundle_entries())
    return BuiltModel({"saved_model_schema_version": 1, "meta_graphs": [meta_graph]}, variables,
                      objects.checkpoint_graph(), [a._path() for a in objects.assets])
