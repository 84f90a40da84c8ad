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


# TensorFlow 2.21, the same program (tf.reduce_sum(tf.tanh(x) * 2.0 + x), jit_compile=True) called with
# np.random.default_rng(0).integers(1, 40, size=200) as lengths (39 distinct): the function body ran 39
# times and XLA compiled 39 times (its compilation profiler logs one line per compile); with
# reduce_retracing=True, 2 traces (the first length, then [None]) and still 39 compiles.
TF_LENGTHS_DISTINCT, TF_TRACES, TF_COMPILES, TF_RELAXED_TRACES, TF_RELAXED_COMPILES = 39, 39, 39, 2, 39


@pytest.fixture
def xla_compiles():
    """Counts XLA compiles (JAX's backend compile events) while the test runs."""
    import jax.monitoring
    count = [0]
    listening = [True]

    def on_event(event, duration, **_):
        if listening[0] and event == "/jax/core/compile/backend_compile_duration":
            count[0] += 1
    jax.monitoring.register_event_duration_secs_listener(on_event)
    yield count
    listening[0] = False
    # JAX before 0.6 (our floor is 0.5.0) has no public way to remove a listener; a silenced one stays
    unregister = getattr(jax.monitoring, "unregister_event_duration_listener", None)
    if unregister is not None:
        unregister(on_event)


def _many_lengths_run(xla_compiles, reduce_retracing):
    traces = [0]

    def body(x):
        traces[0] += 1
        return tf.reduce_sum(tf.tanh(x) * 2.0 + x)
    f = tf.function(body, jit_compile=True, reduce_retracing=reduce_retracing)
    lengths = np.random.default_rng(0).integers(1, 40, size=200)
    assert len(set(lengths.tolist())) == TF_LENGTHS_DISTINCT
    before = xla_compiles[0]
    for n in lengths:
        x = np.linspace(-1, 1, n).astype(np.float32)
        assert float(f(tf.constant(x))) == pytest.approx(float(np.sum(np.tanh(x) * 2 + x)), rel=1e-5, abs=1e-5)
    return f, traces[0], xla_compiles[0] - before


def test_jit_function_is_not_bounded_by_the_default(monkeypatch, xla_compiles):
    """TensorFlow keeps every trace: a jit function past the default bound evicts nothing (here the
    default is lowered to 10 to show it; a plain function evicts at it), so each length compiles once."""
    from eagerflow._src.trace import cache
    monkeypatch.setattr(cache, "_default_max_traces", 10)
    plain = tf.function(lambda x: x + 1.0)
    for n in range(1, 13):
        plain(tf.ones([n]))
    assert plain.cache_info().maxsize == 10 and plain.cache_info().evictions == 2
    f, traces, compiles = _many_lengths_run(xla_compiles, reduce_retracing=False)
    info = f.cache_info()
    assert (traces, compiles) == (TF_TRACES, TF_COMPILES)
    assert (info.maxsize, info.currsize, info.evictions) == (None, TF_TRACES, 0)


def test_jit_reduce_retracing_compiles_per_length_as_tensorflow(xla_compiles):
    _, traces, compiles = _many_lengths_run(xla_compiles, reduce_retracing=True)
    assert (traces, compiles) == (TF_RELAXED_TRACES, TF_RELAXED_COMPILES)


def test_a_chosen_bound_holds_for_jit_functions():
    saved = tf.config.get_function_max_traces()
    try:
        tf.config.set_function_max_traces(4)
        f = tf.function(lambda x: x * 2.0, jit_compile=True)
        for n in range(1, 7):
            f(tf.ones([n]))
        assert (f.cache_info().maxsize, f.cache_info().evictions) == (4, 2)
    finally:
        tf.config.set_function_max_traces(saved)
    assert tf.function(lambda x: x, jit_compile=True).cache_info().maxsize is None


def test_eviction_frees_the_executable_at_once_and_a_kept_trace_still_runs(caplog):
    """No garbage collection needed: the evicted trace's jax.jit cache is emptied when it leaves the
    cache, even while the user holds its ConcreteFunction, which compiles again if called."""
    f = tf.function(lambda x: tf.reduce_sum(x * x), jit_compile=True, experimental_max_traces=2)
    kept = []
    gc.disable()
    try:
        with caplog.at_level(logging.ERROR, logger="eagerflow"):
            for n in range(1, 5):
                f(tf.ones([n]))
                kept.append(f.get_concrete_function(tf.ones([n])))
        sizes = [cf.executable.compiled._jitted._cache_size() for cf in kept]
    finally:
        gc.enable()
    assert sizes == [0, 0, 1, 1]
    assert float(kept[0](tf.constant([3.0]))) == 9.0
    assert kept[0].executable.compiled._jitted._cache_size() == 1
