"""Selecting workloads and running them: in this process, plus variants timed elsewhere.

`external` maps a variant name to another interpreter (`{"tensorflow": "/work/tfvenv/bin/python"}`):
those variants are not built here at all, they are timed by bench/external.py in that interpreter
after the in-process timings are done (so the two never compete for the CPU), and their outputs
are checked against this process's NumPy outputs like any other variant's.
"""
from __future__ import annotations

from . import harness as H
from .external import run_external
from .workloads import discover


def select(name_filter: str | None = None) -> list:
    """Workloads whose name contains `name_filter` (all of them for None or '')."""
    return [w for w in discover() if not name_filter or name_filter in w.name]


def run_suite(workloads, settings: H.Settings, quick: bool = False, external=None, progress=None) -> list:
    """Runs every workload; returns one WorkloadResult each, in order."""
    external = dict(external or {})
    results = []
    for w in workloads:
        if progress:
            progress(w.name)
        results.append(H.run_workload(w, settings, quick, exclude=set(external)))
    for variant, python in external.items():
        names = [w.name for w in workloads if variant in w.variants]
        if not names:
            continue
        if progress:
            progress(f"{variant} in {python}")
        timings, outputs = run_external(python, [variant], names, settings, quick)
        for r in results:
            for vname, vres in timings.get(r.workload.name, {}).items():
                r.variants[vname] = vres
            for vname, out in outputs.get(r.workload.name, {}).items():
                H.check_output(r, vname, out)
    return results
