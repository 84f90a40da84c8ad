"""The shape of eagerflow/_src/ops/, read from the source with ast: op modules live in family folders,
only the shared machinery sits at the top, no file is an overflow (`*_extra`), and no two op modules
import each other at module level (a gradient rule may still import upward inside its function).
"""
import ast
from pathlib import Path

import eagerflow._src.ops as ops

OPS = Path(ops.__file__).resolve().parent
PREFIX = "eagerflow._src.ops"
MACHINERY = {"__init__", "registry", "validation", "shape_rules", "operands", "tf_allowed_types", "lazy_jax",
             "fp_errors", "bfloat16", "tensor_methods"}


def _modules():
    found = {}
    for path in OPS.rglob("*.py"):
        parts = list(path.relative_to(OPS).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join([PREFIX] + (parts[:-1] if is_package else parts))
        found[name] = (path, is_package)
    return found


MODULES = _modules()


def _top_level_imports(module):
    """Op modules that `module` imports outside any function (what runs when it is imported)."""
    path, is_package = MODULES[module]
    out = set()
    for node in ast.parse(path.read_text()).body:
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = ".".join(base[:len(base) - (node.level - 1)] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for alias in node.names:
            name = f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
            if name in MODULES and name != module and not MODULES[name][1]:
                out.add(name)
    return out


def test_only_the_shared_machinery_sits_at_the_top():
    top = {path.stem for path in OPS.glob("*.py")}
    assert top == MACHINERY
    families = {path.name for path in OPS.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert {"math", "array", "nn", "linalg", "image", "signal", "sparse", "ragged", "strings", "random",
            "io"} <= families
    assert all((OPS / family / "__init__.py").exists() for family in families)


def test_no_overflow_files():
    assert [p.name for p in OPS.rglob("*extra*.py")] == []


def test_no_two_op_modules_import_each_other_at_module_level():
    edges = {m: _top_level_imports(m) for m in MODULES}
    assert "eagerflow._src.ops.math.reduce" in edges["eagerflow._src.ops.array.filled_tensors"]  # the parser sees edges
    state, cycle = {}, []

    def visit(node, stack):
        state[node] = "open"
        for child in sorted(edges[node]):
            if state.get(child) == "open":
                cycle.extend(stack[stack.index(child):] + [child])
                return True
            if child not in state and visit(child, stack + [child]):
                return True
        state[node] = "done"
        return False

    for root in sorted(MODULES):
        if root not in state and visit(root, [root]):
            break
    assert cycle == []


def test_family_packages_import_nothing():
    """Importing one op module loads only what it imports: the family `__init__` files are empty."""
    for family in (p for p in OPS.iterdir() if (p / "__init__.py").exists()):
        body = ast.parse((family / "__init__.py").read_text()).body
        assert all(isinstance(node, ast.Expr) for node in body), family.name
