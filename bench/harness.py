"""The benchmark machinery: what a workload is, how variants are timed, how results are judged.

A workload is declared, not programmed: a name, a `setup(quick)` that returns NumPy inputs, and a
dict of variants. A variant is a *factory*: `factory(inputs) -> fn`, where `fn()` is the zero-argument
call we time and whose return value we compare against the NumPy variant. Doing the conversion
(`tf.constant(...)`, `torch.from_numpy(...)`) inside the factory keeps it out of the timed loop.

Why NumPy is the floor: eagerflow runs NumPy kernels, so "eagerflow / NumPy" is exactly the price
of our Python layer. Every ratio in the table is measured in the same process, in the same run,
with the variants' samples interleaved so that machine noise (frequency scaling, a busy neighbour)
hits all of them alike.

This module imports only the standard library and NumPy: the same code runs inside another
interpreter (`bench/external.py`, e.g. a TensorFlow venv) to time variants that our environment
cannot import.
"""
from __future__ import annotations

import gc
import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping

import numpy as np

# Variant names with a meaning in the report. Workloads may add others (e.g. "eagerflow-function").
NUMPY, EAGERFLOW, TENSORFLOW = "numpy", "eagerflow", "tensorflow"


class Unavailable(Exception):
    """Raised by a variant factory when its framework (or the op it needs) is not there: the
    variant is left out of the table instead of failing the run."""


@dataclass(frozen=True)
class Target:
    """A goal for `subject` measured against `baseline` (both variant names). Give one of
    `max_ratio` (subject time / baseline time) or `max_overhead_us` (subject - baseline, µs)."""
    max_ratio: float | None = None
    max_overhead_us: float | None = None
    subject: str = EAGERFLOW
    baseline: str = NUMPY

    def describe(self) -> str:
        if self.max_overhead_us is not None:
            return f"<= +{self.max_overhead_us:g} µs vs {self.baseline}"
        return f"<= {self.max_ratio:g}x {self.baseline}"

    def met(self, subject_ns: float, baseline_ns: float) -> bool:
        if self.max_overhead_us is not None:
            return (subject_ns - baseline_ns) / 1e3 <= self.max_overhead_us
        return subject_ns / baseline_ns <= self.max_ratio


def overhead_at_most(us: float, **kw) -> Target:
    return Target(max_overhead_us=us, **kw)


def ratio_at_most(ratio: float, **kw) -> Target:
    return Target(max_ratio=ratio, **kw)


@dataclass(frozen=True)
class Workload:
    """One row of the table. `setup(quick)` returns the inputs (a dict of NumPy arrays, made from a
    fixed seed); each variant factory turns them into the callable that is timed."""
    name: str
    setup: Callable[[bool], Mapping[str, np.ndarray]]
    variants: Mapping[str, Callable[[Mapping[str, np.ndarray]], Callable[[], object]]]
    target: Target | None = None
    description: str = ""
    rtol: float = 1e-5
    atol: float = 1e-6


@dataclass
class VariantResult:
    """Timings of one variant: per-call nanoseconds of each repeat (median reported), or why not."""
    samples_ns: list = field(default_factory=list)
    number: int = 0  # calls per sample
    skipped: str | None = None
    error: str | None = None
    where: str = "in-process"

    @property
    def median_ns(self) -> float | None:
        return statistics.median(self.samples_ns) if self.samples_ns else None

    def to_json(self) -> dict:
        out = {"where": self.where}
        if self.samples_ns:
            out.update(median_ns=self.median_ns, samples_ns=self.samples_ns, number=self.number)
        if self.skipped:
            out["skipped"] = self.skipped
        if self.error:
            out["error"] = self.error
        return out


@dataclass
class WorkloadResult:
    workload: Workload
    variants: dict  # name -> VariantResult, in declaration order
    mismatches: list = field(default_factory=list)  # variants whose output differs from NumPy's
    outputs: dict = field(default_factory=dict, repr=False)  # name -> output as NumPy (for checks)

    def median(self, name: str) -> float | None:
        r = self.variants.get(name)
        return r.median_ns if r is not None else None

    def ratio(self, num: str, den: str) -> float | None:
        a, b = self.median(num), self.median(den)
        return a / b if a is not None and b else None

    def overhead_us(self, subject: str = EAGERFLOW, baseline: str = NUMPY) -> float | None:
        a, b = self.median(subject), self.median(baseline)
        return (a - b) / 1e3 if a is not None and b is not None else None

    @property
    def status(self) -> str:
        """PASS / MISS against the target, '' without one, 'n/a' when a side was not measured."""
        t = self.workload.target
        if t is None:
            return ""
        a, b = self.median(t.subject), self.median(t.baseline)
        if a is None or b is None:
            return "n/a"
        return "PASS" if t.met(a, b) else "MISS"

    def to_json(self) -> dict:
        w = self.workload
        out = {"name": w.name, "description": w.description,
               "variants": {k: v.to_json() for k, v in self.variants.items()},
               "eagerflow_over_numpy": self.ratio(EAGERFLOW, NUMPY),
               "eagerflow_minus_numpy_us": self.overhead_us(),
               "tensorflow_over_eagerflow": self.ratio(TENSORFLOW, EAGERFLOW),
               "outputs_match_numpy": not self.mismatches, "mismatches": self.mismatches}
        if w.target is not None:
            out["target"] = w.target.describe()
            out["status"] = self.status
        return out


@dataclass(frozen=True)
class Settings:
    repeat: int = 7
    min_sample_ns: int = 20_000_000  # each sample runs the call enough times to take this long
    warmup_calls: int = 3

    @classmethod
    def make(cls, quick: bool = False, repeat: int | None = None) -> "Settings":
        base = cls(repeat=3, min_sample_ns=1_000_000, warmup_calls=1) if quick else cls()
        return base if repeat is None else cls(repeat, base.min_sample_ns, base.warmup_calls)


# ----------------------------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------------------------


def _sample(fn: Callable[[], object], number: int) -> int:
    """Wall time of `number` back-to-back calls. The garbage collector is paused, as timeit does,
    so a collection triggered by one variant's garbage is not billed to another."""
    loop = range(number)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter_ns()
        for _ in loop:
            fn()
        return time.perf_counter_ns() - start
    finally:
        if was_enabled:
            gc.enable()


def _calibrate(fn, min_sample_ns: int) -> int:
    """How many calls make one sample last at least `min_sample_ns`."""
    number = 1
    while True:
        elapsed = _sample(fn, number)
        if elapsed >= min_sample_ns or number >= 1 << 24:
            return number
        grow = min_sample_ns / max(elapsed, 1) * 1.2
        number = max(number * 2, math.ceil(number * min(grow, 100.0)))


def time_callables(fns: Mapping[str, Callable[[], object]], settings: Settings) -> dict:
    """Per-call nanoseconds for each callable: `settings.repeat` samples, interleaved across the
    callables. Returns {name: (samples_ns, number)}."""
    numbers = {}
    for name, fn in fns.items():
        for _ in range(settings.warmup_calls):
            fn()
        numbers[name] = _calibrate(fn, settings.min_sample_ns)
    samples = {name: [] for name in fns}
    for _ in range(settings.repeat):
        for name, fn in fns.items():
            # One untimed call first: the sample starts from this variant's own steady state, not
            # from the heap the previous variant left (after numpy-naive's 200 MB of temporaries
            # the next variant re-faulted its first large allocation: with the 2-3 calls a 20 ms
            # sample holds on GELU 4M, +2% billed to whichever variant came next).
            fn()
            samples[name].append(_sample(fn, numbers[name]) / numbers[name])
    return {name: (samples[name], numbers[name]) for name in fns}


# ----------------------------------------------------------------------------------------------
# Outputs
# ----------------------------------------------------------------------------------------------


def to_numpy(value):
    """A variant's return value as NumPy arrays (nested tuples/lists kept): eagerflow, TensorFlow
    and PyTorch tensors through `.numpy()`, JAX arrays and scalars through `np.asarray`."""
    if isinstance(value, (tuple, list)):
        return [to_numpy(v) for v in value]
    if hasattr(value, "detach"):  # torch
        value = value.detach()
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        value = value.numpy()
    return np.asarray(value)


def outputs_close(a, b, rtol: float, atol: float) -> bool:
    """Whether two (nested) outputs have the same structure, shapes and values within tolerance."""
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(outputs_close(x, y, rtol, atol) for x, y in zip(a, b)))
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol))


def build_variants(workload: Workload, quick: bool, only: set | None = None):
    """Runs the setup and every variant factory. Returns ({name: fn}, {name: VariantResult}) where
    the second dict already holds the skipped/failed ones."""
    inputs = workload.setup(quick)
    fns, results = {}, {}
    for name, factory in workload.variants.items():
        if only is not None and name not in only:
            continue
        try:
            fns[name] = factory(inputs)
            results[name] = VariantResult()
        except (Unavailable, ImportError) as exc:
            results[name] = VariantResult(skipped=f"{type(exc).__name__}: {exc}")
        except Exception as exc:  # a broken variant is reported, not fatal to the suite
            results[name] = VariantResult(error=f"{type(exc).__name__}: {exc}")
    return fns, results


def run_workload(workload: Workload, settings: Settings, quick: bool = False,
                 exclude: set = frozenset()) -> WorkloadResult:
    """Builds, checks and times every variant of `workload` in this process (except `exclude`,
    which another interpreter times)."""
    names = {n for n in workload.variants if n not in exclude}
    fns, results = build_variants(workload, quick, names)
    outputs = {}
    for name, fn in list(fns.items()):
        try:
            outputs[name] = to_numpy(fn())
        except Exception as exc:
            results[name] = VariantResult(error=f"{type(exc).__name__}: {exc}")
            del fns[name]
    for name, (samples, number) in time_callables(fns, settings).items():
        results[name].samples_ns, results[name].number = samples, number
    result = WorkloadResult(workload, results, outputs=outputs)
    for name, out in outputs.items():
        check_output(result, name, out)
    return result


def check_output(result: WorkloadResult, name: str, output) -> None:
    """Records `name` as a mismatch when its output differs from the NumPy variant's."""
    reference = result.outputs.get(NUMPY)
    w = result.workload
    if name != NUMPY and reference is not None and not outputs_close(output, reference, w.rtol, w.atol):
        result.mismatches.append(name)
