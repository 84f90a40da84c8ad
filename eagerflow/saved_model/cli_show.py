"""`eagerflow saved-model show`: what saved_model.pb describes, read with TensorFlow's protobuf messages
and printed in `saved_model_cli show`'s layout, for any SavedModel (TensorFlow's or eagerflow's).

Nothing is loaded or run: tag-sets, SignatureDefs (with TensorFlow's `__saved_model_init_op`), the
ops the MetaGraph uses and the saved functions' traced input signatures all come from the message,
so a model whose ops eagerflow cannot run is still shown. The op list follows the graph's nodes and
the library functions they call (by op name or a call op's `f`), as TensorFlow's tool counts them;
it is printed sorted, where TensorFlow prints an unordered Python set.
"""
from __future__ import annotations

import os

MAX_FILE = 1 << 31
SAVED_MODEL_PB = "saved_model.pb"
_CALL_OPS = ("PartitionedCall", "StatefulPartitionedCall")
# saved_model_cli ends a listed list or dict with ", " and two backspaces before its bracket (so a
# terminal shows `[a, b]`); printed the same way, the text matches TensorFlow's byte for byte.
_ERASE_SEPARATOR = "\b\b"


class ShowError(Exception):
    """A user-facing failure (missing directory, unknown tag-set or signature): one line."""


def read_saved_model(directory):
    """The SavedModel message of `directory`/saved_model.pb."""
    from .._src.core.errors import DataLossError
    from .._src.formats.protos import saved_model_pb2
    from .files import read_regular_file
    path = os.path.join(directory, SAVED_MODEL_PB)
    if not os.path.isfile(path):
        if os.path.isfile(os.path.join(directory, "saved_model.json")):
            raise ShowError(f"{directory} holds only saved_model.json, the format of earlier eagerflow releases: "
                            "load it with tf.saved_model.load and save it again to write saved_model.pb")
        raise ShowError(f"SavedModel file does not exist at: {directory}")
    try:
        raw = read_regular_file(path, MAX_FILE, "SavedModel", inside=directory)
        return saved_model_pb2.SavedModel.FromString(raw)
    except DataLossError as err:
        raise ShowError(f"the SavedModel is corrupted: {err.message}") from None
    except Exception as err:  # protobuf's DecodeError
        raise ShowError(f"the SavedModel is corrupted: {path}: not a SavedModel message "
                        f"({type(err).__name__})") from None


def tags_of(meta_graph):
    return list(meta_graph.meta_info_def.tags)


def meta_graph_for(saved_model, tag_set: str):
    """The MetaGraphDef whose tags are exactly the comma-separated `tag_set`."""
    wanted = sorted({t.strip() for t in tag_set.split(",") if t.strip()})
    if not wanted:
        raise ShowError("tag_set must contain at least one non-empty item.")
    for meta_graph in saved_model.meta_graphs:
        if sorted(set(tags_of(meta_graph))) == wanted:
            return meta_graph
    available = [",".join(tags_of(m)) for m in saved_model.meta_graphs]
    raise ShowError(f"MetaGraphDef associated with tag-set {','.join(wanted)} could not be found in the "
                    f"SavedModel. Please use one of the following tag-sets: {available}")


def signature_def(meta_graph, key):
    if key not in meta_graph.signature_def:
        raise ShowError(f'Could not find signature "{key}". Please choose from: '
                        f'{", ".join(sorted(meta_graph.signature_def))}')
    return meta_graph.signature_def[key]


# --- the printed sections ---
def print_tag_sets(saved_model):
    print("The given SavedModel contains the following tag-sets:")
    for tags in sorted(", ".join(sorted(tags_of(m))) for m in saved_model.meta_graphs):
        print(repr(tags))


def print_signature_keys(meta_graph):
    print("The given SavedModel MetaGraphDef contains SignatureDefs with the following keys:")
    for key in sorted(meta_graph.signature_def):
        print(f'SignatureDef key: "{key}"')


def print_signature(meta_graph, key, indent=""):
    signature = signature_def(meta_graph, key)
    print(f"{indent}The given SavedModel SignatureDef contains the following input(s):")
    for name, info in sorted(signature.inputs.items()):
        _print_tensor_info(f"inputs['{name}']", info, indent)
    print(f"{indent}The given SavedModel SignatureDef contains the following output(s):")
    for name, info in sorted(signature.outputs.items()):
        _print_tensor_info(f"outputs['{name}']", info, indent)
    print(f"{indent}Method name is: {signature.method_name}")


def _print_tensor_info(label, info, indent):
    print(f"{indent}  {label} tensor_info:")
    print(f"{indent}      dtype: {dtype_name(info.dtype)}")
    print(f"{indent}      shape: {shape_text(info.tensor_shape)}")
    print(f"{indent}      name: {info.name}")


def dtype_name(number):
    """TensorFlow's DataType enum name (1 -> DT_FLOAT)."""
    from .._src.formats.protos import types_pb2
    try:
        return types_pb2.DataType.Name(number)
    except ValueError:
        return str(number)


def shape_text(shape_proto):
    if shape_proto.unknown_rank:
        return "unknown_rank"
    return "(" + ", ".join(str(d.size) for d in shape_proto.dim) + ")"


def ops_used(meta_graph):
    """The op types the graph's nodes use, following the library functions they call."""
    library = {f.signature.name: f for f in meta_graph.graph_def.library.function}
    used, pending = set(), []

    def use(name):
        if name not in used and name in library:
            pending.append(library[name])
        used.add(name)

    def visit(node):
        use(node.op)
        if node.op in _CALL_OPS:
            use(node.attr["f"].func.name)

    for node in meta_graph.graph_def.node:
        visit(node)
    while pending:
        for node in pending.pop().node_def:
            visit(node)
    return sorted(used - set(library))


def print_ops(meta_graph):
    ops = ops_used(meta_graph)
    listed = "{" + ", ".join(repr(op) for op in ops) + "}" if ops else "set()"
    print(f"The MetaGraph with tag set {tags_of(meta_graph)} contains the following ops: {listed}")


def print_all(saved_model, directory):
    for meta_graph in sorted(saved_model.meta_graphs, key=tags_of):
        print(f"\nMetaGraphDef with tag-set: '{', '.join(tags_of(meta_graph))}' contains the following "
              "SignatureDefs:")
        for key in sorted(meta_graph.signature_def):
            print(f"\nsignature_def['{key}']:")
            print_signature(meta_graph, key, indent="  ")
        print_ops(meta_graph)
    graphs = [m for m in saved_model.meta_graphs if m.HasField("object_graph_def")]
    if graphs:
        print("\nConcrete Functions:", end="")
        _print_functions(graphs[0].object_graph_def, os.path.join(directory, SAVED_MODEL_PB))


def _print_functions(object_graph, path):
    """Each tf.function (or bare ConcreteFunction) on the root object, by name, with the Python call of
    each of its traces: a tensor as its TensorSpec, any other argument as its type and value."""
    from .tf_format.structured_read import decode
    if not object_graph.nodes:
        return
    namedtuples = {}
    for child in sorted(object_graph.nodes[0].children, key=lambda c: c.local_name):
        node = object_graph.nodes[child.node_id] if child.node_id < len(object_graph.nodes) else None
        kind = node.WhichOneof("kind") if node is not None else None
        if kind == "function":
            names = sorted(node.function.concrete_functions)
        elif kind == "bare_concrete_function":
            names = [node.bare_concrete_function.concrete_function_name]
        else:
            continue
        print(f"\n  Function Name: '{child.local_name}'")
        for index, name in enumerate(names, 1):
            saved = object_graph.concrete_functions.get(name)
            if saved is None:
                continue
            signature = decode(saved.canonicalized_input_signature, path, f"function {name}", namedtuples)
            args, kwargs = signature if isinstance(signature, tuple) and len(signature) == 2 else ((), {})
            if not args and kind == "bare_concrete_function":
                args = list(node.bare_concrete_function.argument_keywords)
            if args:
                print(f"    Option #{index}\n      Callable with:")
                _print_arguments(args, "Argument")
            if kwargs:
                _print_arguments(list(kwargs.values()) if isinstance(kwargs, dict) else kwargs, "Named Argument")


def _print_arguments(values, label):
    from .._src.core.tensor import TensorSpec
    for index, value in enumerate(values, 1):
        print(f"        {label} #{index}")
        if isinstance(value, str):
            print(f"          {value}")
        elif isinstance(value, TensorSpec):
            print(f"          {value.name}: {value!r}")
        elif isinstance(value, dict):
            items = "".join(f"'{k}': {_quoted(v)}, " for k, v in value.items())
            print(f"          DType: dict\n          Value: {{{items}{_ERASE_SEPARATOR}}}")
        elif isinstance(value, list | tuple):
            items = "".join(f"{_quoted(v)}, " for v in value)
            print(f"          DType: {type(value).__name__}\n          Value: [{items}{_ERASE_SEPARATOR}]")
        else:
            print(f"          DType: {type(value).__name__}\n          Value: {value}")


def _quoted(value):
    return f"'{value}'" if isinstance(value, str) else str(value)
