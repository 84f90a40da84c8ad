"""Code generation from many threads at once: every generated module gets its own file name, so
linecache (tracebacks, `concrete_function.code` lines) shows each module its own source, and one
module's cleanup never removes another's lines."""
import linecache

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.codegen.pycode import generate
from eagerflow._src.passes.pipeline import Program
from tests.threads import fast_thread_switches, in_threads, yield_between_opcodes_of  # noqa: F401

THREADS = 8
pytestmark = pytest.mark.usefixtures("fast_thread_switches")


def test_modules_generated_concurrently_get_distinct_file_names():
    def work(i):
        return [generate(Program([], [], []), "same_name", {}) for _ in range(25)]

    results = in_threads(work, THREADS, trace=yield_between_opcodes_of(generate.__code__))
    generated = [g for per_thread in results for g in per_thread]
    names = [g.filename for g in generated]
    assert len(set(names)) == len(names) == THREADS * 25
    for g in generated:  # each module's lines are its own (all alive: no finalizer has run)
        assert "".join(linecache.cache[g.filename][2]) == g.source
        assert g.fn() == ()


def test_functions_traced_concurrently_run_their_own_code():
    def work(i):
        @tf.function
        def scaled(x):
            return x * float(i) + 1.0

        out = []
        for n in range(1, 6):  # a new shape each time: a new trace and a new generated module
            cf = scaled.get_concrete_function(tf.TensorSpec([n]))
            out.append((cf, scaled(tf.ones([n])).numpy()))
        return out

    results = in_threads(work, THREADS)
    names = [cf.executable.generated.filename for per_thread in results for cf, _ in per_thread]
    assert len(set(names)) == len(names) == THREADS * 5
    for i, per_thread in enumerate(results):
        for n, (cf, value) in enumerate(per_thread, start=1):
            np.testing.assert_array_equal(value, np.full([n], i + 1.0, np.float32))
            assert "".join(linecache.cache[cf.executable.generated.filename][2]) == cf.code
