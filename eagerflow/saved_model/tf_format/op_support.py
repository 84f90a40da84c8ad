"""Which TensorFlow op types a TensorFlow-written SavedModel may use, and the check, before anything
is built, that every function a load will import uses only those: one error then names every
unsupported op type with the nodes and functions holding it, instead of the first one met halfway.

The list comes from the op registry: an eagerflow op whose name and interface are TensorFlow's
(tf_op_signatures.py), less the ones never loaded from a file, plus what the importer rewrites
itself (calls inlined, control flow, IdentityN, lookups on imported tables). tools/gen_tf_op_list.py
writes it into the documentation."""
from __future__ import annotations

from ..._src.formats.graph_export.tf_op_signatures import SIGNATURES
from ..._src.ops.registry import OPS, OpDef
from .import_resource_reads import RESOURCE_READS
from .import_tables import TABLE_OPS

# a function's inputs; Python code; an iterator over a tf.data pipeline (a Python object here)
NOT_FROM_FILES = frozenset({"Placeholder", "PyFunc", "PyFuncStateless", "EagerPyFunc", "IteratorGetNext"})
CALLS = frozenset({"PartitionedCall", "StatefulPartitionedCall"})
IFS = frozenset({"If", "StatelessIf"})
WHILES = frozenset({"While", "StatelessWhile"})
CASES = frozenset({"Case", "StatelessCase"})
PASSED_THROUGH = frozenset({"IdentityN"})  # each output is its input
SKIPPED = frozenset({"NoOp"})
GRADIENTS = frozenset({"SymbolicGradient"})  # of an inlined call: derived again by eagerflow's autodiff
IMPORTER_OPS = CALLS | IFS | WHILES | CASES | PASSED_THROUGH | SKIPPED | GRADIENTS | TABLE_OPS | RESOURCE_READS


IMPORTER_NOTES = {
    **dict.fromkeys(CALLS, "inlined into the calling function"),
    **dict.fromkeys(IFS, "eagerflow's If over the imported branch functions"),
    **dict.fromkeys(WHILES, "eagerflow's While; values the body passes through unchanged become captures"),
    **dict.fromkeys(CASES, "a chain of eagerflow Ifs (an index out of range runs the last branch)"),
    "IdentityN": "each output is its input; a custom gradient saved with it (`registered_gradients`) is its gradient",
    "NoOp": "dropped, with the control dependencies it groups",
    "SymbolicGradient": "the gradient of the call it names, derived again from the imported function",
    "LookupTableFindV2": "VocabularyLookup over the table's contents, read at load time (a mutable table's: "
                         "its current contents)",
    "LookupTableSizeV2": "a constant: the table's size at load time (a mutable table's: its current size)",
    "LookupTableExportV2": "constants: the table's keys and values at load time (a mutable table's: its current "
                           "contents)",
    "LookupTableInsertV2": "MutableHashTableInsert into the two variables holding a mutable table",
    "LookupTableRemoveV2": "MutableHashTableRemove from the two variables holding a mutable table",
    "ResourceGather": "ReadVariableOp, then GatherV2 past the batch dimensions",
}


def _same_inputs(name):
    """Whether eagerflow's op takes TensorFlow's inputs as they are (or an adapter maps them)."""
    from .import_adapters import INPUTS_AS_ATTRIBUTES
    ins, mine = SIGNATURES[name][0], OPS[name].inputs
    if name in INPUTS_AS_ATTRIBUTES or not mine or any(a[1] == "list" or a[3] for a in ins):
        return True
    return len(mine) == len(ins)


def supported_op_types():
    """Sorted names of the TensorFlow op types eagerflow runs from a SavedModel TensorFlow wrote."""
    from ..graph_io import register_every_op
    register_every_op()
    own = {name for name in OPS if name in SIGNATURES and name not in NOT_FROM_FILES and _same_inputs(name)}
    return sorted(own | IMPORTER_OPS)


def how_imported(op_type):
    """('importer', note) for what the importer rewrites, else (family, module) of eagerflow's kernel."""
    if op_type in IMPORTER_NOTES:
        return "importer", IMPORTER_NOTES[op_type]
    module = _module_of(op_type)
    parts = module.split(".")
    if len(parts) > 4 and parts[:3] == ["eagerflow", "_src", "ops"]:
        return parts[3], ".".join(parts[3:])
    if len(parts) > 3 and parts[:2] == ["eagerflow", "_src"]:
        return parts[2], ".".join(parts[2:])
    return "other", module or "?"


def _module_of(op_type):
    opdef = OPS[op_type]
    return _defining_modules().get(op_type) or next(  # an OpDef made in a loop: where its functions live
        (m for m in (getattr(f, "__module__", None) or "" for f in (opdef.kernel, opdef.grad, opdef.infer))
         if m.startswith("eagerflow.")), "")


def _defining_modules(_cache={}):
    """op type -> the module that defines its OpDef (the one holding it as a module-level name)."""
    import sys
    if _cache.get("count") == len(OPS):
        return _cache["found"]
    found = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("eagerflow.") or module is None:
            continue
        for value in vars(module).values():
            if isinstance(value, OpDef) and OPS.get(value.name) is value:
                found.setdefault(value.name, name)
    _cache.update(count=len(OPS), found=found)
    return found


def is_supported(op_type):
    """From the generated table (tf_op_modules.py, kept equal to supported_op_types() by a test), so a
    load imports only the op modules its file uses."""
    from .tf_op_modules import SUPPORTED
    return op_type in SUPPORTED


def ensure_ops(op_types):
    """Imports the modules defining these op types (eagerflow leaves many to their first use); an op
    type the generated table does not place makes it import every op module."""
    import importlib
    from .tf_op_modules import MODULES
    missing = [t for t in op_types if t not in OPS]
    for module in sorted({MODULES[t] for t in missing if t in MODULES}):
        importlib.import_module(module)
    if any(t not in OPS for t in missing if t in MODULES):
        from ..graph_io import register_every_op
        register_every_op()


def module_table_text():
    """tf_op_modules.py's text: every registered op type's defining module, and the supported list."""
    supported = supported_op_types()
    modules = {name: _module_of(name) for name in sorted(OPS)}
    lines = ['"""Where each op type is defined, and which TensorFlow op types a SavedModel TensorFlow wrote may use.',
             "", "Generated by tools/gen_tf_op_list.py from the op registry (op_support.py); do not edit. The",
             'importer imports only the modules its file needs."""', "MODULES = {"]
    lines += [f"    {name!r}: {module!r}," for name, module in modules.items() if module]
    lines += ["}", "SUPPORTED = frozenset({"]
    lines += [f"    {name!r}," for name in supported]
    lines += ["})", ""]
    return "\n".join(lines)


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
