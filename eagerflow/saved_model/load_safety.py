"""What a loaded SavedModel's functions may do when they run: nothing outside the process by default.

Why a pass over the document before anything is built: building a graph compiles its sub-graphs,
and compiling must never be the moment a file is touched; and the caller is owed one error listing
every refused op, not the first one met. The rule comes from the op registry, not from a list of
names here: an op whose OpDef `effects` (ops/registry.py) name "files" is refused unless the load
options allow file access (load_options.py), one that names "python" always (a SavedModel holds no
Python to run). GraphReader checks every op it builds against the same rule again, so an op this
pass did not see cannot slip through. (A PrintV2 to a file is left to the reader: the writer never
saves one, so it is refused as damaged whatever the options.)
"""
from __future__ import annotations

from .._src.core.errors import PermissionDeniedError
from .._src.ops.registry import OPS, effects_of

_OP_KEYS = frozenset({"name", "type", "inputs", "attrs", "outputs", "control"})
_WHAT = {"files": "reads or writes files", "python": "runs Python code"}
_MAX_SCAN_DEPTH = 64  # deeper than any graph the reader accepts (it refuses those with a DataLossError)


STREAMS = frozenset({"stdout", "stderr"})  # where a loaded PrintV2 may print


def printing_to_a_file(op_type, attrs):
    """A PrintV2 to a file:// stream: the writer never saves one, so a file holding one was edited
    and is refused as damaged (a DataLossError from the reader), whatever the load options."""
    return op_type == "PrintV2" and attrs.get("output_stream") not in STREAMS


def refused_effects(opdef, attrs, allowed) -> frozenset:
    """The effects of this op that the load may not allow ("python" is never allowed)."""
    effects = effects_of(opdef, attrs)
    return effects - (allowed - {"python"}) if effects else effects


def find_refused_ops(document, allowed):
    """[(function name, graph path, node name, op type, refused effects)] for every op in every
    function graph of the document, sub-graphs included. Malformed entries are skipped: the reader
    reports them as DataLossErrors."""
    found = []
    functions = document.get("functions") if isinstance(document, dict) else None
    for i, function in enumerate(functions if isinstance(functions, list) else []):
        if not isinstance(function, dict) or not isinstance(function.get("graph"), dict):
            continue
        name = function.get("name") if isinstance(function.get("name"), str) else f"function {i}"
        stack = [(function["graph"], (), 0)]
        while stack:
            graph, path, depth = stack.pop()
            if depth > _MAX_SCAN_DEPTH:
                continue
            path = path + (str(graph.get("name"))[:80],)
            ops = graph.get("ops")
            for op in ops if isinstance(ops, list) else []:
                if not isinstance(op, dict) or set(op) != _OP_KEYS:
                    continue
                raw = op["attrs"] if isinstance(op["attrs"], list) else []
                pairs = [p for p in raw if isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)]
                opdef = OPS.get(op["type"]) if isinstance(op["type"], str) else None
                if opdef is not None and not printing_to_a_file(op["type"], dict(pairs)):
                    scalars = {k: v for k, v in pairs if v is None or isinstance(v, (str, bool, int, float))}
                    refused = refused_effects(opdef, scalars, allowed)
                    if refused:
                        found.append((name, path, str(op["name"])[:256], op["type"], refused))
                for sub in _sub_graphs([v for _, v in pairs]):
                    stack.append((sub, path, depth + 1))
    return found


def _sub_graphs(values):
    """The graph documents inside encoded attribute values ({"graph": {...}} anywhere in them)."""
    stack, graphs = [(v, 0) for v in values], []
    while stack:
        value, depth = stack.pop()
        if depth > _MAX_SCAN_DEPTH:
            continue
        if isinstance(value, dict):
            if set(value) == {"graph"} and isinstance(value["graph"], dict):
                graphs.append(value["graph"])
            else:
                stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return graphs


def refusal(path, found) -> PermissionDeniedError:
    """One error naming every refused op, its node and function, and the opt-in."""
    lines = [f"{path}: this SavedModel's functions contain ops that reach outside the process when they run, "
             f"which a loaded model may not do by default:"]
    for function, graph_path, node, op_type, effects in found:
        inside = "" if len(graph_path) < 2 else f" (in sub-graph {' > '.join(repr(g) for g in graph_path[1:])})"
        lines.append(f"  - node {node!r} (op {op_type}) of function {function!r}{inside}: "
                     f"{' and '.join(_WHAT.get(e, e) for e in sorted(effects))}")
    if all("python" not in effects for *_, effects in found):
        lines.append("If you trust these files, load them with tf.saved_model.load(export_dir, "
                     "options=tf.saved_model.LoadOptions(eagerflow_allow_file_access=True)) (an eagerflow option: "
                     "each call of the loaded functions may then read or write any file this process can).")
    else:
        lines.append("Ops that run Python code are never loaded: a SavedModel holds no Python code to run.")
    return PermissionDeniedError(None, None, "\n".join(lines))


def find_refused_nodes(meta_graph, allowed):
    """find_refused_ops for TensorFlow's layout: every node of the functions the object graph's
    concrete functions name, and of the functions their nodes name (branches, loop bodies, calls),
    as (function, path of functions, node name, op type, refused effects)."""
    library = {f.signature.name: f for f in meta_graph.graph_def.library.function}
    found, seen = [], set()  # each function once: a signature's wrapper calls a function listed already
    roots = sorted(meta_graph.object_graph_def.concrete_functions, key=lambda n: ("signature_wrapper" in n, n))
    for root in roots:
        shown = root[len("__inference_"):] if root.startswith("__inference_") else root
        stack = [(root, (root,))]
        while stack:
            name, path = stack.pop()
            fdef = library.get(name)
            if fdef is None or name in seen or len(path) > _MAX_SCAN_DEPTH:
                continue
            seen.add(name)
            for node in fdef.node_def:
                opdef = OPS.get(node.op)
                attrs = {k: _scalar(v) for k, v in node.attr.items()}
                if opdef is not None and not printing_to_a_file(node.op, attrs):
                    refused = refused_effects(opdef, attrs, allowed)
                    if refused:
                        found.append((shown, path, node.name[:256], node.op, refused))
                for value in node.attr.values():
                    kind = value.WhichOneof("value")
                    if kind == "func":
                        stack.append((value.func.name, path + (value.func.name,)))
                    elif kind == "list":
                        stack.extend((f.name, path + (f.name,)) for f in value.list.func)
    return found


def _scalar(value):
    """An attribute value as the registry's effect rules read it (strings, numbers, bools)."""
    kind = value.WhichOneof("value")
    if kind == "s":
        return value.s.decode("utf-8", "replace")
    return getattr(value, kind) if kind in ("i", "f", "b") else None
