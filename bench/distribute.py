"""tf.distribute on MPI: data-parallel fit throughput and the all-reduce's bandwidth (timings only,
never in a unit test).

    python -m bench.distribute [--processes 2] [--steps 20] [--repeats 3] [--megabytes 100]

1. Samples per second of a compute-heavy fit (a small CNN on 28x28 images, global batch 256) under
   MultiWorkerMirroredStrategy with 1 process and with N (`mpiexec -n N`): each worker computes its
   256/N samples and the gradients are all-reduced. Target: N=2 at least 1.6x one process on 2 cores.
   Each worker runs its BLAS on one thread (the variables are set before NumPy loads), the one
   process of the baseline too: the scaling measured is that of workers with a core each, as
   TensorFlow's multi-worker benchmarks give each worker its device. `--threaded-baseline` adds one
   process whose BLAS uses every core (what a plain `python train.py` gets) for comparison.
   The 1- and N-process runs alternate `--repeats` times and the medians are reported (the ratio's
   median too), with the load average the runs saw: on a machine shared with other work single runs
   move by tens of percent. Each run is also measured by its median step (one step's start to the
   next, which a few steps slowed by other work do not move) and by CPU time: the samples per second
   of CPU time of the slowest worker, which is what the run would reach with a core to each worker
   and nothing else running (waiting for the other worker while it computes costs no CPU time;
   polling for the all-reduce does, so this stays on the safe side). The share of the N-process
   run's time spent in the all-reduce (waiting for the other worker included) says what
   overlapping it with the backward pass could gain.
2. The all-reduce's bandwidth on a 100 MB float32 buffer: the strategy's collective
   (`StrategyExtended.batch_all_reduce`, packed) against the same in-place `Allreduce` called
   directly through mpi4py. Target: at least 90% of mpi4py's.

On several machines, run the same worker program with your MPI launcher, e.g.
`mpiexec -hosts a,b -n 2 python -m bench.distribute_worker fit 20`.
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


def _run(processes, *args, blas_threads=1):
    threads = str(blas_threads)
    env = dict(os.environ, PYTHONPATH=str(REPO), OMP_NUM_THREADS=threads, OPENBLAS_NUM_THREADS=threads,
               MKL_NUM_THREADS=threads)
    load = os.getloadavg()[0]
    done = subprocess.run([_mpiexec(), "-n", str(processes), sys.executable, "-m", "bench.distribute_worker",
                           *map(str, args)], env=env, cwd=REPO, capture_output=True, text=True, timeout=1200)
    if done.returncode:
        raise SystemExit(f"worker failed:\n{done.stdout}\n{done.stderr}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["load"] = (load + os.getloadavg()[0]) / 2
    return result


def _report(what, key, ones, manys, processes):
    one = statistics.median(r[key] for r in ones)
    many = statistics.median(r[key] for r in manys)
    ratios = sorted(m[key] / o[key] for o, m in zip(ones, manys))
    print(f"  {what}: 1 process {one:.0f} samples/s, {processes} processes {many:.0f} samples/s; ratio median "
          f"{statistics.median(ratios):.2f}x (runs {ratios[0]:.2f}-{ratios[-1]:.2f}x; target 1.6x)")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.distribute", description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20, help="timed training steps (after 3 untimed)")
    parser.add_argument("--repeats", type=int, default=3, help="alternating 1- and N-process runs")
    parser.add_argument("--megabytes", type=int, default=100)
    parser.add_argument("--threaded-baseline", action="store_true",
                        help="also run one process whose BLAS uses every core")
    args = parser.parse_args(argv)
    if _mpiexec() is None:
        raise SystemExit("mpiexec not found: pip install 'eagerflow[distribute]'")
    ones, manys, threaded = [], [], []
    for _ in range(args.repeats):
        ones.append(_run(1, "fit", args.steps))
        manys.append(_run(args.processes, "fit", args.steps))
        if args.threaded_baseline:
            threaded.append(_run(1, "fit", args.steps, blas_threads=os.cpu_count()))
    loads = [r["load"] for r in ones + manys + threaded]
    print(f"fit, CNN, global batch 256, medians of {args.repeats} runs (load average {min(loads):.1f}-"
          f"{max(loads):.1f}; BLAS threads per worker: {ones[0]['blas_threads']}):")
    _report("whole fit", "samples_per_s", ones, manys, args.processes)
    _report("median step", "median_step_samples_per_s", ones, manys, args.processes)
    _report("by CPU time, slowest worker", "cpu_samples_per_s", ones, manys, args.processes)
    if threaded:
        one = statistics.median(r["samples_per_s"] for r in threaded)
        many = statistics.median(r["samples_per_s"] for r in manys)
        print(f"  one process with {threaded[0]['blas_threads']} BLAS threads: {one:.0f} samples/s (whole fit); "
              f"{args.processes} processes of one thread are {many / one:.2f}x that")
    share = statistics.median(r["collective_share"] for r in manys)
    print(f"all-reduce (waiting for the other workers included): {100 * share:.1f}% of the {args.processes}-process "
          "fit's time")
    bandwidth = _run(args.processes, "allreduce", args.megabytes)
    print(f"all-reduce of {args.megabytes} MB over {args.processes} processes: "
          f"strategy {bandwidth['strategy_gb_s']:.2f} GB/s, mpi4py Allreduce {bandwidth['mpi4py_gb_s']:.2f} GB/s: "
          f"{100 * bandwidth['strategy_gb_s'] / bandwidth['mpi4py_gb_s']:.0f}% (target 90%)")


if __name__ == "__main__":
    main()
