"""Stale captures (trace/stale.py, issue 13 point 1): a Python global, closure variable or `self`
attribute frozen into a trace and changed since gives one StaleCaptureWarning per name (and an
eagerflow log line); the result stays TensorFlow's, computed with the frozen value (checked against
TensorFlow 2.21: the seed documents' `threshold` and `debug_mode` programs keep their first values)."""
import gc
import logging
import threading
import warnings
import weakref

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.trace import stale


@pytest.fixture
def caught():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        yield record


def _stale(record):
    return [str(w.message) for w in record if issubclass(w.category, tf.errors.StaleCaptureWarning)]


def test_the_warning_class_is_a_user_warning_exported_in_tf_errors():
    assert issubclass(tf.errors.StaleCaptureWarning, UserWarning)


threshold = 0.5


def test_seed_002_threshold_global_frozen(caught, caplog):
    global threshold
    threshold = 0.5

    @tf.function
    def filter_predictions(preds):
        return preds > threshold

    preds = tf.constant([0.3, 0.6, 0.9])
    assert filter_predictions(preds).numpy().tolist() == [False, True, True]
    threshold = 0.8
    with caplog.at_level(logging.WARNING, logger="eagerflow"):
        out = filter_predictions(preds)
    assert out.numpy().tolist() == [False, True, True]  # TensorFlow's result: 0.5 still
    message = ("tf.function 'filter_predictions': global 'threshold' was 0.5 when traced, is 0.8 now: the graph "
               "still uses 0.5; pass it as an argument or use a tf.Variable")
    assert _stale(caught) == [message]
    assert caught[-1].filename == __file__  # points at the user's call
    assert [r.getMessage() for r in caplog.records if r.name == "eagerflow"] == [message]
    threshold = 0.5


debug_mode = True


def test_seed_000_debug_mode_frozen_branch(caught):
    global debug_mode
    debug_mode = True
    printed = []

    @tf.function
    def buggy_function(x):
        if debug_mode:
            printed.append("traced")  # Python side effect: runs while tracing only
            return x * 2
        return x * 3

    x = tf.constant(5)
    assert int(buggy_function(x)) == 10
    debug_mode = False
    assert int(buggy_function(x)) == 10  # the branch was frozen, as in TensorFlow
    assert printed == ["traced"]
    assert _stale(caught) == [
        "tf.function 'buggy_function': global 'debug_mode' was True when traced, is False now: the graph still "
        "uses True; pass it as an argument or use a tf.Variable"]


def test_self_attribute_of_a_module_method(caught):
    class Scaler(tf.Module):
        def __init__(self):
            super().__init__()
            self.scale = 2.0

        @tf.function
        def __call__(self, x):
            return x * self.scale

    m = Scaler()
    assert float(m(tf.constant(3.0))) == 6.0
    m.scale = 4.0
    assert float(m(tf.constant(3.0))) == 6.0
    assert _stale(caught) == [
        "tf.function '__call__': attribute 'self.scale' was 2.0 when traced, is 4.0 now: the graph still uses "
        "2.0; pass it as an argument or use a tf.Variable"]
    other = Scaler()  # another instance has its own traces and its own value
    assert float(other(tf.constant(3.0))) == 6.0 and len(_stale(caught)) == 1


def test_closure_variable(caught):
    def make():
        offset = (1, "a")

        @tf.function
        def f(x):
            return x + offset[0]

        def set_offset(v):
            nonlocal offset
            offset = v
        return f, set_offset

    f, set_offset = make()
    assert int(f(tf.constant(1))) == 2
    set_offset((5, "a"))
    assert int(f(tf.constant(1))) == 2
    assert _stale(caught) == [
        "tf.function 'f': closure variable 'offset' was (1, 'a') when traced, is (5, 'a') now: the graph still "
        "uses (1, 'a'); pass it as an argument or use a tf.Variable"]


scale_a, scale_b = 1.0, 2.0


def test_once_per_function_and_name(caught):
    global scale_a, scale_b
    scale_a, scale_b = 1.0, 2.0

    @tf.function
    def f(x):
        return x * scale_a + scale_b

    @tf.function
    def g(x):
        return x * scale_a

    x = tf.constant(1.0)
    f(x), g(x)
    scale_a = 3.0
    for _ in range(5):
        assert float(f(x)) == 3.0 and float(g(x)) == 1.0
    scale_a = 4.0  # changed again: the name was already reported for f
    f(x)
    scale_b = 7.0
    f(x)
    messages = _stale(caught)
    assert len(messages) == 3
    assert messages[0].startswith("tf.function 'f': global 'scale_a' was 1.0 when traced, is 3.0 now")
    assert messages[1].startswith("tf.function 'g': global 'scale_a' was 1.0 when traced, is 3.0 now")
    assert messages[2].startswith("tf.function 'f': global 'scale_b' was 2.0 when traced, is 7.0 now")
    scale_a, scale_b = 1.0, 2.0


def test_no_warning_when_nothing_changed(caught):
    global threshold
    threshold = 0.5

    @tf.function
    def f(x, n):
        return tf.cast(x > threshold, tf.float32) * n

    x = tf.constant([0.1, 0.9])
    for _ in range(3):
        f(x, 2), f(x, n=3)  # the hot path and the general path
    threshold = float("0.5")  # the same value, another object
    threshold_text = "0.5"
    threshold = float(threshold_text)
    assert f(x, 2).numpy().tolist() == [0.0, 2.0]
    assert _stale(caught) == []
    threshold = 0.5


step_count = 0


def test_values_not_frozen_are_not_guarded(caught):
    global step_count
    weights = tf.Variable(1.0)
    scale = np.float32(2.0)  # an array scalar is converted to a constant: not a plain value

    @tf.function
    def f(x):
        global step_count
        step_count += 1  # the function writes this global: a side effect, not a setting
        return x * weights * scale + len("ab")

    f(tf.constant(1.0))
    weights.assign(5.0)
    step_count = 100
    assert float(f(tf.constant(1.0))) == 12.0
    assert _stale(caught) == []
    assert stale.collect(f.python_function) is None


def test_input_signature_and_keywords_are_checked_too(caught):
    global threshold
    threshold = 0.5
    f = tf.function(lambda x: x > threshold, input_signature=[tf.TensorSpec([None])])
    x = tf.constant([0.6])
    f(x)
    threshold = 0.7
    assert f(x).numpy().tolist() == [True]
    assert len(_stale(caught)) == 1 and caught[-1].filename == __file__
    threshold = 0.5


factor = 2


def test_retrace_opt_in_uses_the_new_value_and_keeps_old_traces(caught):
    global factor
    factor = 2

    @tf.function(experimental_retrace_on_stale_captures=True)
    def f(x):
        return x * factor

    x = tf.constant(3)
    assert int(f(x)) == 6
    factor = 5
    assert int(f(x)) == 15 and f.experimental_get_tracing_count() == 2
    assert "global 'factor': 2 -> 5" in f.experimental_trace_history()[-1].reason
    factor = 2
    assert int(f(x)) == 6 and f.experimental_get_tracing_count() == 2  # the old trace, still cached
    factor = 5
    assert int(f(x)) == 15 and f.experimental_get_tracing_count() == 2
    assert int(f(tf.constant(1), )) == 5
    assert _stale(caught) == []
    factor = 2


def test_run_functions_eagerly_disables_it(caught):
    global factor
    factor = 2
    f = tf.function(lambda x: x * factor)
    f(tf.constant(1))
    factor = 3
    tf.config.run_functions_eagerly(True)
    try:
        assert int(f(tf.constant(1))) == 3
    finally:
        tf.config.run_functions_eagerly(False)
    assert _stale(caught) == []
    factor = 2


def test_the_guard_does_not_keep_self_alive():
    class Model(tf.Module):
        def __init__(self, k):
            super().__init__()
            self.k = float(k)

        @tf.function
        def __call__(self, x):
            return x * self.k

    x = tf.constant(1.0)
    refs = []
    for i in range(2000):
        m = Model(i)
        assert float(m(x)) == float(i)
        refs.append(weakref.ref(m))
    del m
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_many_threads_warn_once_and_compute_the_frozen_value():
    global threshold
    threshold = 0.5
    f = tf.function(lambda x: tf.cast(x > threshold, tf.int32))
    x = tf.constant([0.6, 0.7])
    f(x)
    threshold = 0.65
    results, errors = [], []

    def work():
        try:
            for _ in range(200):
                results.append(f(x).numpy().tolist())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
    assert results == [[1, 1]] * 1600
    assert len(_stale(record)) == 1
    threshold = 0.5


def test_reads_in_nested_code_count_and_writes_do_not(caught):
    global threshold
    threshold = 0.5

    class Counter(tf.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0
            self.limit = 2

        @tf.function
        def __call__(self, xs):
            self.calls = self.calls + 1  # written by the function: a side effect, not a setting
            return tf.stack([x > threshold for x in tf.unstack(xs)]), self.limit

    c = Counter()
    c(tf.constant([0.6]))
    c.calls = 10
    threshold, c.limit = 0.7, 3
    out, limit = c(tf.constant([0.6]))
    assert out.numpy().tolist() == [True] and int(limit) == 2
    messages = _stale(caught)
    assert len(messages) == 2
    assert "global 'threshold' was 0.5 when traced, is 0.7 now" in messages[0]  # read in a comprehension
    assert "attribute 'self.limit' was 2 when traced, is 3 now" in messages[1]
    threshold = 0.5


def test_functions_reading_only_modules_and_tensors_have_no_guards():
    @tf.function
    def simple(a, b):  # the bench's W1: `tf` is a module, nothing is frozen, nothing is checked
        return tf.nn.relu(tf.matmul(a, b) + 1.0)

    a = tf.constant(np.ones((2, 2), np.float32))
    simple(a, a)
    assert [cf._guards for cf in simple._list_all_concrete_functions()] == [None]


def test_an_emptied_closure_cell_warns_as_deleted(caught):
    def make():
        n = 2

        @tf.function
        def f(x):
            return x * n

        def drop():
            nonlocal n
            del n
        return f, drop

    f, drop = make()
    f(tf.constant(1))
    drop()
    assert int(f(tf.constant(1))) == 2
    assert _stale(caught) == ["tf.function 'f': closure variable 'n' was 2 when traced, is deleted now: the "
                              "graph still uses 2; pass it as an argument or use a tf.Variable"]


def test_retraces_for_new_values_are_bounded():
    global factor
    factor = 0
    f = tf.function(lambda x: x + factor, experimental_retrace_on_stale_captures=True)
    x = tf.constant(0)
    for i in range(stale.MAX_STALE_VARIANTS + 10):
        factor = i
        assert int(f(x)) == i
    (cf,) = f._list_all_concrete_functions()
    assert len(cf._stale_variants) == stale.MAX_STALE_VARIANTS
    factor = 2


def test_retrace_opt_in_with_an_object_argument_warns_and_keeps_no_reference(caught):
    global factor
    factor = 2

    class Box:
        def __init__(self, n):
            self.n = n

    f = tf.function(lambda box, x: x * box.n * factor, experimental_retrace_on_stale_captures=True)
    box = Box(3)
    assert int(f(box, tf.constant(1))) == 6
    factor = 5
    assert int(f(box, tf.constant(1))) == 6  # not retraced: the trace may not hold `box` to do it
    assert len(_stale(caught)) == 1
    ref = weakref.ref(box)
    del box
    gc.collect()
    assert ref() is None
    factor = 2


verbose = False


def _is_verbose():  # a helper of this module: the global it reads is frozen into the caller's trace
    return verbose


def test_a_global_read_by_a_helper_function_is_guarded(caught):
    global verbose
    verbose = False

    @tf.function
    def f(x):
        if _is_verbose():
            return x * 10
        return x

    assert int(f(tf.constant(2))) == 2
    verbose = True
    assert int(f(tf.constant(2))) == 2
    assert _stale(caught) == [
        "tf.function 'f': global 'verbose' was False when traced, is True now: the graph still uses False; "
        "pass it as an argument or use a tf.Variable"]
    verbose = False


def test_a_value_changing_on_every_call_warns_once_and_a_none_value_is_expected_too(caught):
    global threshold
    threshold = 0.5
    f = tf.function(lambda x: x > threshold)
    x = tf.constant([0.6])
    f(x)
    for i in range(50):
        threshold = 0.6 + i / 100
        assert f(x).numpy().tolist() == [True]
    (cf,) = f._list_all_concrete_functions()
    assert cf._guards.holds()  # expects the latest value: the next call takes the fast check
    threshold = None
    f(x)
    assert cf._guards.holds()
    assert len(_stale(caught)) == 1
    threshold = 0.5
