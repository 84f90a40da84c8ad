"""Which TensorFlow op types a TensorFlow-written SavedModel may use, and the check, before anything
is built, that every function a load will import uses only those: one error then names every
unsupported op type with the nodes and functions holding it, instead of the first one met halfway.

The list comes from the op registry: an eagerflow op whose name and interface are TensorFlow's
(tf_op_signatures.py), less the ones never loaded from a file, plus what the importer rewrites
itself (calls inlined, control flow, IdentityN, lookups on imported tables). tools/gen_tf_op_list.py
writes it into the documentation."""
from __future__ import annotations

from ..._src.formats.graph_export.tf_op_signatures import SIGNATURES
from ..._src.ops.registry import OPS
from .import_tables import TABLE_OPS

NOT_FROM_FILES = frozenset({"Placeholder", "PyFunc", "PyFuncStateless", "EagerPyFunc"})
CALLS = frozenset({"PartitionedCall", "StatefulPartitionedCall"})
IFS = frozenset({"If", "StatelessIf"})
WHILES = frozenset({"While", "StatelessWhile"})
CASES = frozenset({"Case", "StatelessCase"})
PASSED_THROUGH = frozenset({"IdentityN"})  # each output is its input
SKIPPED = frozenset({"NoOp"})
IMPORTER_OPS = CALLS | IFS | WHILES | CASES | PASSED_THROUGH | SKIPPED | TABLE_OPS


def supported_op_types():
    """Sorted names of the TensorFlow op types eagerflow runs from a SavedModel TensorFlow wrote."""
    from ..graph_io import register_every_op
    register_every_op()
    own = {name for name in OPS if name in SIGNATURES and name not in NOT_FROM_FILES}
    return sorted(own | IMPORTER_OPS)


_SUPPORTED = []  # filled on first use: registering every op imports many modules


def is_supported(op_type):
    if not _SUPPORTED:
        _SUPPORTED.append(frozenset(supported_op_types()))
    return op_type in _SUPPORTED[0]


def unsupported_ops(library, roots):
    """[(op type, function, node)] of every node with an unsupported op type in the functions `roots`
    and the functions they call or branch to (library: name -> FunctionDef)."""
    found, seen, stack = [], set(), [r for r in roots if r in library]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in library[name].node_def:
            if "_eagerflow_part" in node.attr or "_eagerflow_op" in node.attr:  # eagerflow's own rewrites
                continue
            if not is_supported(node.op):
                found.append((node.op, name, node.name))
            for value in node.attr.values():
                which = value.WhichOneof("value")
                if which == "func":
                    stack.append(value.func.name)
                elif which == "list":
                    stack.extend(f.name for f in value.list.func)
        stack = [s for s in stack if s in library]
    return found


def unsupported_message(found, limit=40):
    """One line per op type (with up to three of its nodes), every unsupported op type named."""
    by_type = {}
    for op_type, function, node in found:
        by_type.setdefault(op_type, []).append((function, node))
    lines = [f"{len(by_type)} op type(s) eagerflow does not support ({len(found)} node(s)):"]
    for op_type, places in sorted(by_type.items())[:limit]:
        shown = "; ".join(f"node {n!r} of function {f!r}" for f, n in places[:3])
        more = f" and {len(places) - 3} more" if len(places) > 3 else ""
        lines.append(f"  unknown op type {op_type[:60]!r}: {shown}{more}")
    if len(by_type) > limit:
        lines.append(f"  ... and {len(by_type) - limit} more op types")
    return "\n".join(lines)
