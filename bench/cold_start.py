"""Serving a TensorFlow-written SavedModel: eagerflow beside TensorFlow 2.21, each in fresh processes.

    python -m bench.cold_start [--tf-python PATH] [--runs 5] [--models DIR] [--json out.json]

Two Keras 3 models are exported by TensorFlow (`model.export`): an MLP (784-256-128-10) and a small
CNN (28x28x1, two Conv2D, BatchNormalization, pooling, Dropout, Dense). For each model and framework,
every run is a new interpreter that measures itself with `perf_counter`:
  (a) cold start: `import numpy`, `import <framework>`, `tf.saved_model.load`, the first prediction
      of `serving_default` at batch 1 (what a serverless function or a CLI pays on every start);
  (b) latency of `serving_default` at batch 1 and batch 64 (median of many calls, output read back
      with `.numpy()`), after a few warm-up calls;
  (c) resident memory (VmRSS) right after loading.
The child program is the same for both frameworks (`import eagerflow as tf` or `import tensorflow as
tf`); bytecode caching is on, as after `pip install`, and one untimed run fills the caches first.

TensorFlow's interpreter comes from --tf-python or the EAGERFLOW_TF_PYTHON variable (as for the other
benches and tests/interop). Without it the models are exported by eagerflow's own Keras (TensorFlow's
format too) and only eagerflow's column is shown. Targets (issue 27): cold start at most 1/10 of
TensorFlow's, batch-1 latency at most 1/3, memory at most 1/5, batch 64 at most 1.3x.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODELS = ("mlp", "cnn")
# metric -> (label, unit, target ratio eagerflow/TensorFlow, what "better" is)
METRICS = {
    "cold_start_ms": ("cold start: import + load + 1st prediction", "ms", 1 / 10),
    "batch1_us": ("serving_default latency, batch 1", "us", 1 / 3),
    "batch64_us": ("serving_default latency, batch 64", "us", 1.3),
    "rss_mb": ("resident memory after loading", "MB", 1 / 5),
}

_EXPORT = r'''
import os, sys
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
framework = sys.argv[1]
if framework == "tensorflow":
    import keras
else:
    from eagerflow import keras
keras.utils.set_random_seed(0)
mlp = keras.Sequential([keras.Input((784,), name="x"), keras.layers.Dense(256, activation="relu"),
                        keras.layers.Dense(128, activation="relu"), keras.layers.Dense(10, activation="softmax")])
cnn = keras.Sequential([keras.Input((28, 28, 1), name="image"), keras.layers.Conv2D(16, 3, activation="relu"),
                        keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(),
                        keras.layers.Conv2D(32, 3, activation="relu"), keras.layers.MaxPooling2D(),
                        keras.layers.Flatten(), keras.layers.Dropout(0.25), keras.layers.Dense(10, activation="softmax")])
mlp.export(os.path.join(sys.argv[2], "mlp"))
cnn.export(os.path.join(sys.argv[2], "cnn"))
'''

_CHILD = r'''
import sys, time
t0 = time.perf_counter()
import numpy as np
if sys.argv[1] == "tensorflow":
    import tensorflow as tf
else:
    import eagerflow as tf
t1 = time.perf_counter()
model = tf.saved_model.load(sys.argv[2])
t2 = time.perf_counter()
rss_kb = next((int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS:")), 0) \
    if sys.platform.startswith("linux") else 0
serve = model.signatures["serving_default"]
(key, spec), = serve.structured_input_signature[1].items()
row = np.random.default_rng(0).standard_normal([1] + spec.shape.as_list()[1:]).astype(np.float32)
t3 = time.perf_counter()
first = {k: v.numpy() for k, v in serve(**{key: tf.constant(row)}).items()}
t4 = time.perf_counter()


def latency(batch, calls):
    x = tf.constant(np.repeat(row, batch, axis=0))
    for _ in range(5):
        serve(**{key: x})
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        [v.numpy() for v in serve(**{key: x}).values()]
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


import json, statistics
calls = int(sys.argv[3])
print(json.dumps({"cold_start_ms": (t2 - t0 + t4 - t3) * 1e3, "import_ms": (t1 - t0) * 1e3,
                  "load_ms": (t2 - t1) * 1e3, "first_prediction_ms": (t4 - t3) * 1e3, "rss_mb": rss_kb / 1024,
                  "batch1_us": latency(1, calls), "batch64_us": latency(64, max(calls // 4, 5)),
                  "output_sum": float(sum(v.sum() for v in first.values()))}))
'''


def tensorflow_python(given=None):
    path = given or os.environ.get("EAGERFLOW_TF_PYTHON")
    return path if path and os.path.exists(path) else None


def _environment():
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as after `pip install`
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def export_models(folder: Path, tf_python=None) -> str:
    """Writes mlp/ and cnn/ under `folder`; returns which framework wrote them."""
    framework, python = ("tensorflow", tf_python) if tf_python else ("eagerflow", sys.executable)
    env = _environment()
    if tf_python:
        env.pop("PYTHONPATH")  # TensorFlow's process never sees eagerflow
    subprocess.run([python, "-c", _EXPORT, framework, str(folder)], env=env, check=True, capture_output=True,
                   timeout=600)
    return framework


def run_once(python, framework, model_dir, calls=200) -> dict:
    env = _environment()
    if framework == "tensorflow":
        env.pop("PYTHONPATH")
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "cold_start_child.py"
        script.write_text(_CHILD)
        done = subprocess.run([python, str(script), framework, str(model_dir), str(calls)], env=env, cwd=scratch,
                              capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{framework} on {model_dir} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(models: Path, runs=5, tf_python=None, calls=200) -> dict:
    """{model: {framework: {metric: median over runs}}}."""
    frameworks = {"eagerflow": sys.executable}
    if tf_python:
        frameworks["tensorflow"] = tf_python
    results = {}
    for model in MODELS:
        for framework, python in frameworks.items():
            run_once(python, framework, models / model, calls=10)  # fills the bytecode caches
            samples = [run_once(python, framework, models / model, calls) for _ in range(runs)]
            results.setdefault(model, {})[framework] = {
                key: statistics.median(s[key] for s in samples) for key in samples[0]}
    return results


def report(results: dict) -> str:
    lines = []
    for model, by_framework in results.items():
        ours, theirs = by_framework["eagerflow"], by_framework.get("tensorflow")
        lines.append(f"{model.upper():<48} {'eagerflow':>10} {'TF 2.21':>10} {'ratio':>7} {'target':>7}")
        for key, (label, unit, target) in METRICS.items():
            if theirs is None:
                lines.append(f"{label + ' (' + unit + ')':<48} {ours[key]:10.1f}")
                continue
            ratio = ours[key] / theirs[key] if theirs[key] else float("nan")
            verdict = "PASS" if ratio <= target else "MISS"
            goal = f"<={target:.2f}" if target < 1 else f"<={target:.1f}"
            lines.append(f"{label + ' (' + unit + ')':<48} {ours[key]:10.1f} {theirs[key]:10.1f} {ratio:7.3f} "
                         f"{goal:>7} {verdict}")
        lines.append(f"{'  of which import / load / 1st prediction (ms)':<48} "
                     f"{ours['import_ms']:.0f} / {ours['load_ms']:.0f} / {ours['first_prediction_ms']:.1f}"
                     + (f"   TF: {theirs['import_ms']:.0f} / {theirs['load_ms']:.0f} / "
                        f"{theirs['first_prediction_ms']:.1f}" if theirs else ""))
        lines.append("")
    return "\n".join(lines).rstrip()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tf-python", help="interpreter with TensorFlow 2.21 (default: $EAGERFLOW_TF_PYTHON)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200, help="timed calls at batch 1 (a quarter at batch 64)")
    parser.add_argument("--models", help="a folder holding mlp/ and cnn/ already exported (default: export now)")
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args(argv)
    tf_python = tensorflow_python(args.tf_python)
    with tempfile.TemporaryDirectory() as scratch:
        models = Path(args.models) if args.models else Path(scratch)
        writer = "given" if args.models else export_models(models, tf_python)
        results = measure(models, args.runs, tf_python, args.calls)
    print(f"models exported by {writer}; fresh process per run, median of {args.runs} runs"
          + ("" if tf_python else "; TensorFlow not available (--tf-python or EAGERFLOW_TF_PYTHON)"))
    print(report(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
