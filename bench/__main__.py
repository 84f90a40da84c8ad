"""`python -m bench [name-filter] [--repeat N] [--quick] [--json out.json] [--tf-python PATH]`."""
from __future__ import annotations

import argparse
import sys

from . import report
from .harness import Settings
from .suite import run_suite, select


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("`")[0] +
                                "Times eagerflow against NumPy (and TensorFlow/JAX/PyTorch when available).")
    p.add_argument("filter", nargs="?", default="", help="run only workloads whose name contains this")
    p.add_argument("--repeat", type=int, default=None, help="timing samples per variant (median reported)")
    p.add_argument("--quick", action="store_true", help="few, short samples: a smoke run, not a measurement")
    p.add_argument("--json", metavar="PATH", help="also write all samples and ratios as JSON")
    p.add_argument("--tf-python", metavar="PYTHON",
                   help="interpreter with TensorFlow installed (e.g. /work/tfvenv/bin/python): runs the "
                        "tensorflow variants there; without it they run here only if TensorFlow imports")
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
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
    if args.json:
        report.write_json(args.json, results, settings, args.quick)
        print(f"\nwrote {args.json}")
    return 1 if any(r.mismatches for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
