"""Interoperability tests: files written by eagerflow and read by real TensorFlow, and the other way round.

TensorFlow is never a dependency of eagerflow, and never imported in this process: it lives in its own virtual
environment, named by the environment variable EAGERFLOW_TF_PYTHON (that environment's `python`). `.ci/run`
builds it (tensorflow-cpu, keras and tf_keras) as its own stage and runs `pytest tests/interop` with the variable set;
in the main suite the variable is unset and every test here skips, saying why.

A test hands TensorFlow a short script through the `run_tf` fixture: the script runs in a fresh TensorFlow
process, in the test's working folder, and prints one JSON value on its last line, which `run_tf` returns.
"""
from __future__ import annotations

import json
import os
import subprocess
import textwrap

import pytest

TF_PYTHON_VARIABLE = "EAGERFLOW_TF_PYTHON"


def tensorflow_python() -> str | None:
    """The TensorFlow environment's interpreter, or None when this run has none."""
    path = os.environ.get(TF_PYTHON_VARIABLE)
    return path if path and os.path.exists(path) else None


def _runner(folder):
    python = tensorflow_python()
    if python is None:
        pytest.skip(f"needs real TensorFlow: set {TF_PYTHON_VARIABLE} to a python with tensorflow-cpu "
                    "(.ci/run's interop stage does)")

    def run(script: str, timeout: float = 300):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="-1")
        env.pop("PYTHONPATH", None)  # TensorFlow's process never sees eagerflow
        done = subprocess.run([python, "-c", textwrap.dedent(script)], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise AssertionError(f"TensorFlow's script failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
        lines = done.stdout.strip().splitlines()
        return json.loads(lines[-1]) if lines else None

    return run


@pytest.fixture
def run_tf(tmp_path):
    """`run_tf(script, timeout=300)`: run `script` under real TensorFlow in `tmp_path`; its last stdout line, as JSON."""
    return _runner(tmp_path)


@pytest.fixture(scope="module")
def run_tf_in_module_folder(tmp_path_factory):
    """(folder, run_tf) shared by a module's tests: one TensorFlow run writes files many tests read."""
    folder = tmp_path_factory.mktemp("tf_module")
    return folder, _runner(folder)
