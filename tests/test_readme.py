"""Every Python example in README.md runs when pasted alone into a fresh interpreter (imports
included), from an empty folder, as a user would try it."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_readme_example_runs_alone(index, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(EXAMPLES[index])
    # This checkout's eagerflow, not whichever one the interpreter has installed (a worktree's venv may be another's).
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(README.parent), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, f"README example {index} failed:\n{EXAMPLES[index]}\n{done.stderr[-2000:]}"
