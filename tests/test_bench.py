"""The benchmark suite's machinery (not its timings): rows and columns of the table, the ratio
arithmetic, the JSON file, the other-interpreter protocol, and that every workload's eagerflow
variant computes the same numbers as its NumPy floor (which is itself checked by finite
differences for the hand-written MLP backward)."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench import harness as H
from bench import report
from bench.external import run_external
from bench.suite import run_suite, select
from bench.workloads import discover
from bench.workloads import function as function_workloads
from bench.workloads import mlp

REPO = Path(__file__).resolve().parent.parent
QUICK = H.Settings(repeat=2, min_sample_ns=200_000, warmup_calls=1)
TIME = re.compile(r"^\d+(\.\d+)? (ns|µs|ms|s)$")
WORKLOADS = discover()


def test_workloads_are_discovered_with_a_floor_and_eagerflow():
    names = [w.name for w in WORKLOADS]
    assert {"eager_op/a+b", "eager_op/add", "eager_op/matmul", "eager_op/relu", "mlp/fwd+bwd"} <= set(names)
    for w in WORKLOADS:
        assert "numpy" in w.variants and "eagerflow" in w.variants
    assert [w.name for w in select("matmul")] == ["eager_op/matmul"]


@pytest.mark.parametrize("workload", WORKLOADS, ids=lambda w: w.name)
def test_eagerflow_computes_what_numpy_computes(workload):
    inputs = workload.setup(True)
    reference_fn = workload.variants["numpy"](inputs)
    reference = H.to_numpy(reference_fn())
    try:
        ours_fn = workload.variants["eagerflow"](inputs)
    except H.Unavailable as exc:
        pytest.skip(str(exc))
    ours = H.to_numpy(ours_fn())
    assert H.outputs_close(ours, reference, workload.rtol, workload.atol)
    # It is timed in a loop, so a second call must compute the same thing again (no state drift),
    # or, for a workload that changes state on purpose (a training step), the floor's second call.
    if workload.name in function_workloads.STATEFUL:
        second = H.to_numpy(reference_fn())
        assert not H.outputs_close(second, reference, 0, 0) or workload.name == "function/retrace"
        reference = second
    assert H.outputs_close(H.to_numpy(ours_fn()), reference, workload.rtol, workload.atol)


def test_numpy_mlp_backward_matches_finite_differences():
    """The floor must be right for the comparison to mean anything: its hand-written gradients
    against central differences of the float64 loss at a few coordinates."""
    p = mlp._setup(True)
    _, dw1, db1, dw2, db2 = mlp._numpy(p)()

    def loss(q):
        h = np.maximum(q["x"] @ q["w1"] + q["b1"], 0)
        return np.mean(np.square(h @ q["w2"] + q["b2"] - q["y"]))

    p64 = {k: v.astype(np.float64) for k, v in p.items()}
    for name, grad, index in [("w1", dw1, (3, 5)), ("w1", dw1, (400, 17)), ("b1", db1, (7,)),
                              ("w2", dw2, (11, 2)), ("b2", db2, (9,))]:
        eps = 1e-5
        plus = {**p64, name: p64[name].copy()}
        minus = {**p64, name: p64[name].copy()}
        plus[name][index] += eps
        minus[name][index] -= eps
        numeric = (loss(plus) - loss(minus)) / (2 * eps)
        assert abs(grad[index] - numeric) <= 1e-4 * max(1.0, abs(numeric)) + 1e-6, (name, index)


def test_quick_run_of_one_workload_makes_the_table():
    results = run_suite(select("eager_op/add"), QUICK, quick=True)
    rows = report.table_rows(results)
    header = rows[0]
    assert header[:3] == ["workload", "numpy", "eagerflow"]
    assert header[-6:] == ["eagerflow/numpy", "eagerflow-numpy", "tensorflow/eagerflow", "target", "status", "check"]
    assert [r[0] for r in rows[1:]] == ["eager_op/add"]
    row = dict(zip(header, rows[1]))
    assert TIME.match(row["numpy"]) and TIME.match(row["eagerflow"])
    assert re.match(r"^\d+\.\d\dx$", row["eagerflow/numpy"])
    assert re.match(r"^[+-]\d+\.\d\d µs$", row["eagerflow-numpy"])
    assert row["target"] == "<= +3 µs vs numpy" and row["status"] in ("PASS", "MISS")
    assert row["check"] == "ok"
    r = results[0]
    assert len(r.variants["numpy"].samples_ns) == 2 and r.variants["numpy"].number >= 1
    text = report.format_table(results)
    assert text.splitlines()[0].split() == header


def _fake(times, target=None, mismatches=()):
    w = H.Workload("fake", setup=lambda quick: {}, variants={k: None for k in times}, target=target)
    variants = {k: H.VariantResult(samples_ns=list(v), number=1) for k, v in times.items()}
    return H.WorkloadResult(w, variants, mismatches=list(mismatches), outputs={"numpy": 0})


def test_ratio_columns_and_target_verdicts():
    # medians: numpy 500 ns, eagerflow 2000 ns, tensorflow 21000 ns
    r = _fake({"numpy": [400, 500, 900], "eagerflow": [2000, 1900, 2500], "tensorflow": [21000]},
              H.overhead_at_most(3.0))
    row = dict(zip(*report.table_rows([r])))
    assert (row["numpy"], row["eagerflow"], row["tensorflow"]) == ("500 ns", "2.00 µs", "21.00 µs")
    assert (row["eagerflow/numpy"], row["eagerflow-numpy"], row["tensorflow/eagerflow"]) == ("4.00x", "+1.50 µs", "10.50x")
    assert row["status"] == "PASS"
    assert _fake({"numpy": [500], "eagerflow": [3600]}, H.overhead_at_most(3.0)).status == "MISS"
    assert _fake({"numpy": [500], "eagerflow": [1500]}, H.ratio_at_most(2.5)).status == "MISS"
    assert _fake({"numpy": [500], "eagerflow": [1000]}, H.ratio_at_most(2.5)).status == "PASS"
    assert _fake({"numpy": [500]}, H.ratio_at_most(2.5)).status == "n/a"
    assert dict(zip(*report.table_rows([_fake({"numpy": [1]}, mismatches=["eagerflow"])])))["check"] == "DIFF eagerflow"


def test_broken_or_missing_variants_are_reported_not_fatal():
    def broken(inputs):
        raise RuntimeError("boom")

    def missing(inputs):
        raise H.Unavailable("no such framework")

    w = H.Workload("w", setup=lambda quick: {"a": np.ones(2)},
                   variants={"numpy": lambda i: (lambda: i["a"] * 2), "eagerflow": broken, "other": missing,
                             "wrong": lambda i: (lambda: i["a"] * 2.001)})
    r = H.run_workload(w, QUICK, quick=True)
    assert r.mismatches == ["wrong"]
    assert r.variants["eagerflow"].error == "RuntimeError: boom"
    assert r.variants["other"].skipped == "Unavailable: no such framework"
    row = dict(zip(*report.table_rows([r])))
    assert row["eagerflow"] == "error" and "other" not in row
    notes = report.format_notes([r])
    assert "w / eagerflow: RuntimeError: boom" in notes and "skipped other (Unavailable: no such framework)" in notes


def test_variants_timed_in_another_interpreter_come_back_with_their_outputs():
    (w,) = select("eager_op/matmul")
    timings, outputs = run_external(sys.executable, ["numpy"], [w.name], QUICK, quick=True)
    v = timings[w.name]["numpy"]
    assert v.error is None and len(v.samples_ns) == 2 and v.where == sys.executable
    inputs = w.setup(True)
    np.testing.assert_array_equal(outputs[w.name]["numpy"], inputs["a"] @ inputs["b"])
    assert outputs[w.name]["numpy"].dtype == np.float32


def test_external_results_are_merged_and_checked():
    results = run_suite(select("eager_op/add"), QUICK, quick=True, external={"eagerflow": sys.executable})
    r = results[0]
    assert r.variants["eagerflow"].where == sys.executable and r.variants["eagerflow"].median_ns > 0
    assert r.mismatches == [] and "eagerflow" not in r.outputs  # checked on arrival, not kept
    assert f"eagerflow timed in {sys.executable}" in report.format_notes(results)


def test_unusable_interpreter_gives_errors_not_a_crash():
    timings, outputs = run_external("/nonexistent/python", ["tensorflow"], ["eager_op/add"], QUICK, quick=True)
    assert timings["eager_op/add"]["tensorflow"].error and outputs == {}


def test_command_line_writes_json(tmp_path):
    out = tmp_path / "b.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-m", "bench", "eager_op/add", "--quick", "--repeat", "2",
                           "--json", str(out)], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].split()[:3] == ["workload", "numpy", "eagerflow"]
    data = json.loads(out.read_text())
    assert data["meta"]["repeat"] == 2 and data["meta"]["quick"] is True and data["meta"]["threads"] == 1
    (entry,) = data["workloads"]
    assert entry["name"] == "eager_op/add" and entry["outputs_match_numpy"] is True
    for name in ("numpy", "eagerflow"):
        assert len(entry["variants"][name]["samples_ns"]) == 2
    assert entry["eagerflow_minus_numpy_us"] == pytest.approx(
        (entry["variants"]["eagerflow"]["median_ns"] - entry["variants"]["numpy"]["median_ns"]) / 1e3)
    assert entry["status"] in ("PASS", "MISS")


def test_command_line_rejects_a_filter_that_matches_nothing():
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "bench", "no-such-workload"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no workload matches" in proc.stderr


def test_thread_pools_are_pinned_by_environment(monkeypatch):
    from bench.__main__ import THREAD_VARIABLES, pin_threads
    for var in THREAD_VARIABLES:
        monkeypatch.setenv(var, "7")
    pin_threads(0)  # 0 leaves the environment alone
    assert {os.environ[v] for v in THREAD_VARIABLES} == {"7"}
    pin_threads(2)
    assert {os.environ[v] for v in THREAD_VARIABLES} == {"2"}
    assert "OPENBLAS_NUM_THREADS" in THREAD_VARIABLES and "TF_NUM_INTRAOP_THREADS" in THREAD_VARIABLES


# ----------------------------------------------------------------------------------------------
# tf.function workloads (bench/workloads/function.py)
# ----------------------------------------------------------------------------------------------


def test_function_workloads_have_their_targets():
    by_name = {w.name: w for w in WORKLOADS}
    expected = {"function/cached-call": "<= 1.5x numpy", "function/first-call": "<= +5000 µs vs numpy",
                "function/retrace": "<= +3000 µs vs numpy", "function/mlp-adam-step": "<= 1.3x numpy"}
    for name, target in expected.items():
        assert by_name[name].target.describe() == target
        assert {"numpy", "eagerflow", "tensorflow"} <= set(by_name[name].variants)


def test_first_call_and_retrace_variants_trace_on_every_call(monkeypatch):
    """What is timed must be tracing: count the traces the eagerflow variants cause."""
    import eagerflow as tf
    from eagerflow._src.trace import function as fn_module
    traces = []
    original = fn_module.Function._trace
    monkeypatch.setattr(fn_module.Function, "_trace", lambda self, *a, **k: traces.append(1) or original(self, *a, **k))
    for name in ("function/first-call", "function/retrace"):
        (w,) = select(name)
        call = w.variants["eagerflow"](w.setup(True))
        traces.clear()
        outs = [H.to_numpy(call()) for _ in range(3)]
        assert len(traces) == 3, name
        assert all(np.allclose(o, outs[0], rtol=1e-5) for o in outs)
    assert tf.function is not None


def test_numpy_adam_floor_matches_finite_differences_and_adams_first_step():
    """The training-step floor: its gradient (recovered from Adam's first moment after one step,
    m = (1 - beta1) g) against central differences of the float64 loss, and the first Adam step,
    which moves every weight by about lr against the sign of its gradient."""
    F = function_workloads
    p = F._mlp_inputs(True)
    loss, w2, m_w1, v_b1 = F._adam_numpy(p)()
    g_w1 = m_w1 / (1 - F.BETA1)
    p64 = {k: v.astype(np.float64) for k, v in p.items() if k != "y"}

    def xent(q):
        h = np.maximum(p64["x"] @ q["w1"] + q["b1"], 0)
        z = h @ q["w2"] + q["b2"]
        z = z - z.max(axis=1, keepdims=True)
        return np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(F.BATCH), p["y"]])

    assert abs(loss - xent(p64)) < 1e-5
    eps = 1e-6
    for name, index in [("w1", (3, 5)), ("w1", (400, 17)), ("w1", (700, 100)), ("b1", (7,)), ("w2", (11, 2))]:
        plus = {**p64, name: p64[name].copy()}
        minus = {**p64, name: p64[name].copy()}
        plus[name][index] += eps
        minus[name][index] -= eps
        numeric = (xent(plus) - xent(minus)) / (2 * eps)
        if name == "w1":
            assert abs(g_w1[index] - numeric) <= 1e-4 * max(1.0, abs(numeric)) + 1e-6, index
        elif name == "b1":
            assert abs(np.sqrt(v_b1[index] / (1 - F.BETA2)) - abs(numeric)) <= 1e-4, index
        else:  # w2 after one step: w2 - lr * g / (|g| + eps) for |g| well above Adam's epsilon
            assert abs(numeric) > 1e-4
            step = w2[index] - p["w2"][index]
            assert step == pytest.approx(-F.LR * np.sign(numeric), rel=1e-3)


def test_varlen_report_counts_traces_and_checks_values(monkeypatch):
    F = function_workloads
    monkeypatch.setattr(F, "VARLEN_CALLS_QUICK", 30)
    rows = F.varlen_report(quick=True)
    lengths = F.varlen_lengths(30)
    assert [r["variant"] for r in rows] == [name for name, _, _ in F.VARLEN_VARIANTS]
    traces = {r["variant"]: r["traces"] for r in rows}
    assert traces["no signature"] == len(set(lengths))  # one trace per new shape
    assert traces["input_signature [None, None, 128]"] == 1
    assert traces["reduce_retracing=True"] == 2  # the second shape relaxes to (1, None, 128)
    for r in rows:
        assert r["calls"] == 30 and r["max_rel_diff_vs_numpy"] < 1e-5
        assert isinstance(r["resident_growth_bytes"], int)
    table = F.format_varlen({"eagerflow": rows}).splitlines()
    assert table[0].split()[:3] == ["framework", "variant", "calls"]
    assert len(table) == 2 + len(rows)
    assert re.search(r"input_signature \[None, None, 128\] +30 +\d+ +1 +<= 1 +\d+\.\d\d s +[+-]\d+\.\d MiB +ok$", table[3])


def test_varlen_table_flags_too_many_traces_and_wrong_values():
    row = {"variant": "v", "calls": 10, "distinct_lengths": 5, "traces": 3, "expected_at_most": 2, "seconds": 1.5,
           "resident_growth_bytes": 3 * 2**20, "max_rel_diff_vs_numpy": 0.5}
    line = function_workloads.format_varlen({"eagerflow": [row]}).splitlines()[2]
    assert "1.50 s" in line and "+3.0 MiB" in line and line.endswith("DIFF TOO MANY TRACES")


def test_resident_bytes_is_a_positive_size():
    assert function_workloads.resident_bytes() > 1 << 20
