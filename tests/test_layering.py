"""The package's floors and its import cycles, read from the source with ast (nothing is imported to find them).

Floors. Every folder of eagerflow/ and eagerflow/_src/ (and each loose module: the public face
eagerflow/__init__.py, __main__.py, _src/demo.py, ...) has a floor in FLOORS, and a module may import
(at module level or inside a function alike) only modules of its own floor and those below. They follow
../shared/ARCHITECTURE.md (core <- io <- ops <- {autodiff, state, composite, graph} <- {passes, codegen}
<- trace <- control_flow <- autograph <- data <- {keras, saved_model, train} <- the public face), except
where the code differs:
- formats/ (TensorFlow's file formats and the graph export/import mapping) stands between data/ and
  {keras, saved_model, train}: it reads traced graphs and control flow, and those three write files.
- composite/ shares ops/' floor instead of standing above it: the sparse and ragged op families
  (ops/sparse_*, ops/ragged*, ctc, sets, lookup_tables, parse_example, edit_distance) build
  SparseTensor/RaggedTensor values at module level, and those values' methods call the op families
  (inside functions). IndexedSlices lives in composite/ beside its spec, so composite/ needs nothing
  of state/.
- summary/ stands with keras/, saved_model/ and train/ (keras' TensorBoard callback uses it); onnx/
  stands above them (it exports SavedModels), where ARCHITECTURE.md puts distribute/ and serving/.
- api/ (the tf.* namespaces) is the public face's floor, with eagerflow/__init__.py.
- The commands (__main__.py, _src/demo.py, _src/demo_training.py, _src/graph_command.py) are one floor
  above the face: the demos are written against `import eagerflow as tf` and tf.keras.
- keras/ reaches the public face inside two functions (ALLOWED_UPWARD): the face is a floor above it.
AutoGraph's source-to-source half is pure AST work that imports nothing of ours, so trace/ may call it
(the one sanctioned reference upward, to a leaf).

Cycles. No two modules may import each other at module level (an import at the top of a module, in
a class body or under try/if/with, not inside a function or under `if TYPE_CHECKING:`). `import a.b.c`
and `from a.b.c import x` import the packages a.b and a.b.c too (their __init__.py runs first), so
those are edges as well, except to the importing module's own packages (already being imported when it
runs). ALLOWED_CYCLES lists the exceptions, each with its reason (none today).

core/ is the bottom floor. Tensor's operators reach ops/ through core/tensor.py's `op_table`, which
ops/tensor_methods.py fills. Before that table, core/tensor.py imported ops/ at its bottom and 13
modules of core/ and ops/ formed one import cycle.
"""
import ast
from pathlib import Path

import pytest

import eagerflow

PACKAGE = Path(eagerflow.__file__).resolve().parent


# The floors, from the bottom (see the module docstring): a module may import its own floor and those below.
# A folder of eagerflow/_src/ or eagerflow/ is named by its name; a loose module by its name too
# ("eagerflow" is the public face, eagerflow/__init__.py; "_src" is eagerflow/_src/__init__.py).
FLOORS = [
    ("_src", "core"),
    ("io",),
    ("ops", "composite"),
    ("autodiff", "state", "graph"),
    ("passes", "codegen"),
    ("trace",),
    ("control_flow",),
    ("autograph",),
    ("data",),
    ("formats",),
    ("distribute",),
    ("keras", "saved_model", "train", "summary"),
    ("onnx", "serving"),
    ("api", "eagerflow"),
    ("__main__", "demo", "demo_training", "graph_command"),
]
FLOOR = {folder: number for number, folders in enumerate(FLOORS) for folder in folders}
# AutoGraph's source-to-source half is pure AST work that imports nothing of ours, so trace/ may
# call it (the one sanctioned reference upward, to a leaf).
PURE_AUTOGRAPH = tuple(f"eagerflow._src.autograph.{name}"
                       for name in ("transform", "converters", "analysis", "templates", "source", "ast_guard", "as_is",
                                    "context", "parse", "pipeline", "rebuild", "user_code"))
# TensorFlow's protobuf messages are a leaf (generated modules that import only `protobuf`), so any floor may
# use them: ops' parse_example kernel reads tf.train.Example, summary/ and formats/ write files with them.
PURE_PROTOS = ("eagerflow._src.formats.protos",)
# Imports up the floors that are allowed, each with its reason: "importer -> imported": reason.
ALLOWED_UPWARD = {
    "eagerflow.keras.backend_settings -> eagerflow": "tf.keras.backend reaches the tf surface inside a function "
                                                     "(`import eagerflow as tf`), not _src",
    "eagerflow.keras.ops._common -> eagerflow": "keras.ops reaches the tf surface inside a function "
                                                "(`import eagerflow`), not _src",
}

# Module-level import cycles that are allowed, each with its reason: the modules of one cycle (a strongly
# connected component) -> why it must stay. None today: the ops/ and keras/ re-layouts of issue 22 removed
# the five there were. A new entry needs a reason that moving a shared piece down cannot answer.
ALLOWED_CYCLES: dict = {}


def _modules() -> dict:
    """Dotted module name -> (path, is_package) for every .py file of the package."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


MODULES = _modules()


def _imported_names(module: str, is_package: bool, node) -> list:
    """The absolute names an Import/ImportFrom node refers to (`from . import x` names `pkg.x`)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module
    return [f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in MODULES else prefix for alias in node.names]


def _ours(module: str, is_package: bool, nodes) -> set:
    """The modules of this package that the Import/ImportFrom `nodes` of `module` name."""
    out = set()
    for node in nodes:
        for name in _imported_names(module, is_package, node):
            if name.split(".")[0] != "eagerflow":
                continue
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name != module:
                out.add(name)
    return out


def _package_imports(module: str) -> set:
    """Modules of this package that `module` imports anywhere in its source (functions included)."""
    path, is_package = MODULES[module]
    nodes = [n for n in ast.walk(ast.parse(path.read_text(), str(path))) if isinstance(n, (ast.Import, ast.ImportFrom))]
    return _ours(module, is_package, nodes)


def _is_type_checking(test) -> bool:
    return isinstance(test, (ast.Name, ast.Attribute)) and ast.unparse(test).split(".")[-1] == "TYPE_CHECKING"


def _module_level_nodes(body) -> list:
    """The imports that run when the module is imported: at the top, in class bodies, under
    try/if/with/for/while; not inside functions, not under `if TYPE_CHECKING:`."""
    out = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                out += _module_level_nodes(node.body)
            out += _module_level_nodes(node.orelse)
        elif isinstance(node, ast.Try):
            out += _module_level_nodes(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                out += _module_level_nodes(handler.body)
        elif isinstance(node, (ast.With, ast.For, ast.While, ast.ClassDef)):
            out += _module_level_nodes(node.body + getattr(node, "orelse", []))
    return out


def _with_packages(module: str, imported: set) -> set:
    """`imported` plus the packages each one lies in (their __init__.py runs first), less `module`'s own
    packages, which are being imported already when `module` runs (an explicit import of one stays)."""
    own = {module.rsplit(".", i)[0] for i in range(1, module.count(".") + 1)}
    out = set(imported)
    for name in imported:
        parts = name.split(".")
        out |= {".".join(parts[:i]) for i in range(1, len(parts))} - own
    return {name for name in out if name in MODULES}  # a folder without __init__.py runs no code


def _module_level_imports(module: str) -> set:
    """Modules of this package that importing `module` imports (see the module docstring)."""
    path, is_package = MODULES[module]
    nodes = _module_level_nodes(ast.parse(path.read_text(), str(path)).body)
    return _with_packages(module, _ours(module, is_package, nodes))


def _cycles(edges: dict) -> list:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_import_parser_sees_relative_and_function_level_imports():
    # ops/array/transposing.py imports `..math.elementwise` inside transpose and `.shape_queries` at its top:
    # both are edges.
    assert {"eagerflow._src.ops.math.elementwise", "eagerflow._src.ops.array.shape_queries",
            "eagerflow._src.core.shape"} <= _package_imports("eagerflow._src.ops.array.transposing")
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_core_imports_nothing_above_it():
    core = [m for m in MODULES if m.startswith("eagerflow._src.core.")]
    assert "eagerflow._src.core.tensor" in core and "eagerflow._src.core.convert" in core
    upward = {m: sorted(n for n in _package_imports(m) if not n.startswith("eagerflow._src.core"))
              for m in core}
    assert {m: names for m, names in upward.items() if names} == {}


def _folder(module: str) -> str:
    """The folder (or loose module) a module belongs to, as FLOORS names it."""
    parts = module.split(".")
    if parts[1:2] == ["_src"]:
        parts = parts[1:]  # eagerflow._src.ops.math.elementwise -> _src, ops, math; eagerflow._src -> _src
    return parts[1] if len(parts) > 1 else parts[0]


def _floor(module):
    return FLOOR.get(_folder(module))


def test_the_folder_of_a_module():
    assert [_folder(m) for m in ("eagerflow", "eagerflow._src", "eagerflow._src.ops", "eagerflow._src.ops.math.elementwise",
                                 "eagerflow._src.demo", "eagerflow.keras.layers.core", "eagerflow.__main__",
                                 "eagerflow.onnx")] == \
        ["eagerflow", "_src", "ops", "ops", "demo", "keras", "__main__", "onnx"]


def test_every_folder_has_a_floor_and_every_floor_has_modules():
    # A new folder or loose module fails here until it is given a floor; a floor left empty by a move fails too.
    assert {_folder(m) for m in MODULES} == set(FLOOR)


def test_every_floor_imports_only_its_own_floor_and_those_below():
    upward = sorted(f"{m} -> {n}" for m in MODULES for n in _package_imports(m)
                    if _floor(n) > _floor(m) and not n.startswith(PURE_AUTOGRAPH + PURE_PROTOS))
    assert [edge for edge in upward if edge not in ALLOWED_UPWARD] == []
    assert [edge for edge in ALLOWED_UPWARD if edge not in upward] == [], "no longer upward: remove it from ALLOWED_UPWARD"


def test_the_pure_half_of_autograph_imports_nothing_of_ours_outside_it():
    pure = [m for m in MODULES if m.startswith(PURE_AUTOGRAPH)]
    assert len(pure) > 5
    assert {m: sorted(n for n in _package_imports(m) if not n.startswith(PURE_AUTOGRAPH))
            for m in pure} == {m: [] for m in pure}


def test_the_protobuf_messages_import_nothing_of_ours_outside_them():
    leaves = [m for m in MODULES if m.startswith(PURE_PROTOS)]
    assert len(leaves) > 10
    assert {m: sorted(n for n in _package_imports(m) if not n.startswith(PURE_PROTOS) and n != "eagerflow._src.formats")
            for m in leaves} == {m: [] for m in leaves}


def test_module_level_imports_are_read_as_python_runs_them():
    source = """
import eagerflow._src.ops.math.elementwise
from eagerflow._src.core import dtypes
try:
    from ..control.lists import x
except ImportError:
    from ...state import variables
if TYPE_CHECKING:
    from eagerflow._src.trace import function
class C:
    from eagerflow._src.graph import graph
def f():
    from eagerflow._src.codegen import pycode
"""
    module = "eagerflow._src.ops.math.reduce"
    nodes = _module_level_nodes(ast.parse(source).body)
    read = _with_packages(module, _ours(module, False, nodes))
    expected = {"eagerflow._src.ops.math.elementwise", "eagerflow._src.core", "eagerflow._src.core.dtypes",
                "eagerflow._src.ops.control", "eagerflow._src.ops.control.lists", "eagerflow._src.state",
                "eagerflow._src.state.variables", "eagerflow._src.graph", "eagerflow._src.graph.graph"}
    assert "eagerflow._src.graph" in read  # a package's __init__.py (core/ and state/ have none: no edge)
    assert read == {name for name in expected if name in MODULES}


def test_no_module_level_import_cycle_but_the_allowed_ones():
    edges = {m: _module_level_imports(m) for m in MODULES}
    found = {frozenset(c) for c in _cycles(edges)}
    assert sorted(sorted(c) for c in found - set(ALLOWED_CYCLES)) == []


def test_every_temporary_cycle_still_exists():
    # Once a cycle is gone, its entry must go too (so the list cannot hide a new cycle of those modules).
    edges = {m: _module_level_imports(m) for m in MODULES}
    found = {frozenset(c) for c in _cycles(edges)}
    assert sorted(sorted(c) for c in set(ALLOWED_CYCLES) - found) == [], "gone: remove it from ALLOWED_CYCLES"


def test_no_module_of_core_is_in_an_import_cycle():
    edges = {m: _package_imports(m) for m in MODULES}
    with_core = [c for c in _cycles(edges) if any(m.startswith("eagerflow._src.core.") for m in c)]
    assert with_core == []


def test_every_operator_slot_is_filled_by_ops():
    from eagerflow._src.core.tensor import op_table
    assert op_table.missing() == []
    from eagerflow._src.ops.array import basic as array, joining
    from eagerflow._src.ops.math import elementwise as math
    from eagerflow._src.ops.linalg import matmul
    assert op_table.add is math.add and op_table.matmul is matmul.matmul
    assert op_table.getitem is array.getitem and op_table.stack is joining.stack


def test_an_unfilled_slot_names_the_missing_registration():
    from eagerflow._src.core.tensor import OpTable
    table = OpTable()
    assert "add" in table.missing()
    with pytest.raises(RuntimeError, match="eagerflow._src.ops.tensor_methods"):
        table.add(1, 2)
    with pytest.raises(KeyError, match="no slot named ad"):
        table.register(ad=lambda x, y: x)
