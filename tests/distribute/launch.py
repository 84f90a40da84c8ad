"""Launching the test programs (programs/) under mpiexec, and the reason to skip when MPI is absent."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).parent / "programs"
REPO = Path(__file__).resolve().parents[2]


def _mpiexec():
    beside_python = Path(sys.executable).parent / "mpiexec"
    return str(beside_python) if beside_python.exists() else shutil.which("mpiexec")


def _why_no_mpi():
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return "mpi4py is not installed (pip install 'eagerflow[distribute]')"
    if _mpiexec() is None:
        return "no mpiexec beside the Python interpreter or on PATH (the mpich wheel provides one)"
    return None


NEEDS_MPI = pytest.mark.skipif(_why_no_mpi() is not None, reason=f"multi-process tests need MPI: {_why_no_mpi()}")


def mpirun(processes, program, *args, per_rank_env=None, timeout=240, check=True):
    """`mpiexec -n processes python programs/<program> args...`; per_rank_env gives each rank its own
    variables (MPMD: one `-n 1 -env ...` section per rank). Returns the CompletedProcess."""
    env = dict(os.environ, PYTHONPATH=str(REPO), OMP_NUM_THREADS="1")
    env.pop("TF_CONFIG", None)
    command = [_mpiexec()]
    python = [sys.executable, str(PROGRAMS / program), *map(str, args)]
    if per_rank_env is None:
        command += ["-n", str(processes)] + python
    else:
        for i, variables in enumerate(per_rank_env):
            if i:
                command.append(":")
            command += ["-n", "1"]
            for name, value in variables.items():
                command += ["-env", name, value]
            command += python
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result
