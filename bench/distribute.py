"""tf.distribute on MPI: data-parallel fit throughput and the all-reduce's bandwidth (timings only,
never in a unit test).

    python -m bench.distribute [--processes 2] [--steps 20] [--repeats 3] [--megabytes 100]

1. Samples per second of a compute-heavy fit (a small CNN on 28x28 images, global batch 256) under
   MultiWorkerMirroredStrategy with 1 process and with N (`mpiexec -n N`): each worker computes its
   256/N samples and the gradients are all-reduced. Target: N=2 at least 1.6x one process on 2 cores.
   The 1- and N-process runs alternate `--repeats` times and the medians are reported (the ratio's
   median too): on a machine shared with other work single runs move by tens of percent. Each run
   is also measured by its median step (one step's start to the next), which a few steps slowed by
   other work do not move. The share
   of the N-process run's time spent in the all-reduce (waiting for the other worker included) says
   what overlapping it with the backward pass could gain.
2. The all-reduce's bandwidth on a 100 MB float32 buffer: the strategy's collective
   (`StrategyExtended.batch_all_reduce`, packed) against the same in-place `Allreduce` called
   directly through mpi4py. Target: at least 90% of mpi4py's.

Each worker pins its BLAS to one thread, so N processes use N cores. On several machines, run the
same worker program with your MPI launcher, e.g. `mpiexec -hosts a,b -n 2 python -m bench.distribute_worker fit 12`.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _mpiexec():
    beside = Path(sys.executable).parent / "mpiexec"
    return str(beside) if beside.exists() else shutil.which("mpiexec")


def _run(processes, *args):
    env = dict(os.environ, PYTHONPATH=str(REPO), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    done = subprocess.run([_mpiexec(), "-n", str(processes), sys.executable, "-m", "bench.distribute_worker",
                           *map(str, args)], env=env, cwd=REPO, capture_output=True, text=True, timeout=1200)
    if done.returncode:
        raise SystemExit(f"worker failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.distribute", description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20, help="timed training steps (after 3 untimed)")
    parser.add_argument("--repeats", type=int, default=3, help="alternating 1- and N-process runs")
    parser.add_argument("--megabytes", type=int, default=100)
    args = parser.parse_args(argv)
    if _mpiexec() is None:
        raise SystemExit("mpiexec not found: pip install 'eagerflow[distribute]'")
    ones, manys = [], []
    for _ in range(args.repeats):
        ones.append(_run(1, "fit", args.steps))
        manys.append(_run(args.processes, "fit", args.steps))
    for key, what in (("samples_per_s", "whole fit"), ("median_step_samples_per_s", "median step")):
        one = statistics.median(r[key] for r in ones)
        many = statistics.median(r[key] for r in manys)
        ratios = sorted(m[key] / o[key] for o, m in zip(ones, manys))
        print(f"fit, CNN, global batch 256, {what}, median of {args.repeats} runs: 1 process {one:.0f} samples/s, "
              f"{args.processes} processes {many:.0f} samples/s; ratio median {statistics.median(ratios):.2f}x "
              f"(runs {ratios[0]:.2f}-{ratios[-1]:.2f}x; target 1.6x)")
    share = statistics.median(r["collective_share"] for r in manys)
    print(f"all-reduce (waiting for the other workers included): {100 * share:.1f}% of the {args.processes}-process "
          "fit's time")
    bandwidth = _run(args.processes, "allreduce", args.megabytes)
    print(f"all-reduce of {args.megabytes} MB over {args.processes} processes: "
          f"strategy {bandwidth['strategy_gb_s']:.2f} GB/s, mpi4py Allreduce {bandwidth['mpi4py_gb_s']:.2f} GB/s: "
          f"{100 * bandwidth['strategy_gb_s'] / bandwidth['mpi4py_gb_s']:.0f}% (target 90%)")


if __name__ == "__main__":
    main()
