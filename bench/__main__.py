"""`python -m bench [name-filter] [--repeat N] [--quick] [--json out.json] [--tf-python PATH] [--threads N]`.

Thread pools are pinned (default: one thread) before NumPy is imported, because a multi-threaded
BLAS on a shared or small machine turns a 0.2 ms matmul into tens of milliseconds of spinning, and
because per-op overhead should be compared single-threaded in every framework. The same variables
reach the TensorFlow subprocess (TF reads TF_NUM_INTRAOP_THREADS / TF_NUM_INTEROP_THREADS).
"""
from __future__ import annotations

import argparse
import os
import sys

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS")


def pin_threads(n: int) -> None:
    """Sets every thread-pool size variable to n (0: leave the environment as it is). Effective
    only before NumPy / TensorFlow are first imported in a process."""
    if n > 0:
        for var in THREAD_VARIABLES:
            os.environ[var] = str(n)


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench", description="Times eagerflow against a NumPy floor (and TensorFlow, JAX, PyTorch when available); "
                                            "prints per-call medians and ratios.")
    p.add_argument("filter", nargs="?", default="", help="run only workloads whose name contains this")
    p.add_argument("--repeat", type=int, default=None, help="timing samples per variant (median reported)")
    p.add_argument("--quick", action="store_true", help="few, short samples: a smoke run, not a measurement")
    p.add_argument("--json", metavar="PATH", help="also write all samples and ratios as JSON")
    p.add_argument("--tf-python", metavar="PYTHON",
                   help="interpreter with TensorFlow installed (e.g. /work/tfvenv/bin/python): runs the "
                        "tensorflow variants there; without it they run here only if TensorFlow imports")
    p.add_argument("--threads", type=int, default=1,
                   help="threads for BLAS and TensorFlow's pools (default 1; 0 keeps library defaults)")
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    pin_threads(args.threads)
    from . import report  # imports NumPy: after the thread variables are set
    from .harness import Settings
    from .suite import run_suite, select

    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")  # 'µs' on a terminal that cannot print it
    workloads = select(args.filter)
    if args.list:
        for w in workloads:
            print(f"{w.name:20s} {w.description}")
        return 0
    if not workloads:
        print(f"no workload matches {args.filter!r}", file=sys.stderr)
        return 2
    settings = Settings.make(args.quick, args.repeat)
    external = {"tensorflow": args.tf_python} if args.tf_python else None
    progress = lambda what: print(f"  timing {what} ...", file=sys.stderr, flush=True)  # noqa: E731
    results = run_suite(workloads, settings, args.quick, external, progress)
    print(report.format_table(results))
    notes = report.format_notes(results)
    if notes:
        print()
        print(notes)
    if not args.filter or args.filter in "function/varlen":  # counts and memory, not times
        from .workloads import function as fn_workloads
        rows = {"eagerflow": fn_workloads.varlen_report(args.quick)}
        if args.tf_python:
            rows["tensorflow"] = fn_workloads.varlen_external(args.tf_python, args.quick)
        print()
        print(fn_workloads.format_varlen(rows))
    if args.json:
        report.write_json(args.json, results, settings, args.quick, threads=args.threads)
        print(f"\nwrote {args.json}")
    return 1 if any(r.mismatches for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
