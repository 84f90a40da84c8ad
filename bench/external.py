"""Timing variants in another Python interpreter (e.g. TensorFlow's venv: `--tf-python`).

Why a subprocess: TensorFlow is not installed in the project's environment, and importing it next
to eagerflow would also disturb our timings (its thread pools, its memory). So the parent runs
this module as `python -m bench.external` in the other interpreter, with the repository on its
PYTHONPATH; the child imports the same workload modules (they import frameworks only inside
their variant factories), times the requested variants with the same harness and settings, and
writes timings plus each variant's output (for the NumPy comparison) to a JSON file.

The child never imports eagerflow unless it is asked for the eagerflow variant.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from . import harness as H

REPO_ROOT = Path(__file__).resolve().parent.parent


def _encode(output):
    if isinstance(output, list):
        return [_encode(o) for o in output]
    return {"dtype": str(output.dtype), "value": output.tolist()}


def _decode(data):
    if isinstance(data, list):
        return [_decode(d) for d in data]
    return np.asarray(data["value"], dtype=data["dtype"])


def run_external(python: str, variants, workload_names, settings: H.Settings, quick: bool,
                 timeout_s: float = 600.0) -> dict:
    """Times `variants` of the named workloads in interpreter `python`. Returns
    {workload: {variant: VariantResult}} and {workload: {variant: output}} as a pair.
    If the interpreter cannot run at all, every requested variant comes back with an error."""
    with tempfile.TemporaryDirectory() as tmp:
        out_path = Path(tmp) / "timings.json"
        cmd = [python, "-m", "bench.external", "--out", str(out_path), "--variants", ",".join(variants),
               "--repeat", str(settings.repeat), "--min-sample-ns", str(settings.min_sample_ns),
               "--warmup", str(settings.warmup_calls)] + (["--quick"] if quick else []) + list(workload_names)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        try:
            proc = subprocess.run(cmd, cwd=str(REPO_ROOT), env=env, capture_output=True, text=True,
                                  timeout=timeout_s)
            failure = None if proc.returncode == 0 and out_path.exists() else (
                f"{python} exited with {proc.returncode}: {proc.stderr.strip()[-500:]}")
        except (OSError, subprocess.TimeoutExpired) as exc:
            failure = f"{python}: {exc}"
        if failure is not None:
            err = {w: {v: H.VariantResult(error=failure, where=python) for v in variants} for w in workload_names}
            return err, {}
        data = json.loads(out_path.read_text())
    results, outputs = {}, {}
    for wname, per_variant in data.items():
        results[wname], outputs[wname] = {}, {}
        for vname, d in per_variant.items():
            results[wname][vname] = H.VariantResult(samples_ns=d.get("samples_ns", []), number=d.get("number", 0),
                                                    skipped=d.get("skipped"), error=d.get("error"), where=python)
            if "output" in d:
                outputs[wname][vname] = _decode(d["output"])
    return results, outputs


def _worker(argv=None) -> int:
    """The child side: time the requested variants of the named workloads, write JSON."""
    from .workloads import discover

    p = argparse.ArgumentParser(prog="python -m bench.external")
    p.add_argument("names", nargs="*")
    p.add_argument("--out", required=True)
    p.add_argument("--variants", required=True)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--min-sample-ns", type=int, default=20_000_000)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    settings = H.Settings(args.repeat, args.min_sample_ns, args.warmup)
    wanted = set(args.variants.split(","))
    by_name = {w.name: w for w in discover()}
    report = {}
    for name in args.names:
        workload = by_name[name]
        fns, results = H.build_variants(workload, args.quick, wanted & set(workload.variants))
        entry = {vname: r.to_json() for vname, r in results.items()}
        for vname, fn in list(fns.items()):
            try:
                entry[vname]["output"] = _encode(H.to_numpy(fn()))
            except Exception as exc:
                entry[vname] = {"error": f"{type(exc).__name__}: {exc}"}
                del fns[vname]
        for vname, (samples, number) in H.time_callables(fns, settings).items():
            entry[vname].update(samples_ns=samples, number=number)
        report[name] = entry
    Path(args.out).write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(_worker())
