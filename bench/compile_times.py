"""`python -m bench.compile_times [--tf-python PATH] [--repeat N]`: the first call of each XLA workload.

For the workloads of bench/workloads/xla.py, the time a variant's factory takes: it builds the
function and calls it once, so for `eagerflow` (jit_compile=True) this is trace + passes + JAX
lowering + XLA compile + one run; for `jax` jax.jit's trace + compile + one run; for `tensorflow`
TensorFlow's trace + XLA compile + one run (in `--tf-python`'s interpreter, or here when TensorFlow
imports). Framework imports happen before timing. Median of `--repeat` fresh builds, in ms.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

VARIANTS = ("jax", "eagerflow", "tensorflow")


def _importable(variant):
    try:
        if variant in ("jax", "eagerflow"):
            import jax  # noqa: F401 - eagerflow's jit_compile needs it too
        if variant == "eagerflow":
            import eagerflow  # noqa: F401
        if variant == "tensorflow":
            import tensorflow  # noqa: F401
        return True
    except ImportError:
        return False


def measure(variants, repeat):
    """{workload: {variant: median first-call ms}} for the variants importable here."""
    from .workloads import xla
    results = {}
    for workload in xla.WORKLOADS:
        inputs = workload.setup(False)
        row = results.setdefault(workload.name, {})
        for variant in variants:
            if not _importable(variant):
                continue
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                workload.variants[variant](inputs)
                times.append((time.perf_counter() - start) * 1e3)
            row[variant] = statistics.median(times)
    return results


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.compile_times", description=__doc__.split("\n\n")[0])
    p.add_argument("--tf-python", metavar="PYTHON", help="interpreter with TensorFlow for the tensorflow column")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--variants", default=",".join(VARIANTS), help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the child's output format
    args = p.parse_args(argv)
    wanted = [v for v in args.variants.split(",") if v]
    here = [v for v in wanted if not (v == "tensorflow" and args.tf_python)]
    results = measure(here, args.repeat)
    if args.tf_python and "tensorflow" in wanted:
        root = Path(__file__).resolve().parent.parent
        env = dict(os.environ, PYTHONPATH=str(root), TF_CPP_MIN_LOG_LEVEL="3")
        proc = subprocess.run([args.tf_python, "-m", "bench.compile_times", "--variants", "tensorflow", "--json",
                               "--repeat", str(args.repeat)], cwd=str(root), env=env, capture_output=True, text=True)
        if proc.returncode == 0:
            for name, row in json.loads(proc.stdout.strip().splitlines()[-1]).items():
                results.setdefault(name, {}).update(row)
        else:
            print(f"tensorflow column skipped: {proc.stderr.strip()[-300:]}", file=sys.stderr)
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"{'first call (ms)':28s}" + "".join(f"{v:>12s}" for v in VARIANTS))
    for name, row in results.items():
        print(f"{name:28s}" + "".join(f"{row[v]:12.1f}" if v in row else f"{'-':>12s}" for v in VARIANTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
