"""Interoperability tests: files written by eagerflow and read by real TensorFlow, and the other way round.

TensorFlow is never a dependency of eagerflow, and never imported in this process: it lives in its own virtual
environment, named by the environment variable EAGERFLOW_TF_PYTHON (that environment's `python`). `.ci/run`
builds it (tensorflow-cpu, keras and tf_keras) as its own stage and runs `pytest tests/interop` with the variable set;
in the main suite the variable is unset and every test here skips, saying why.

A test hands TensorFlow a short script through the `run_tf` fixture: the script runs in a fresh TensorFlow
process, in the test's working folder, and prints one JSON value on its last line, which `run_tf` returns.
That process is a fork of one that has imported TensorFlow (tf_fork_server.py, one per test worker), which
saves each script TensorFlow's import (about 5 s of CPU); EAGERFLOW_TF_FORK=0 starts every script as
`python -c` instead, as before.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import textwrap
import threading

import pytest

TF_PYTHON_VARIABLE = "EAGERFLOW_TF_PYTHON"
FORK_VARIABLE = "EAGERFLOW_TF_FORK"
_FORK_SERVER = pathlib.Path(__file__).with_name("tf_fork_server.py")


def tensorflow_python() -> str | None:
    """The TensorFlow environment's interpreter, or None when this run has none."""
    path = os.environ.get(TF_PYTHON_VARIABLE)
    return path if path and os.path.exists(path) else None


def _tensorflow_env():
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="-1")
    env.pop("PYTHONPATH", None)  # TensorFlow's process never sees eagerflow
    return env


class _ForkServer:
    """This test worker's tf_fork_server.py: started at the first script, ended with the session."""

    def __init__(self, python):
        self.python, self.process, self.lock = python, None, threading.Lock()
        self.outputs = tempfile.mkdtemp(prefix="tf_fork_outputs_")
        self.log = os.path.join(self.outputs, "server.log")

    def run(self, script, folder, env, timeout):
        """(returncode, stdout, stderr) of `script` run in a fork; raises TimeoutExpired as subprocess.run."""
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                with open(self.log, "w") as log:  # the server's own messages (TensorFlow's import)
                    self.process = subprocess.Popen([self.python, "-c", _FORK_SERVER.read_text()],
                                                    env=_tensorflow_env(), stdin=subprocess.PIPE,
                                                    stdout=subprocess.PIPE, stderr=log, text=True)
            out, err = (os.path.join(self.outputs, name) for name in ("stdout", "stderr"))
            for path in (out, err):
                open(path, "w").close()
            request = {"script": script, "cwd": str(folder), "env": env, "stdout": out, "stderr": err,
                       "timeout": timeout}
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
            if not line:
                with open(self.log) as log:
                    raise AssertionError(f"TensorFlow's fork server ended (exit {self.process.wait()}):\n"
                                         f"{log.read()[-4000:]}")
            reply = json.loads(line)
            if reply["timed_out"]:
                raise subprocess.TimeoutExpired([self.python, "-c", script], timeout)
            with open(out) as f, open(err) as g:
                return reply["returncode"], f.read(), g.read()

    def close(self):
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.outputs, ignore_errors=True)


@pytest.fixture(scope="session")
def _tensorflow_fork_server():
    python = tensorflow_python()
    if python is None or os.environ.get(FORK_VARIABLE, "1") == "0":
        yield None
        return
    server = _ForkServer(python)
    yield server
    server.close()


def _runner(folder, fork_server):
    python = tensorflow_python()
    if python is None:
        pytest.skip(f"needs real TensorFlow: set {TF_PYTHON_VARIABLE} to a python with tensorflow-cpu "
                    "(.ci/run's interop stage does)")

    def run(script: str, timeout: float = 300):
        script, env = textwrap.dedent(script), _tensorflow_env()
        if fork_server is not None:
            returncode, stdout, stderr = fork_server.run(script, folder, env, timeout)
        else:
            done = subprocess.run([python, "-c", script], cwd=folder, env=env,
                                  capture_output=True, text=True, timeout=timeout)
            returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
        if returncode != 0:
            raise AssertionError(f"TensorFlow's script failed (exit {returncode}):\n{stderr[-4000:]}")
        lines = stdout.strip().splitlines()
        return json.loads(lines[-1]) if lines else None

    return run


@pytest.fixture
def run_tf(tmp_path, _tensorflow_fork_server):
    """`run_tf(script, timeout=300)`: run `script` under real TensorFlow in `tmp_path`; its last stdout line, as JSON."""
    return _runner(tmp_path, _tensorflow_fork_server)


@pytest.fixture(scope="module")
def run_tf_in_module_folder(tmp_path_factory, _tensorflow_fork_server):
    """(folder, run_tf) shared by a module's tests: one TensorFlow run writes files many tests read."""
    folder = tmp_path_factory.mktemp("tf_module")
    return folder, _runner(folder, _tensorflow_fork_server)
