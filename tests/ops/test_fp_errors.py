"""NumPy's floating-point warnings are silenced around kernels (eager, generated code and the
reference interpreter alike), and only there: importing eagerflow leaves the user's warning filters
and NumPy error state as they were (ops/fp_errors.py)."""
from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.graph.evaluate import evaluate
from eagerflow._src.ops.fp_errors import NO_FP_WARNINGS
from eagerflow._src.ops.registry import OPS
from eagerflow.saved_model.graph_io import register_every_op

register_every_op()  # the parametrized list below must not depend on what earlier tests imported


def test_import_leaves_the_users_warning_filters_and_numpy_error_state_alone():
    code = ("import warnings, numpy as np\n"
            "before, err = list(warnings.filters), np.geterr()\n"
            "import eagerflow as tf\n"
            "tf.math.log(tf.constant(0.0)); tf.function(lambda x: tf.math.log(x))(tf.constant(0.0))\n"
            "assert warnings.filters == before, (warnings.filters[:3], before[:3])\n"
            "assert np.geterr() == err, np.geterr()\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


CALLS = {
    "log(0)": (lambda x: tf.math.log(x), np.float32(0.0), -np.inf),
    "1/0": (lambda x: 1.0 / x, np.float32(0.0), np.inf),
    "0/0": (lambda x: x / x, np.float32(0.0), np.nan),
    "exp overflow": (lambda x: tf.exp(x), np.float32(1000.0), np.inf),
    "add overflow": (lambda x: x + x, np.float32(3e38), np.inf),
    "matmul overflow": (lambda x: tf.matmul(tf.reshape(x, [1, 1]), tf.reshape(x, [1, 1]))[0, 0],
                        np.float32(3e38), np.inf),
    "sqrt(-1)": (lambda x: tf.sqrt(x), np.float32(-1.0), np.nan),
    "log(0) in a cond branch": (lambda x: tf.cond(x < 1.0, lambda: tf.math.log(x), lambda: x), np.float32(0.0),
                                -np.inf),
    "1/0 in a loop body": (lambda x: tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, 1.0 / y), (0, x))[1],
                           np.float32(0.0), 0.0),
}


@pytest.mark.parametrize("case", list(CALLS), ids=str)
def test_no_runtime_warning_escapes_eager_traced_or_interpreted(case):
    fn, value, expected = CALLS[case]
    x = tf.constant(value)
    cf = tf.function(fn).get_concrete_function(tf.TensorSpec([], tf.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = [fn(x), cf(x), evaluate(cf.graph, [x], cf.graph.structured_outputs)]
    for r in results:
        np.testing.assert_array_equal(r.numpy(), np.float32(expected))


def test_the_users_own_numpy_still_warns_after_eagerflow_ops():
    tf.math.log(tf.constant(0.0))
    tf.function(lambda x: tf.math.log(x))(tf.constant(0.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="divide by zero"):
            np.log(np.float32(0.0))


_EXTREMES = np.array([np.nan, np.inf, -np.inf, 3e38, -3e38, 0.0, -1.0, 1e-45], np.float32)


@pytest.mark.parametrize("name", sorted(n for n in NO_FP_WARNINGS if n in OPS and OPS[n].inputs in (("x",), (
    "features",), ("x", "y"))), ids=str)
def test_ops_run_unsilenced_raise_no_warning_on_extreme_floats(name):
    """The list of ops `bind` runs without silencing is right: their kernels stay quiet on nan,
    inf, huge and tiny floats under warnings-as-errors (elementwise ops; other entries only move
    or select values)."""
    op = OPS[name]
    assert not op.quiet
    floats = name not in {"LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot", "BitwiseAnd", "BitwiseOr",
                          "BitwiseXor", "Invert"}
    x = _EXTREMES if floats else (np.array([True, False]) if name.startswith("Logical") else np.array([-1, 7]))
    args = (x,) * len(op.inputs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        op.kernel(*args)


def test_ops_stay_quiet_while_another_thread_holds_the_quiet_context(monkeypatch):
    """Eager kernels run in one shared quiet context (ops/fp_errors.py); a thread finding it in use
    falls back to switching the error state itself (quiet_call), and stays quiet and correct."""
    import threading

    from eagerflow._src.ops import fp_errors, registry
    if fp_errors._QUIET_CONTEXT is None:
        pytest.skip("NumPy 1.x: no shared context")
    fallbacks = []
    real = registry.quiet_call
    monkeypatch.setattr(registry, "quiet_call", lambda *a, **k: fallbacks.append(1) or real(*a, **k))
    big = tf.constant([[3e38]])
    tf.matmul(big, big), tf.math.log(tf.constant(0.0))  # verdicts first: the hot path is under test
    inside, release = threading.Event(), threading.Event()

    def hold():
        inside.set()
        release.wait(10)

    holder = threading.Thread(target=fp_errors.run_quiet, args=(hold,))
    holder.start()
    inside.wait(10)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert tf.matmul(big, big).numpy()[0, 0] == np.inf
            assert tf.math.log(tf.constant(0.0)).numpy() == -np.inf
    finally:
        release.set()
        holder.join()
    assert len(fallbacks) == 2


def test_a_kernel_running_ops_inside_the_quiet_context_falls_back():
    """A traced function called eagerly as one op (its kernel runs generated code that runs
    kernels) nests quiet sections."""
    inner = tf.function(lambda x: tf.math.log(x) + 1.0).get_concrete_function(tf.TensorSpec([2]))
    from eagerflow._src.ops.control.call import call_function
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = call_function(inner, [tf.constant([0.0, 1.0])])
    assert np.asarray(out[0]).tolist()[0] == -np.inf
