"""The package's floors, read from the source with ast (nothing is imported to find them).

core/ is the bottom floor: it may import only core/ (and the standard library and NumPy), at module
level or inside a function alike. Tensor's operators reach ops/ through core/tensor.py's `op_table`,
which ops/tensor_methods.py fills. Before that table, core/tensor.py imported ops/ at its bottom
and 13 modules of core/ and ops/ formed one import cycle.
"""
import ast
from pathlib import Path

import pytest

import eagerflow

PACKAGE = Path(eagerflow.__file__).resolve().parent


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


def _package_imports(module: str) -> set:
    """Modules of this package that `module` imports anywhere in its source (functions included)."""
    path, is_package = MODULES[module]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        for name in _imported_names(module, is_package, node):
            if name.split(".")[0] != "eagerflow":
                continue
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name != module:
                out.add(name)
    return out


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
    # ops/array/basic.py imports `.slicing` inside getitem and `..math.reduce` at its top: both are edges.
    assert {"eagerflow._src.ops.array.slicing", "eagerflow._src.ops.math.reduce", "eagerflow._src.core.tensor"} <= \
        _package_imports("eagerflow._src.ops.array.basic")
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_core_imports_nothing_above_it():
    core = [m for m in MODULES if m.startswith("eagerflow._src.core.")]
    assert "eagerflow._src.core.tensor" in core and "eagerflow._src.core.convert" in core
    upward = {m: sorted(n for n in _package_imports(m) if not n.startswith("eagerflow._src.core"))
              for m in core}
    assert {m: names for m, names in upward.items() if names} == {}


# ARCHITECTURE.md's floors, from the bottom: a module may import its own floor and those below.
FLOORS = {"core": 0, "io": 1, "ops": 1, "autodiff": 2, "state": 2, "graph": 2, "passes": 3, "codegen": 3, "trace": 4,
          "control_flow": 5, "autograph": 6, "data": 7, "summary": 7, "saved_model": 7, "train": 7, "api": 8}
# AutoGraph's source-to-source half is pure AST work that imports nothing of ours, so trace/ may
# call it (the one sanctioned reference upward, to a leaf).
PURE_AUTOGRAPH = tuple(f"eagerflow._src.autograph.{name}"
                       for name in ("transform", "converters", "analysis", "templates", "source", "ast_guard"))


def _floor(module):
    """The floor of a module: its top folder, under eagerflow/_src/ or (summary, saved_model, ...) beside it."""
    parts = [p for p in module.split(".") if p != "_src"]
    return FLOORS.get(parts[1]) if len(parts) > 2 else None


def test_every_floor_has_modules():
    # Guards the floor check below against passing vacuously after a move of the package's folders.
    folders = {[p for p in m.split(".") if p != "_src"][1] for m in MODULES if _floor(m) is not None}
    assert folders == set(FLOORS)


def test_every_floor_imports_only_its_own_floor_and_those_below():
    upward = sorted(f"{m} -> {n}" for m in MODULES if _floor(m) is not None for n in _package_imports(m)
                    if _floor(n) is not None and _floor(n) > _floor(m) and not n.startswith(PURE_AUTOGRAPH))
    assert upward == []


def test_the_pure_half_of_autograph_imports_nothing_of_ours_outside_it():
    pure = [m for m in MODULES if m.startswith(PURE_AUTOGRAPH)]
    assert len(pure) > 5
    assert {m: sorted(n for n in _package_imports(m) if not n.startswith(PURE_AUTOGRAPH))
            for m in pure} == {m: [] for m in pure}


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
