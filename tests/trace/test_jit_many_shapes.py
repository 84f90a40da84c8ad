"""jit_compile=True under many input shapes (issue 30, point 7): a trace evicted from the bounded
cache releases its XLA executable (its CompiledProgram and jax.jit object die with it), and
reduce_retracing keeps a variable-length input to one relaxed trace (XLA then compiles per length,
as TensorFlow's XLA does) whose results agree with NumPy."""
import gc
import logging

import numpy as np
import pytest

import eagerflow as tf

pytest.importorskip("jax")


def _live_programs(name):
    from eagerflow._src.codegen.xla import CompiledProgram
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, CompiledProgram) and name in o.name]


def test_evicted_traces_release_their_executables(caplog):
    def many_shapes_fn(x):
        return tf.reduce_sum(tf.tanh(x))

    f = tf.function(many_shapes_fn, jit_compile=True, experimental_max_traces=3)
    with caplog.at_level(logging.WARNING, logger="eagerflow"):
        for n in range(1, 8):
            assert float(f(tf.ones([n]))) == pytest.approx(n * np.tanh(1.0), rel=1e-6)
    info = f.cache_info()
    assert (info.misses, info.currsize, info.evictions) == (7, 3, 4)
    assert len(_live_programs("many_shapes_fn")) == 3  # the four evicted ones are gone
    del f
    assert _live_programs("many_shapes_fn") == []


def test_reduce_retracing_keeps_one_trace_for_many_lengths():
    rng = np.random.default_rng(0)
    w_np = rng.standard_normal((8, 4)).astype(np.float32)
    w = tf.constant(w_np)
    f = tf.function(lambda x: tf.reduce_mean(tf.tanh(x @ w)), jit_compile=True, reduce_retracing=True)
    lengths = [3, 7, 3, 12, 5, 7, 20]
    base = rng.standard_normal((1, 20, 8)).astype(np.float32)
    for n in lengths:
        np.testing.assert_allclose(float(f(tf.constant(base[:, :n]))), np.mean(np.tanh(base[:, :n] @ w_np)),
                                   rtol=1e-5)
    assert f.experimental_get_tracing_count() == 2  # the first shape, then one with the length unknown


def test_retracing_warning_names_the_fix(caplog):
    """TensorFlow's warning after 5 retraces in the last 5 calls, with the fix for shapes."""
    f = tf.function(lambda x: x * 2.0, jit_compile=True)
    with caplog.at_level(logging.WARNING, logger="eagerflow"):
        for n in range(1, 7):
            f(tf.ones([n]))
    texts = [r.getMessage() for r in caplog.records if "triggered tf.function retracing" in r.getMessage()]
    assert texts and texts[0].startswith("5 out of the last 5 calls to ")
    assert "reduce_retracing=True" in texts[0]
