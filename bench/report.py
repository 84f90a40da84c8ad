"""The printed table and the JSON file, from a list of WorkloadResult.

One row per workload; one time column per variant that was measured anywhere in the run
(NumPy, eagerflow, TensorFlow first, then the rest in the order workloads declare them), then
the ratios that matter: eagerflow / NumPy (our overhead factor), eagerflow - NumPy in µs, and
TensorFlow / eagerflow (how much faster than the original we are), then target and status.
"""
from __future__ import annotations

import json
import platform
import sys

import numpy as np

from .harness import EAGERFLOW, NUMPY, TENSORFLOW

RATIO_COLUMNS = ("eagerflow/numpy", "eagerflow-numpy", "tensorflow/eagerflow")
TAIL_COLUMNS = ("target", "status", "check")


def format_time(ns) -> str:
    if ns is None:
        return "-"
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.2f} ms"
    return f"{ns / 1e9:.2f} s"


def variant_columns(results) -> list:
    """NumPy and eagerflow always (an error shows in the cell), then the other variants that have a
    time in at least one row: TensorFlow first, the rest in the order workloads declare them."""
    measured = []
    for r in results:
        for name, v in r.variants.items():
            if v.median_ns is not None and name not in measured:
                measured.append(name)
    head = [NUMPY, EAGERFLOW] + ([TENSORFLOW] if TENSORFLOW in measured else [])
    return head + [n for n in measured if n not in head]


def columns(results) -> list:
    return ["workload"] + variant_columns(results) + list(RATIO_COLUMNS) + list(TAIL_COLUMNS)


def _cell(result, column):
    if column == "workload":
        return result.workload.name
    if column == "eagerflow/numpy":
        ratio = result.ratio(EAGERFLOW, NUMPY)
        return "-" if ratio is None else f"{ratio:.2f}x"
    if column == "eagerflow-numpy":
        over = result.overhead_us()
        return "-" if over is None else f"{over:+.2f} µs"
    if column == "tensorflow/eagerflow":
        ratio = result.ratio(TENSORFLOW, EAGERFLOW)
        return "-" if ratio is None else f"{ratio:.2f}x"
    if column == "target":
        t = result.workload.target
        return "" if t is None else t.describe()
    if column == "status":
        return result.status
    if column == "check":
        if result.mismatches:
            return "DIFF " + ",".join(result.mismatches)
        return "ok" if result.outputs else "-"
    v = result.variants.get(column)
    if v is not None and v.error:
        return "error"
    return format_time(None if v is None else v.median_ns)


def table_rows(results) -> list:
    """The table as lists of strings, header first (what `format_table` lays out)."""
    cols = columns(results)
    return [cols] + [[_cell(r, c) for c in cols] for r in results]


def format_table(results) -> str:
    rows = table_rows(results)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for k, row in enumerate(rows):
        cells = [cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_notes(results) -> str:
    """Below the table: where variants ran if not here, what was skipped and why (one line per
    reason), and every error in full."""
    elsewhere, skipped, errors = {}, {}, []
    for r in results:
        for name, v in r.variants.items():
            if v.where != "in-process" and not v.error:
                elsewhere.setdefault(name, v.where)
            if v.skipped:
                skipped.setdefault((name, v.skipped), []).append(r.workload.name)
            if v.error:
                errors.append(f"  {r.workload.name} / {name}: {v.error}")
    lines = [f"{name} timed in {where}" for name, where in elsewhere.items()]
    for (name, why), names in skipped.items():
        which = "all workloads" if len(names) == len(results) else ", ".join(names)
        lines.append(f"skipped {name} ({why}): {which}")
    if errors:
        lines.append("errors:")
        lines.extend(errors)
    return "\n".join(lines)


def to_json(results, settings, quick: bool, threads=None) -> dict:
    return {
        "meta": {"python": sys.version.split()[0], "numpy": np.__version__, "platform": platform.platform(),
                 "repeat": settings.repeat, "min_sample_ns": settings.min_sample_ns, "quick": quick,
                 "threads": threads,
                 "statistic": "median of per-call time over repeats"},
        "workloads": [r.to_json() for r in results],
    }


def write_json(path, results, settings, quick: bool, threads=None) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(to_json(results, settings, quick, threads), f, indent=1)
