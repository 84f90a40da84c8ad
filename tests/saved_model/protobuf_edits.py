"""Helpers for the tests that damage a saved model on purpose: edits of saved_model.pb (the
MetaGraphDef and its function library), and eagerflow's own format, which directories written
before SavedModels were TensorFlow's layout still hold (the loader keeps reading them, so its
refusals stay tested on files written by that format's writer)."""
import os

from eagerflow._src.formats.protos import saved_model_pb2


def rewrite(directory, change):
    """Applies `change(meta_graph)` to `directory`'s saved_model.pb."""
    path = os.path.join(str(directory), "saved_model.pb")
    with open(path, "rb") as f:
        message = saved_model_pb2.SavedModel.FromString(f.read())
    change(message.meta_graphs[0])
    with open(path, "wb") as f:
        f.write(message.SerializeToString())


def functions(meta):
    return list(meta.graph_def.library.function)


def first_node(meta, op_type):
    """The first node of type `op_type` in any FunctionDef of the library."""
    return next(n for f in functions(meta) for n in f.node_def if n.op == op_type)


def function_with(meta, op_type):
    return next(f for f in functions(meta) if any(n.op == op_type for n in f.node_def))


def legacy_save(obj, directory, signatures=None):
    """`obj` written in eagerflow's own document format (saved_model.json + tensors/), as old
    directories hold it."""
    import importlib
    saving = importlib.import_module("eagerflow.saved_model.save")  # the module, not tf.saved_model.save
    chosen = saving._signature_functions(signatures) if signatures is not None else saving._default_signatures(obj)
    os.makedirs(str(directory), exist_ok=True)
    from eagerflow.saved_model.legacy_writer import write_legacy_document
    write_legacy_document(str(directory), obj, chosen)
