"""Workload modules. To add a benchmark, add a module here with a module-level list `WORKLOADS`
of `bench.harness.Workload`; `discover()` finds it, and `python -m bench` runs it.

Modules must import only the standard library, NumPy and `bench.harness` at the top: frameworks
(eagerflow, TensorFlow, JAX, PyTorch) are imported inside the variant factories, so the same module
loads in any interpreter (see bench/external.py) and a missing framework only skips its variant.
"""
from __future__ import annotations

import importlib
import pkgutil


def discover():
    """Every registered Workload, module by module in alphabetical order, declaration order inside."""
    found, seen = [], set()
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for workload in getattr(module, "WORKLOADS", ()):
            if workload.name in seen:
                raise ValueError(f"Two workloads are named {workload.name!r}")
            seen.add(workload.name)
            found.append(workload)
    return found
