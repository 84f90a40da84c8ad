"""Every Python example in README.md, CONTRIBUTING.md and docs/ runs when pasted alone into a fresh interpreter
(imports included), from an empty folder, as a user would try it, and prints nothing on stderr unless the text
beside it says it warns (a `# ... warning` comment in the example).

An example that uses an optional extra of pyproject.toml (ONNX export, XLA, Graphviz drawings,
bfloat16 values, ...) is skipped, naming the extra to install, where that extra is not installed:
the README promises it only with the extra."""
import importlib.util
import io
import os
import re
import subprocess
import sys
import tokenize
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").rglob("*.md"))]
# (page, example) for every ```python block; ids name the page and the block's number there.
EXAMPLES, EXAMPLE_IDS = [], []
for _page in PAGES:
    for _number, _example in enumerate(re.findall(r"```python\n(.*?)```", _page.read_text(), re.S)):
        EXAMPLES.append(_example)
        EXAMPLE_IDS.append(f"{_page.relative_to(REPO)}#{_number}")
EXTRAS = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]

# What in an example's code (its comments left out) needs which extra of pyproject.toml.
NEEDS = {"onnx": r"\beagerflow\.onnx\b",
         "xla": r"\bjit_compile\s*=\s*True\b",
         "viz": r"\.render\([^)]*\.(svg|png|pdf)\b",
         "bfloat16": r"\bbfloat16\b",
         "fast": r"^\s*(import|from)\s+scipy\b",
         "tensorboard": r"^\s*(import|from)\s+tensorboard\b",
         "distribute": r"\bMultiWorkerMirroredStrategy\b"}


def _code_without_comments(source: str) -> str:
    lines = source.splitlines(keepends=True)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:  # a line holds one comment at most: its end
            row, column = token.start
            lines[row - 1] = lines[row - 1][:column].rstrip() + "\n"
    return "".join(lines)


def extras_needed(source: str) -> list:
    code = _code_without_comments(source)
    return sorted(extra for extra, pattern in NEEDS.items() if re.search(pattern, code, re.M))


def _not_installed(extra: str) -> list:
    """The distributions of `extra` that are not installed here (by their metadata: MPICH's wheel has no module)."""
    from importlib import metadata

    names = [re.match(r"[A-Za-z0-9_.-]+", requirement).group() for requirement in EXTRAS[extra]]
    missing = []
    for name in names:
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 3


def test_every_extra_an_example_may_need_is_one_of_pyproject():
    assert set(NEEDS) <= set(EXTRAS)


def test_an_example_needs_the_extras_its_code_uses_not_those_its_comments_name():
    assert extras_needed("import eagerflow.onnx  # pip install 'eagerflow[onnx]'\n") == ["onnx"]
    assert extras_needed("@tf.function(jit_compile=True)\ndef f(x):\n    return x\n") == ["xla"]
    assert extras_needed('# cf.graph.render("f.svg")  # pip install eagerflow[viz]\ncf.graph.render("f.html")\n') == []
    assert extras_needed('cf.graph.render("f.svg")\nx = tf.constant(1.0, tf.bfloat16)\n') == ["bfloat16", "viz"]
    assert any(extras_needed(example) == ["onnx"] for example in EXAMPLES)


def test_every_page_links_only_to_files_that_exist():
    for page in PAGES:
        prose = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", page.read_text(), flags=re.S))
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", prose):
            assert (page.parent / target).exists(), f"{page.relative_to(REPO)} links to {target}, which does not exist"


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=EXAMPLE_IDS)
def test_readme_example_runs_alone(index, tmp_path):
    for extra in extras_needed(EXAMPLES[index]):
        missing = _not_installed(extra)
        if missing:
            pytest.skip(f"needs the `{extra}` extra (pip install 'eagerflow[{extra}]'): {', '.join(missing)} "
                        f"not installed")
    script = tmp_path / "example.py"
    script.write_text(EXAMPLES[index])
    # This checkout's eagerflow, not whichever one the interpreter has installed (a worktree's venv may be another's).
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, f"example {EXAMPLE_IDS[index]} failed:\n{EXAMPLES[index]}\n{done.stderr[-2000:]}"
    if not re.search(r"#.*warn", EXAMPLES[index], re.I):
        assert done.stderr == "", f"example {EXAMPLE_IDS[index]} printed on stderr:\n{done.stderr[-2000:]}"
