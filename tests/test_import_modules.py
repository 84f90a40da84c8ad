"""The modules `import eagerflow` loads are a checked-in list (tests/import_modules.txt), so start-up
cannot grow unnoticed: every module loaded at import is time a serverless function or CLI pays on
each start (issue 27's target: at most 60 ms beyond NumPy).

A fresh interpreter imports NumPy, notes sys.modules, imports eagerflow and lists what was added:
eagerflow's own modules must be exactly the listed ones (a module that no longer loads is taken off
the list too, so the list stays a true picture); other public top-level modules (the standard
library's, NumPy's subpackages) may only be fewer than listed, since another NumPy may load some of
them already. Which standard-library modules import which changes between Python releases, so that
second check runs on the Python minor version the list was recorded with (its `# python` line). `python tests/test_import_modules.py --update` rewrites the list.
"""
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIST = Path(__file__).resolve().parent / "import_modules.txt"
HOW_TO_FIX = (
    "Either load it on first use (an entry in eagerflow/__init__.py's _LAZY table, a module-level __getattr__ "
    "in the namespace, or an import inside the function that needs it), or, if every program needs it at "
    "start-up, add it to tests/import_modules.txt (`python tests/test_import_modules.py --update` rewrites the "
    "list) and say why in the commit.")

_CHILD = """
import json, sys
import numpy
before = set(sys.modules)
import eagerflow
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def loaded_by_import():
    """(eagerflow's modules, other top-level modules) that `import eagerflow` adds after NumPy."""
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=120, cwd=REPO,
                          env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    added = json.loads(done.stdout.strip().splitlines()[-1])
    ours = {m for m in added if m == "eagerflow" or m.startswith("eagerflow.")}
    others = {m.split(".")[0] for m in added if m not in ours} | {m for m in added if m.startswith("numpy.")}
    return ours, {m for m in others if not m.startswith("_")}  # C accelerators come with their public modules


def _python():
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def read_list():
    """(eagerflow's modules, other modules, the Python version the list was recorded with)."""
    ours, others, python = set(), set(), None
    for line in LIST.read_text().splitlines():
        if line.startswith("# python "):
            python = line.split()[2]
        line = line.split("#")[0].strip()
        if line:
            (ours if line == "eagerflow" or line.startswith("eagerflow.") else others).add(line)
    return ours, others, python


def test_import_eagerflow_loads_only_the_listed_modules():
    ours, others = loaded_by_import()
    listed_ours, listed_others, python = read_list()
    new = sorted(ours - listed_ours)
    assert not new, (f"`import eagerflow` now loads {len(new)} module(s) not in tests/import_modules.txt: "
                     f"{', '.join(new)}. {HOW_TO_FIX}")
    gone = sorted(listed_ours - ours)
    assert not gone, (f"`import eagerflow` no longer loads {', '.join(gone)}: take them off tests/import_modules.txt "
                      "(`python tests/test_import_modules.py --update`).")
    if python != _python():
        return  # (see the module docstring)
    new_others = sorted(others - listed_others)
    assert not new_others, (f"`import eagerflow` now loads {', '.join(new_others)} beyond what NumPy loads, not in "
                            f"tests/import_modules.txt. {HOW_TO_FIX}")


def test_the_list_has_no_optional_package():
    """The list itself never admits an optional dependency (tests/test_startup.py checks the import)."""
    _, listed_others, _ = read_list()
    assert not listed_others & {"scipy", "jax", "tensorflow", "torch", "onnx", "google", "keras", "ml_dtypes"}


def _update():
    ours, others = loaded_by_import()
    LIST.write_text("# What `import eagerflow` loads after `import numpy` (tests/test_import_modules.py).\n"
                    "# eagerflow's modules: exactly these. Others (top-level names): at most these.\n"
                    f"# python {_python()}\n"
                    + "".join(f"{m}\n" for m in sorted(ours)) + "".join(f"{m}\n" for m in sorted(others)))
    print(f"wrote {LIST}: {len(ours)} eagerflow modules, {len(others)} others")


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        _update()
    else:
        sys.exit("usage: python tests/test_import_modules.py --update")
