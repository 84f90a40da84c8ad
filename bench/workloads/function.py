"""`tf.function`: what a compiled call costs, what tracing costs, and how often it happens.

Rows of the table (each against a hand-written NumPy floor doing the same math, and TensorFlow
through `--tf-python`; eagerflow and TensorFlow run the very same program):

* `function/cached-call`: `relu(matmul(a, b) + 1.0)` on 2x2 float32, already traced. The kernels
  are nearly free, so the ratio is the price of the call path (trace key, cache lookup, generated
  code, output wrapping). Target: at most 1.5x `np.maximum(a @ b + 1.0, 0)` (issue 7; it was 2x).
* `function/cached-call-guarded`: the same call reading its `+ 1.0` from a Python global, which
  the trace freezes: every call checks that the global still holds the traced value (stale-capture
  detection, trace/stale.py, on by default). Target: at most 1.1x the same call with the check
  removed (`eagerflow-unguarded`; issue 13).
* `function/first-call`: a fresh `tf.function` of a 10-op function, called once: tracing, passes,
  code generation and the run. Target: under 5 ms (expressed as at most +5000 µs over NumPy, whose
  time for the same math is a few µs).
* `function/retrace`: one long-lived function called with a shape it has not seen (the batch size
  grows by one per call), so every call traces again. Target: under 3 ms (+3000 µs over NumPy).
  Every row of the input is the same, so the result does not depend on the batch size and the
  outputs stay comparable call after call.
* `function/mlp-adam-step`: one training step of a 784-128-10 MLP (ReLU, sparse softmax
  cross-entropy, mean loss) with hand-written Adam on `tf.Variable`s, tape inside the function,
  batch 32. Target: at most 1.3x the NumPy forward/backward/Adam step.
* `function/mlp-adam-step-b256`: the same step at batch 256, where the kernels dominate and the
  graph's own overhead (extra temporaries, redundant ops) shows. Target: at most 1.1x (issue 12).

The variable-length study (2,000 calls on shapes (1, L, 128), L random in 10..500) counts traces
and resident-memory growth, not time, so it is not a timed row: `varlen_report()` measures it and
`python -m bench.workloads.function [--quick] [--tf-python PATH]` prints it. The cache-explosion
study beside it (`explosion_report()`, 10,000 such calls, no signature, the default bound of 256
traces) prints resident memory every 1,000 calls: it grows while the cache fills and stays flat
once eviction keeps it at the bound.

Like every workload module, this one imports only the standard library, NumPy and the harness at
the top, so it also loads in TensorFlow's interpreter.
"""
from __future__ import annotations

import argparse
import functools
import gc
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from ..harness import Workload, overhead_at_most, ratio_at_most

FRAMEWORKS = ("eagerflow", "tensorflow")


def _framework(name):
    if name == "eagerflow":
        import eagerflow as tf
    else:
        import tensorflow as tf
    return tf


def _quiet_retracing_warnings(tf) -> None:
    """The retrace row retraces on purpose: the 'triggered tf.function retracing' advice would
    flood the bench's stderr, so it is filtered (only that message, only from the framework)."""
    class _Drop(logging.Filter):
        def filter(self, record):
            return "retracing" not in str(record.msg)
    for name in ("eagerflow", "tensorflow"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _Drop) for f in logger.filters):
            logger.addFilter(_Drop())
    if tf.__name__ == "tensorflow":
        tf.get_logger().addFilter(_Drop())


# ----------------------------------------------------------------------------------------------
# (a) a cached call
# ----------------------------------------------------------------------------------------------


def _small(quick):
    rng = np.random.default_rng(0)
    return {"a": rng.standard_normal((2, 2)).astype(np.float32),
            "b": rng.standard_normal((2, 2)).astype(np.float32)}


def _cached_numpy(p):
    a, b = p["a"], p["b"]
    return lambda: np.maximum(a @ b + 1.0, 0)


def _cached(framework):
    def factory(p):
        tf = _framework(framework)
        a, b = tf.constant(p["a"]), tf.constant(p["b"])

        @tf.function
        def simple(a, b):
            return tf.nn.relu(tf.matmul(a, b) + 1.0)

        simple(a, b)  # trace outside the timed loop
        return lambda: simple(a, b)
    return factory


OFFSET = 1.0  # a Python global the guarded workload's trace freezes


def _guarded(framework, check=True):
    def factory(p):
        tf = _framework(framework)
        a, b = tf.constant(p["a"]), tf.constant(p["b"])

        @tf.function
        def guarded(a, b):
            return tf.nn.relu(tf.matmul(a, b) + OFFSET)

        guarded(a, b)  # trace outside the timed loop
        if not check:  # the same trace without its guards: what the call costs with detection off
            for cf in guarded._list_all_concrete_functions():
                assert cf._guards is not None, "the trace should guard OFFSET"
                cf._guards = None
        return lambda: guarded(a, b)
    return factory


# ----------------------------------------------------------------------------------------------
# (b) tracing: a first call, and a retrace
# ----------------------------------------------------------------------------------------------

ROWS, FEATURES = 8, 16


def _trace_inputs(quick):
    rng = np.random.default_rng(1)
    return {"x": rng.standard_normal((ROWS, FEATURES)).astype(np.float32),
            "row": rng.standard_normal((1, FEATURES)).astype(np.float32),
            "w": (rng.standard_normal((FEATURES, FEATURES)) * 0.3).astype(np.float32),
            "b": rng.standard_normal(FEATURES).astype(np.float32) * 0.1}


def _ten_ops(tf):
    """Ten ops: matmul, add, relu, mul, sub, square, sum, add, sqrt, mean."""
    def ten_ops(x, w, b):
        h = tf.nn.relu(tf.matmul(x, w) + b)
        h = h * 0.5 - 0.1
        norms = tf.sqrt(tf.reduce_sum(tf.square(h), axis=1) + 1e-6)
        return tf.reduce_mean(norms)
    return ten_ops


def _ten_ops_numpy(x, w, b):
    h = np.maximum(x @ w + b, 0)
    h = h * np.float32(0.5) - np.float32(0.1)
    norms = np.sqrt(np.sum(np.square(h), axis=1) + np.float32(1e-6))
    return np.mean(norms)


def _first_call_numpy(p):
    x, w, b = p["x"], p["w"], p["b"]
    return lambda: _ten_ops_numpy(x, w, b)


def _first_call(framework):
    def factory(p):
        tf = _framework(framework)
        _quiet_retracing_warnings(tf)
        x, w, b = (tf.constant(p[k]) for k in ("x", "w", "b"))
        python_function = _ten_ops(tf)
        return lambda: tf.function(python_function)(x, w, b)  # a fresh Function: always traces
    return factory


def _batch_sizes():
    """1, 2, 3, ...: every call of the retrace row sees a batch size it has not seen before."""
    n = 0
    while True:
        n += 1
        yield n


def _retrace_numpy(p):
    """The same math on batch sizes cycling through 1..128: NumPy is called far more often than
    the retracing variants while timing, and an ever-growing batch would bill it for big inputs
    (the retrace variants reach about that size in a full run)."""
    row, w, b = p["row"], p["w"], p["b"]
    sizes = (n % 128 + 1 for n in range(1 << 62))
    return lambda: _ten_ops_numpy(np.repeat(row, next(sizes), axis=0), w, b)


def _retrace(framework):
    def factory(p):
        tf = _framework(framework)
        _quiet_retracing_warnings(tf)
        row, w, b = p["row"], tf.constant(p["w"]), tf.constant(p["b"])
        f = tf.function(_ten_ops(tf))
        f(tf.constant(row), w, b)  # the function exists and has traced once before timing
        sizes = _batch_sizes()
        next(sizes)

        def call():
            return f(tf.constant(np.repeat(row, next(sizes), axis=0)), w, b)
        return call
    return factory


# ----------------------------------------------------------------------------------------------
# (c) an MLP training step with Adam
# ----------------------------------------------------------------------------------------------

IN, HIDDEN, OUT = 784, 128, 10
LR, BETA1, BETA2, EPSILON = 1e-3, 0.9, 0.999, 1e-7


def _mlp_inputs(batch, quick):
    rng = np.random.default_rng(0)
    f32 = np.float32
    return {
        "x": rng.random((batch, IN), dtype=f32),
        "y": rng.integers(0, OUT, batch).astype(np.int32),
        "w1": (rng.standard_normal((IN, HIDDEN)) * np.sqrt(2.0 / IN)).astype(f32),
        "b1": (rng.standard_normal(HIDDEN) * 0.01).astype(f32),
        "w2": (rng.standard_normal((HIDDEN, OUT)) * np.sqrt(2.0 / HIDDEN)).astype(f32),
        "b2": (rng.standard_normal(OUT) * 0.01).astype(f32),
    }


PARAMS = ("w1", "b1", "w2", "b2")


def _adam_numpy(p):
    """The floor: forward, backward and Adam by hand, as a NumPy programmer writes them (new
    arrays per expression, like the graph's kernels; state rebound, never mutated in place, so a
    returned array keeps its value)."""
    f32 = np.float32
    x, y = p["x"], p["y"]
    state = {k: p[k].copy() for k in PARAMS}
    state.update({"m_" + k: np.zeros_like(p[k]) for k in PARAMS})
    state.update({"v_" + k: np.zeros_like(p[k]) for k in PARAMS})
    state["t"] = f32(0)
    batch = len(y)
    rows = np.arange(batch)
    lr, b1, b2, eps = f32(LR), f32(BETA1), f32(BETA2), f32(EPSILON)
    one = f32(1)

    def step():
        s = state
        w1, bias1, w2, bias2 = s["w1"], s["b1"], s["w2"], s["b2"]
        z = x @ w1 + bias1
        h = np.maximum(z, f32(0))
        logits = h @ w2 + bias2
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        total = e.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(total[:, 0]) - shifted[rows, y])
        d_logits = e / total
        d_logits[rows, y] -= one
        d_logits *= f32(1.0 / batch)
        d_h = d_logits @ w2.T
        d_z = d_h * (z > 0)
        grads = {"w1": x.T @ d_z, "b1": d_z.sum(axis=0), "w2": h.T @ d_logits, "b2": d_logits.sum(axis=0)}
        t = s["t"] = s["t"] + one
        alpha = lr * np.sqrt(one - b2 ** t) / (one - b1 ** t)
        for k in PARAMS:
            g = grads[k]
            m = s["m_" + k] = b1 * s["m_" + k] + (one - b1) * g
            v = s["v_" + k] = b2 * s["v_" + k] + (one - b2) * np.square(g)
            s[k] = s[k] - alpha * m / (np.sqrt(v) + eps)
        return loss, s["w2"], s["m_w1"], s["v_b1"]
    return step


def _adam(framework):
    """The same step in TensorFlow's API: Variables for the weights and Adam's m, v and step
    count, updated with `assign`; the tape is inside the function."""
    def factory(p):
        tf = _framework(framework)
        x, y = tf.constant(p["x"]), tf.constant(p["y"])
        params = [tf.Variable(p[k].copy(), name=k) for k in PARAMS]
        ms = [tf.Variable(np.zeros_like(p[k]), name="m_" + k) for k in PARAMS]
        vs = [tf.Variable(np.zeros_like(p[k]), name="v_" + k) for k in PARAMS]
        step_count = tf.Variable(0.0, name="step")

        @tf.function
        def train_step(x, y):
            w1, b1, w2, b2 = params
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(x, w1) + b1)
                logits = tf.matmul(h, w2) + b2
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
            grads = tape.gradient(loss, params)
            t = step_count.assign_add(1.0)
            alpha = LR * tf.sqrt(1.0 - tf.pow(BETA2, t)) / (1.0 - tf.pow(BETA1, t))
            for var, g, m, v in zip(params, grads, ms, vs):
                m_new = BETA1 * m + (1.0 - BETA1) * g
                v_new = BETA2 * v + (1.0 - BETA2) * tf.square(g)
                m.assign(m_new)
                v.assign(v_new)
                var.assign_sub(alpha * m_new / (tf.sqrt(v_new) + EPSILON))
            return loss

        w2, m_w1, v_b1 = params[2], ms[0], vs[1]
        return lambda: (train_step(x, y), w2, m_w1, v_b1)
    return factory


def _variants(numpy_factory, make):
    return {"numpy": numpy_factory, **{fw: make(fw) for fw in FRAMEWORKS}}


WORKLOADS = [
    Workload(name="function/cached-call", setup=_small, variants=_variants(_cached_numpy, _cached),
             target=ratio_at_most(1.5),
             description="cached tf.function call relu(matmul(a, b) + 1.0), 2x2 float32"),
    Workload(name="function/cached-call-guarded", setup=_small,
             variants={**_variants(_cached_numpy, _guarded), "eagerflow-unguarded": _guarded("eagerflow", False)},
             target=ratio_at_most(1.1, baseline="eagerflow-unguarded"),
             description="cached call reading a frozen Python global, checked vs unchecked (stale captures)"),
    Workload(name="function/first-call", setup=_trace_inputs, variants=_variants(_first_call_numpy, _first_call),
             target=overhead_at_most(5000.0),
             description="fresh tf.function of a 10-op function: trace + passes + codegen + run (< 5 ms)"),
    Workload(name="function/retrace", setup=_trace_inputs, variants=_variants(_retrace_numpy, _retrace),
             target=overhead_at_most(3000.0),
             description="existing tf.function called with a new batch size each call (< 3 ms)"),
    Workload(name="function/mlp-adam-step", setup=functools.partial(_mlp_inputs, 32),
             variants=_variants(_adam_numpy, _adam), target=ratio_at_most(1.3), rtol=1e-4, atol=1e-6,
             description="tf.function train step: MLP 784-128-10, sparse softmax CE, Adam, batch 32"),
    Workload(name="function/mlp-adam-step-b256", setup=functools.partial(_mlp_inputs, 256),
             variants=_variants(_adam_numpy, _adam), target=ratio_at_most(1.1), rtol=1e-4, atol=1e-6,
             description="the same train step at batch 256 (issue 12: at most 1.1x)"),
]
# Workloads whose calls change state (variables, a growing shape counter): two calls return
# different values, identical between eagerflow and NumPy call for call.
STATEFUL = {"function/retrace", "function/mlp-adam-step", "function/mlp-adam-step-b256"}


# ----------------------------------------------------------------------------------------------
# (d) variable-length inputs: trace counts and memory
# ----------------------------------------------------------------------------------------------

VARLEN_CALLS, VARLEN_CALLS_QUICK = 2000, 300
MIN_LEN, MAX_LEN, DEPTH, UNITS = 10, 500, 128, 32
# (name, tf.function keyword arguments as a function of tf, the most traces expected or None)
VARLEN_VARIANTS = (
    ("no signature", lambda tf: {}, None),
    ("input_signature [None, None, 128]",
     lambda tf: {"input_signature": [tf.TensorSpec([None, None, DEPTH], tf.float32)]}, 1),
    ("reduce_retracing=True", lambda tf: {"reduce_retracing": True}, 2),
)


def resident_bytes() -> int:
    """Current resident set size: /proc/self/statm where there is one (it goes down as well as
    up), else the peak from getrusage (kilobytes on Linux, bytes on macOS)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def varlen_lengths(calls: int) -> list:
    return np.random.default_rng(7).integers(MIN_LEN, MAX_LEN + 1, calls).tolist()


def varlen_report(quick: bool = False, framework: str = "eagerflow") -> list:
    """Runs the variable-length stream once per variant in this process. Returns one dict per
    variant: calls, distinct lengths, traces, the expected bound, wall time of all the calls,
    resident growth (bytes), and the results against NumPy (max relative difference)."""
    tf = _framework(framework)
    _quiet_retracing_warnings(tf)
    calls = VARLEN_CALLS_QUICK if quick else VARLEN_CALLS
    lengths = varlen_lengths(calls)
    rng = np.random.default_rng(8)
    w_np = (rng.standard_normal((DEPTH, UNITS)) * 0.1).astype(np.float32)
    base = rng.standard_normal((1, MAX_LEN, DEPTH)).astype(np.float32)
    expected = np.array([np.mean(np.tanh(base[:, :n] @ w_np)) for n in lengths], np.float32)
    inputs = [tf.constant(base[:, :n]) for n in lengths]
    w = tf.constant(w_np)
    rows = []
    for name, options, bound in VARLEN_VARIANTS:
        f = tf.function(lambda x: tf.reduce_mean(tf.tanh(x @ w)), **options(tf))
        gc.collect()
        before = resident_bytes()
        start = time.perf_counter()
        results = [f(x) for x in inputs]
        seconds = time.perf_counter() - start
        gc.collect()
        growth = resident_bytes() - before
        got = np.array([float(r.numpy()) for r in results], np.float32)
        rows.append({"variant": name, "calls": calls, "distinct_lengths": len(set(lengths)),
                     "traces": f.experimental_get_tracing_count(), "expected_at_most": bound,
                     "seconds": seconds, "resident_growth_bytes": growth,
                     "max_rel_diff_vs_numpy": float(np.max(np.abs(got - expected) / np.maximum(np.abs(expected), 1e-6)))})
        del f, results
    return rows


EXPLOSION_CALLS, EXPLOSION_CALLS_QUICK, EXPLOSION_STEP = 10_000, 2_000, 1_000


def explosion_report(quick: bool = False, calls: int | None = None, step: int = EXPLOSION_STEP) -> list:
    """The cache-explosion stream: `calls` calls of one tf.function without a signature on shapes
    (1, L, 128), L random in 10..500 (more distinct shapes than the default bound keeps). One row
    per `step` calls: traces so far, traces kept, evictions, resident growth since the start.
    eagerflow only (the bound and cache_info are eagerflow's)."""
    tf = _framework("eagerflow")
    _quiet_retracing_warnings(tf)
    calls = calls or (EXPLOSION_CALLS_QUICK if quick else EXPLOSION_CALLS)
    lengths = np.random.default_rng(9).integers(MIN_LEN, MAX_LEN + 1, calls).tolist()
    rng = np.random.default_rng(10)
    w = tf.constant((rng.standard_normal((DEPTH, UNITS)) * 0.1).astype(np.float32))
    base = rng.standard_normal((1, MAX_LEN, DEPTH)).astype(np.float32)
    f = tf.function(lambda x: tf.reduce_mean(tf.tanh(x @ w)))
    gc.collect()
    before = resident_bytes()
    rows = []
    for i, n in enumerate(lengths, 1):
        f(tf.constant(base[:, :n]))
        if i % step == 0 or i == calls:
            gc.collect()
            info = f.cache_info()
            rows.append({"calls": i, "traces": f.experimental_get_tracing_count(), "kept": info.currsize,
                         "maxsize": info.maxsize, "evictions": info.evictions,
                         "resident_growth_bytes": resident_bytes() - before})
    return rows


def format_explosion(rows: list) -> str:
    lines = [f"{'calls':>6}  {'traces':>6}  {'kept':>5}  {'evicted':>7}  {'RSS growth':>10}"]
    for r in rows:
        lines.append(f"{r['calls']:>6}  {r['traces']:>6}  {r['kept']:>5}  {r['evictions']:>7}  "
                     f"{r['resident_growth_bytes'] / 2**20:>+9.1f}M")
    return "\n".join(lines)


def varlen_external(python: str, quick: bool, timeout_s: float = 600.0) -> list:
    """`varlen_report` for TensorFlow, run in its interpreter (as bench/external.py does)."""
    repo = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "varlen.json"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(repo)] + [p for p in [env.get("PYTHONPATH")] if p])
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        cmd = [python, "-m", "bench.workloads.function", "--framework", "tensorflow", "--json", str(out)]
        proc = subprocess.run(cmd + (["--quick"] if quick else []), cwd=str(repo), env=env,
                              capture_output=True, text=True, timeout=timeout_s)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"{python} exited with {proc.returncode}: {proc.stderr.strip()[-500:]}")
        return json.loads(out.read_text())


def format_varlen(rows_by_framework: dict) -> str:
    """The count table: one line per framework and variant."""
    header = ["framework", "variant", "calls", "lengths", "traces", "expected", "time", "RSS growth", "check"]
    lines = [header]
    for framework, rows in rows_by_framework.items():
        for r in rows:
            bound = r["expected_at_most"]
            ok = bound is None or r["traces"] <= bound
            verdict = ("ok" if r["max_rel_diff_vs_numpy"] <= 1e-4 else "DIFF") + ("" if ok else " TOO MANY TRACES")
            lines.append([framework, r["variant"], str(r["calls"]), str(r["distinct_lengths"]), str(r["traces"]),
                          "-" if bound is None else f"<= {bound}", f"{r['seconds']:.2f} s",
                          f"{r['resident_growth_bytes'] / 2**20:+.1f} MiB", verdict])
    widths = [max(len(row[i]) for row in lines) for i in range(len(header))]
    text = []
    for k, row in enumerate(lines):
        text.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if k == 0:
            text.append("  ".join("-" * w for w in widths))
    return "\n".join(text)


def main(argv=None) -> int:
    """`python -m bench.workloads.function [--quick] [--tf-python PATH]`: the variable-length
    trace-count table (`--framework`/`--json` are how the TensorFlow side is run)."""
    p = argparse.ArgumentParser(prog="python -m bench.workloads.function")
    p.add_argument("--quick", action="store_true", help=f"{VARLEN_CALLS_QUICK} calls instead of {VARLEN_CALLS}")
    p.add_argument("--tf-python", metavar="PYTHON", help="also run the TensorFlow side in this interpreter")
    p.add_argument("--framework", default="eagerflow", choices=FRAMEWORKS)
    p.add_argument("--json", metavar="PATH", help="write this framework's rows as JSON (no table)")
    args = p.parse_args(argv)
    if args.json:
        Path(args.json).write_text(json.dumps(varlen_report(args.quick, args.framework)))
        return 0
    rows = {args.framework: varlen_report(args.quick, args.framework)}
    if args.tf_python:
        try:
            rows["tensorflow"] = varlen_external(args.tf_python, args.quick)
        except (OSError, RuntimeError, subprocess.TimeoutExpired) as exc:
            print(f"tensorflow side failed: {exc}", file=sys.stderr)
    print(f"tf.function on shapes (1, L, {DEPTH}), L random in {MIN_LEN}..{MAX_LEN}: traces and resident growth")
    print(format_varlen(rows))
    if args.framework == "eagerflow":
        explosion = explosion_report(args.quick)
        print(f"\ncache explosion: {explosion[-1]['calls']} calls, no signature, at most {explosion[-1]['maxsize']} "
              f"traces kept (tf.config.set_function_max_traces)")
        print(format_explosion(explosion))
    return 0


if __name__ == "__main__":
    sys.exit(main())
