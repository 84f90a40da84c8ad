"""`python -m bench.jit_shapes [--tf-python PATH] [--calls N] [--lengths K]`: jit under many shapes.

One `jit_compile=True` function (a dense layer and a reduction over a variable-length batch,
`x: [length, 16]`) called `--calls` times with `--lengths` distinct lengths (every length once,
then random ones), in a fresh process per variant, so each starts from the same state:
* `eagerflow` and `eagerflow-relaxed` (`reduce_retracing=True`: one trace with a `None` length,
  one XLA executable per length); `eagerflow-bound64` with `experimental_max_traces=64` (evicted
  traces free their executables: memory bounded, lengths compiled again when they come back);
* `tensorflow` and `tensorflow-relaxed`, the same program under TensorFlow's XLA (`--tf-python`);
* `jax`: the same math under `jax.jit`.
Columns: traces (Python runs of the function body), XLA compiles (JAX's compile events; for
TensorFlow its compilation profiler's log lines), resident memory growth over the loop (MB, from
/proc/self/statm, after a first call has loaded everything) and the loop's wall time (s).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

VARIANTS = ("eagerflow", "eagerflow-relaxed", "eagerflow-bound64", "tensorflow", "tensorflow-relaxed", "jax")
FEATURES, UNITS = 16, 32


def lengths(calls, distinct, seed=0):
    """`calls` lengths with exactly `distinct` different values 1..distinct, in a random order."""
    import numpy as np
    rng = np.random.default_rng(seed)
    values = np.concatenate([np.arange(1, distinct + 1), rng.integers(1, distinct + 1, calls - distinct)])
    rng.shuffle(values)
    return [int(v) for v in values]


def _rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _jax_compile_counter():
    import jax.monitoring
    count = [0]

    def on_event(event, duration, **_):
        if event == "/jax/core/compile/backend_compile_duration":
            count[0] += 1
    jax.monitoring.register_event_duration_secs_listener(on_event)
    return count


def _make(variant):
    """(function of a NumPy batch, traces counter, compiles counter or None)."""
    import numpy as np
    rng = np.random.default_rng(1)
    w = rng.standard_normal((FEATURES, UNITS)).astype(np.float32)
    b = rng.standard_normal(UNITS).astype(np.float32)
    traces = [0]
    if variant == "jax":
        import jax
        import jax.numpy as jnp
        compiles = _jax_compile_counter()

        @jax.jit
        def step(x):
            traces[0] += 1
            return jnp.sum(jnp.tanh(x @ w + b), axis=0)
        return (lambda x: step(x).block_until_ready()), traces, compiles
    if variant.startswith("tensorflow"):
        import tensorflow as tf
        compiles = None
    else:
        import eagerflow as tf
        compiles = _jax_compile_counter()
    wt, bt = tf.constant(w), tf.constant(b)

    bound = {"experimental_max_traces": 64} if variant == "eagerflow-bound64" else {}

    @tf.function(jit_compile=True, reduce_retracing=variant.endswith("-relaxed"), **bound)
    def step(x):
        traces[0] += 1
        return tf.reduce_sum(tf.tanh(tf.matmul(x, wt) + bt), axis=0)
    return (lambda x: step(tf.constant(x)).numpy()), traces, compiles


def run_variant(variant, calls, distinct):
    import numpy as np
    step, traces, compiles = _make(variant)
    batches = {n: np.ones((n, FEATURES), np.float32) for n in range(1, distinct + 1)}
    step(batches[1])
    start_rss, start = _rss_mb(), time.perf_counter()
    for n in lengths(calls, distinct):
        step(batches[n])
    seconds = time.perf_counter() - start
    return {"traces": traces[0], "compiles": compiles[0] if compiles is not None else None,
            "rss_mb": round(_rss_mb() - start_rss, 1), "seconds": round(seconds, 2)}


def _child(python, variant, args):
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root), TF_CPP_MIN_LOG_LEVEL="0",
               TF_CPP_VMODULE="device_compilation_profiler=1")
    proc = subprocess.run([python, "-m", "bench.jit_shapes", "--child", variant, "--calls", str(args.calls),
                           "--lengths", str(args.lengths)], cwd=str(root), env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-300:]}
    row = json.loads(proc.stdout.strip().splitlines()[-1])
    if row["compiles"] is None:  # TensorFlow: its XLA compilation profiler logs one line per compile
        row["compiles"] = sum("device_compilation_profiler" in line and "Compiled __inference" in line
                              for line in proc.stderr.splitlines())
    return row


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.jit_shapes", description=__doc__.split("\n\n")[0])
    p.add_argument("--tf-python", metavar="PYTHON", help="interpreter with TensorFlow for the tensorflow rows")
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--lengths", type=int, default=478)
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        import logging
        import warnings
        logging.getLogger("eagerflow").setLevel(logging.ERROR)  # the retracing advice, once per function
        warnings.simplefilter("ignore")
        print(json.dumps(run_variant(args.child, args.calls, args.lengths)))
        return 0
    print(f"{args.calls} calls, {args.lengths} distinct lengths")
    print(f"{'variant':20s}{'traces':>8s}{'compiles':>10s}{'RSS +MB':>10s}{'seconds':>9s}")
    for variant in (v for v in args.variants.split(",") if v):
        python = args.tf_python if variant.startswith("tensorflow") else sys.executable
        if python is None:
            continue
        row = _child(python, variant, args)
        if "error" in row:
            print(f"{variant:20s} failed: {row['error']}")
            continue
        print(f"{variant:20s}{row['traces']:8d}{row['compiles']:10d}{row['rss_mb']:10.1f}{row['seconds']:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
